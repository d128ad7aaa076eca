import type { RouterOutputs } from "@/lib/trpc-types";

export type Webhook = RouterOutputs["webhooks"]["get"];
export type CreatedWebhook = RouterOutputs["webhooks"]["create"];
export type DeliveryLog = RouterOutputs["webhooks"]["listDeliveryLogs"][number];
export type WebhookEnvironment = Webhook["environment"];

const ENVIRONMENT_LABELS: Record<WebhookEnvironment, string> = {
  Both: "Both (sandbox and production)",
  Sandbox: "Sandbox",
  Production: "Production",
};
/** Both first: the default. A new environment without words fails the type check. */
export const WEBHOOK_ENVIRONMENT_OPTIONS = (Object.keys(ENVIRONMENT_LABELS) as WebhookEnvironment[]).map((value) => ({ value, label: ENVIRONMENT_LABELS[value] }));

export const webhooksPath = (projectId: string) => `/dashboard/projects/${projectId}/webhooks`;
export const deliveriesPath = (projectId: string, webhookId: string) => `${webhooksPath(projectId)}/${encodeURIComponent(webhookId)}`;
