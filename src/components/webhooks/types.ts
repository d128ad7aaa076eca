import type { RouterOutputs } from "@/lib/trpc-types";

export type Webhook = RouterOutputs["webhooks"]["get"];
export type CreatedWebhook = RouterOutputs["webhooks"]["create"];
export type DeliveryLog = RouterOutputs["webhooks"]["listDeliveryLogs"][number];
export type WebhookEnvironment = Webhook["environment"];

export const WEBHOOK_ENVIRONMENTS: readonly { value: WebhookEnvironment; label: string }[] = [
  { value: "Both", label: "Both (sandbox and production)" },
  { value: "Sandbox", label: "Sandbox" },
  { value: "Production", label: "Production" },
];

export const webhooksPath = (projectId: string) => `/dashboard/projects/${projectId}/webhooks`;
export const deliveriesPath = (projectId: string, webhookId: string) => `${webhooksPath(projectId)}/${encodeURIComponent(webhookId)}`;
