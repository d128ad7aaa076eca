/**
 * Imported first by run.ts, before any application module reads the environment at load time.
 *
 * The bench measures what production runs: NODE_ENV=production unless set (outside production,
 * trpc-to-openapi regenerates the whole OpenAPI document on every REST request, ~10 ms of CPU).
 * It measures the request path only: access logs off, the embedded scheduler (no Inngest sends after
 * commit; no worker runs in this process, so delivery rows stay queued), a fixed encryption key so
 * nothing is written to the data folder's secrets, and http and private webhook URLs allowed so the
 * bench's webhook URLs need no DNS.
 */
// Next's types make NODE_ENV read-only; it is an ordinary variable at run time.
(process.env as Record<string, string | undefined>).NODE_ENV ??= "production";
process.env.REFERLOOP_ACCESS_LOG = "0";
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
process.env.REFERLOOP_ALLOW_HTTP_URLS = "true";
process.env.REFERLOOP_ENCRYPTION_KEY ??= "referloop-bench-only-encryption-key";
for (const name of ["INNGEST_DEV", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_BASE_URL"]) delete process.env[name];

export {};
