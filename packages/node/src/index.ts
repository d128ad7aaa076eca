/*
 * @referloop/node: the Referloop REST API from Node (or any runtime with fetch and Web Crypto), typed
 * from the OpenAPI document the server serves, and verification of its webhook deliveries.
 */
export { createReferloopClient } from "./client.ts";
export type { Answer, CallInit, ItemOf, PagedPath, PathsWith, ReferloopClient, ReferloopClientOptions } from "./client.ts";
export { ReferloopError } from "./errors.ts";
export type { Problem } from "./errors.ts";
export { verifyWebhook, WebhookVerificationError } from "./webhooks.ts";
export type { WebhookEvent, WebhookEventType, WebhookHeaders } from "./webhooks.ts";
export type { components, paths, webhooks } from "./openapi.ts";
