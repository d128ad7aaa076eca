/*
 * @referloop/node: the Referloop REST API from Node (or any runtime with fetch and Web Crypto), typed
 * from the OpenAPI document the server serves, and verification of its webhook deliveries.
 */
export { createReferloopClient } from "./client.js";
export type { Answer, CallInit, ItemOf, PagedPath, PathsWith, ReferloopClient, ReferloopClientOptions } from "./client.js";
export { ReferloopError } from "./errors.js";
export type { Problem } from "./errors.js";
export { verifyWebhook, WebhookVerificationError } from "./webhooks.js";
export type { WebhookEvent, WebhookHeaders } from "./webhooks.js";
export type { components, paths, webhooks } from "./openapi.js";
