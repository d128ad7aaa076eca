import { WEBHOOK_DISABLED_REASONS } from "@/lib/schemas/webhooks";
import { appLinks } from "@/server/api/trpc/app-links";
import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import type { WebhookAlert } from "@/server/domain/deliveries/webhook-health";
import { sendWebhookDisabledEmail, sendWebhookFailingEmail } from "@/server/mail/send";
import { logger } from "@/server/observability/logger";

/**
 * Tells the owners of each alert's organisation, by e-mail, that a webhook started failing or was
 * disabled. Best-effort: a failure is logged, never thrown into the delivery that noticed it. Sent
 * from a worker, outside any request, so the link is built on the configured public URL (with
 * REFERLOOP_ALLOW_HOST_LINKS and none configured, on localhost); without either the notice has no link.
 */
export async function alertWebhookOwners(db: Db, alerts: readonly WebhookAlert[], config: Config): Promise<void> {
  const base = config.publicUrl ?? (config.hostLinks ? "http://localhost:3000" : null);
  for (const alert of alerts) {
    try {
      const webhook = await db.webhook.findUnique({
        where: { id: alert.webhookId },
        select: {
          name: true,
          url: true,
          projectId: true,
          project: { select: { name: true, organization: { select: { memberships: { where: { role: "owner" }, select: { user: { select: { email: true } } } } } } } },
        },
      });
      if (!webhook) continue;
      const lastAttempt = await db.deliveryAttempt.findFirst({ where: { webhookId: alert.webhookId }, orderBy: { createdAt: "desc" }, select: { error: true } });
      const notice = {
        webhook: webhook.name,
        url: webhook.url,
        project: webhook.project.name,
        link: base && appLinks.webhook(base, webhook.projectId, alert.webhookId),
      };
      for (const { user } of webhook.project.organization.memberships) {
        if (alert.kind === "disabled") await sendWebhookDisabledEmail({ to: user.email, ...notice, reason: WEBHOOK_DISABLED_REASONS[alert.reason] }, config);
        else await sendWebhookFailingEmail({ to: user.email, ...notice, lastError: lastAttempt?.error ?? null }, config);
      }
    } catch (error) {
      logger().error({ err: error, webhookId: alert.webhookId, alert: alert.kind }, "could not tell a webhook's owners");
    }
  }
}
