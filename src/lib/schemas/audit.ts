import { z } from "zod";
import { pageOf, pagingInput } from "./common";
import { instantSchema } from "./instant";

/**
 * Every audited action, with the phrase the dashboard shows. Account events (sign-in, sign-out,
 * sessions, passwords, e-mail verification) are written to each organisation the account belongs to
 * at that moment: they are what gave the account access to it.
 */
export const AUDIT_ACTION_LABELS = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Failed sign-in (wrong password)",
  "auth.sign_out": "Signed out",
  "session.revoke": "Revoked a session",
  "session.revoke_all": "Signed out everywhere",
  "password.change": "Changed password",
  "password.reset": "Reset password by e-mail",
  "email.verify": "Verified e-mail address",
  "api_key.create": "Created an API key",
  "api_key.delete": "Deleted an API key",
  "api_key.roll": "Rolled an API key",
  "project.create": "Created a project",
  "project.update": "Changed project settings",
  "campaign.update": "Changed the campaign",
  "campaign.update_reward_rules": "Changed the campaign's reward rules",
  "export.app_users": "Exported app users (CSV)",
  "export.referrals": "Exported referrals (CSV)",
  "export.deliveries": "Exported webhook deliveries (CSV)",
  "export.review_decisions": "Exported the review decisions (CSV)",
  "export.leaderboard": "Exported the leaderboard (CSV)",
  "audit_log.export": "Exported the audit log",
  "project.delete": "Deleted a project",
  "project.rotate_secret": "Rotated a project secret",
  "project.rotate_publishable_key": "Rotated a publishable key",
  "webhook.create": "Created a webhook",
  "webhook.update": "Updated a webhook",
  "webhook.delete": "Deleted a webhook",
  "webhook.rotate_secret": "Rotated a webhook secret",
  "webhook.recover": "Resent deliveries after a webhook recovered",
  "webhook.test": "Sent a test event to a webhook",
  "delivery.retry": "Retried a webhook delivery",
  "delivery.bulk_retry": "Retried the webhook deliveries a filter selects",
  "inbound_hooks.update": "Changed inbound hook settings",
  "inbound_hooks.rotate_token": "Rotated the inbound hook token",
  "invitation.create": "Invited a member",
  "invitation.revoke": "Revoked an invitation",
  "invitation.accept": "Joined by invitation",
  "member.remove": "Removed a member",
  "member.role_change": "Changed a member's role",
  "organization.rename": "Renamed the organisation",
  "app_user.erase": "Erased an app user",
  "app_user.export": "Exported an app user's data",
  "review.approve": "Approved a held reward",
  "review.deny": "Denied a held reward",
  "referral.revoke": "Revoked a referral's reward",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as [AuditAction, ...AuditAction[]];

export const AUDIT_ACTOR_MAX_LENGTH = 254;
/** An export holds at most this many entries; narrow the filter (dates) for more. */
export const AUDIT_EXPORT_MAX_ENTRIES = 10_000;
export const AUDIT_EXPORT_FORMATS = ["csv", "json"] as const;

const instant = instantSchema();

/** A whole IPv4 or IPv6 address, for the filter by client address (the dashboard checks it before sending). */
export const auditIpSchema = z.union([z.ipv4(), z.ipv6()]);

/** The filter of the audit log's list and export; every part optional, `to` exclusive. */
export const auditFilterSchema = z
  .object({
    action: z.enum(AUDIT_ACTIONS).optional(),
    actor: z.string().trim().max(AUDIT_ACTOR_MAX_LENGTH).optional().describe("Part of the actor's e-mail or API key name, any case."),
    ip: auditIpSchema.optional().describe("Entries whose request came from this client IP address."),
    from: instant.optional().describe("Entries at or after this instant."),
    to: instant.optional().describe("Entries before this instant."),
  })
  .refine((f) => !f.from || !f.to || new Date(f.from) < new Date(f.to), { message: "must be after `from`", path: ["to"] });
export type AuditFilter = z.output<typeof auditFilterSchema>;

export const listAuditEntriesInput = auditFilterSchema.safeExtend(pagingInput);
export const exportAuditEntriesInput = auditFilterSchema.safeExtend({ format: z.enum(AUDIT_EXPORT_FORMATS).default("csv") });

export const auditEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  actorType: z.enum(["user", "apiKey", "service"]),
  actorId: z.string().nullable(),
  actorLabel: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  userAgent: z.string().nullable(),
  /** The client's address for the request (the peer, or behind trusted proxies the forwarded client); null when unknown. */
  ipAddress: z.string().nullable(),
});
export type AuditEntryDto = z.output<typeof auditEntrySchema>;
export const auditPageSchema = pageOf(auditEntrySchema);
