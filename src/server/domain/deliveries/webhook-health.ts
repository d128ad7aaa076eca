import type { WebhookDisabledReason } from "@/lib/schemas/webhooks";

/**
 * What recording attempts changed in a webhook's health that its owners are told of: it started
 * failing (at most once a day: the state keeps when it last said so), or the service disabled it.
 */
export type WebhookAlert = { webhookId: string } & ({ kind: "failing" } | { kind: "disabled"; reason: WebhookDisabledReason });

/** At most one "starts failing" e-mail per webhook in this time. */
export const FAILING_NOTICE_INTERVAL_MS = 24 * 60 * 60_000;
