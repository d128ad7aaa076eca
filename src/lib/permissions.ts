import type { ApiKeyRole, MemberRole } from "@/generated/prisma/enums";

/*
 * Who may do what, as data, in one home. Procedures name their permission in their meta
 * (`permission: "projects.delete"`) and one middleware checks it against this table
 * (src/server/api/trpc/procedures.ts); the dashboard reads the same table to hide or disable what a role cannot
 * use, and the README and the API reference print it.
 *
 * Principals: the three member roles, and API keys. An owner or member API key acts exactly as that
 * role; a `readOnly` key may call the GET operations of the REST API and nothing else (a test holds
 * every REST operation to that).
 */

export type Principal = MemberRole | "readOnly";

const O = "owner";
const M = "member";
const V = "viewer";
const R = "readOnly";

export const PERMISSIONS = {
  "projects.read": { roles: [O, M, V, R], label: "See projects" },
  "projects.create": { roles: [O, M], label: "Create projects" },
  "projects.update": { roles: [O, M], label: "Edit projects" },
  "projects.delete": { roles: [O], label: "Delete projects" },
  "projects.rotateSecret": { roles: [O], label: "Rotate project secrets and publishable keys" },
  "appUsers.read": { roles: [O, M, V, R], label: "See app users" },
  "appUsers.write": { roles: [O, M], label: "Create, edit and erase app users" },
  "campaigns.read": { roles: [O, M, V, R], label: "See campaigns" },
  "campaigns.update": { roles: [O, M], label: "Edit campaigns" },
  "referrals.read": { roles: [O, M, V, R], label: "See referrals and activity" },
  "referrals.write": { roles: [O, M], label: "Track referrals, make links, grant rewards" },
  "reviews.read": { roles: [O, M, V, R], label: "See the review queue of held rewards" },
  "reviews.decide": { roles: [O, M], label: "Approve and deny held rewards" },
  "webhooks.read": { roles: [O, M, V, R], label: "See webhooks and delivery logs" },
  "webhooks.write": { roles: [O, M], label: "Create, edit and delete webhooks" },
  "deliveries.retry": { roles: [O, M, V], label: "Retry failed webhook deliveries" },
  "inboundHooks.read": { roles: [O, M, V, R], label: "See inbound hooks (token and URLs) and inbound events" },
  "inboundHooks.write": { roles: [O, M], label: "Set inbound hook secrets and event names" },
  "inboundHooks.rotateToken": { roles: [O], label: "Rotate the inbound hook token" },
  "apiKeys.read": { roles: [O, M, V], label: "See API keys (masked)" },
  "apiKeys.create": { roles: [O, M], label: "Create API keys (up to their own role)" },
  "apiKeys.deleteOwn": { roles: [O, M], label: "Delete API keys they created" },
  "apiKeys.deleteAny": { roles: [O], label: "Delete any API key" },
  "members.read": { roles: [O, M, V], label: "See members" },
  "members.invite": { roles: [O], label: "Invite members and revoke invitations" },
  "members.changeRole": { roles: [O], label: "Change members' roles" },
  "members.remove": { roles: [O], label: "Remove members (and the keys they created)" },
  "organization.rename": { roles: [O], label: "Rename the organisation" },
  "audit.read": { roles: [O], label: "Read and export the audit log" },
} as const satisfies Record<string, { roles: readonly Principal[]; label: string }>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function can(principal: Principal | null | undefined, permission: Permission): boolean {
  return !!principal && (PERMISSIONS[permission].roles as readonly Principal[]).includes(principal);
}

export const ROLE_LABELS: Record<Principal, string> = { owner: "Owner", member: "Member", viewer: "Viewer", readOnly: "Read-only key" };

export const ROLE_DESCRIPTIONS: Record<MemberRole, string> = {
  owner: "Everything, including members, deleting projects, rotating secrets and the audit log.",
  member: "Works with projects, campaigns, users, referrals, webhooks and their own API keys.",
  viewer: "Support staff: reads everything and retries failed deliveries, changes nothing else.",
};

export const API_KEY_ROLE_LABELS: Record<ApiKeyRole, string> = {
  owner: "Owner: every operation",
  member: "Member: every operation except deleting projects and rotating secrets",
  readOnly: "Read-only: GET operations only",
};

/** The roles the REST API lets a key of each kind act with, most powerful first. */
const KEY_ROLE_ORDER: readonly ApiKeyRole[] = ["owner", "member", "readOnly"];
/** The most a key may be given (or keep) by a member of each role. */
const MAX_KEY_ROLE: Record<MemberRole, ApiKeyRole> = { owner: "owner", member: "member", viewer: "readOnly" };

/** Key roles a member of `role` may give a new key: never more than their own. */
export function grantableKeyRoles(role: MemberRole | null | undefined): ApiKeyRole[] {
  if (!can(role, "apiKeys.create")) return [];
  return KEY_ROLE_ORDER.slice(KEY_ROLE_ORDER.indexOf(MAX_KEY_ROLE[role!]));
}

/** A key's role once its creator holds `role`: lowered when the creator's role no longer allows it. */
export function cappedKeyRole(keyRole: ApiKeyRole, creatorRole: MemberRole): ApiKeyRole {
  const max = MAX_KEY_ROLE[creatorRole];
  return KEY_ROLE_ORDER.indexOf(keyRole) < KEY_ROLE_ORDER.indexOf(max) ? max : keyRole;
}

/** "Only owners can delete projects." — why a button is disabled, from the table. */
export function deniedReason(permission: Permission): string {
  const people = (PERMISSIONS[permission].roles as readonly Principal[]).filter((r): r is MemberRole => r !== "readOnly");
  const names = people.map((r) => `${ROLE_LABELS[r].toLowerCase()}s`);
  const who = names.length === 1 ? `Only ${names[0]}` : `Only ${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${who} can ${PERMISSIONS[permission].label.charAt(0).toLowerCase()}${PERMISSIONS[permission].label.slice(1)}.`;
}
