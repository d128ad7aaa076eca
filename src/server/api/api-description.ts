import { MAX_BODY_BYTES } from "@/server/api/rest/handle-rest-request";
import { DEFAULT_ATTRIBUTION_WINDOW_DAYS, MAX_ATTRIBUTION_WINDOW_DAYS, MIN_ATTRIBUTION_WINDOW_DAYS } from "@/lib/schemas/campaigns";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { REWARD_REASON_CODES } from "@/lib/schemas/referrals";
import { IDEMPOTENCY_DOC } from "@/server/api/idempotency";
import {
  DEFAULT_RETRY_BASE_MS,
  JITTER_RATIO,
  MAX_ATTEMPTS,
  minBackoffMs,
  PERMANENT_STATUSES,
  RETRY_AFTER_CAP_MS,
} from "@/server/domain/deliveries/retry-policy";
import { DEFAULT_ATTEMPT_TIMEOUT_MS } from "@/server/domain/deliveries/perform-attempt";

const seconds = (ms: number) => `${ms / 1000} s`;
/** The backoffs between the attempts, as the retry policy computes them. */
const BACKOFFS = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => seconds(minBackoffMs(i + 1, DEFAULT_RETRY_BASE_MS))).join(", ");
import { API_KEY_ROLE_LABELS } from "@/lib/permissions";
import { API_KEY_ROLES } from "@/lib/schemas/accounts";
import { GENERATED_SECRET_BYTES, MAX_WEBHOOK_SECRET_LENGTH, MIN_WEBHOOK_SECRET_LENGTH } from "@/lib/webhook-secrets";

/**
 * The prose of the API reference: conventions and every decision the interface specification left
 * open. Rendered at the top of the dashboard's API reference page.
 */
export const API_DESCRIPTION = `
The Referloop REST API. Backends call \`/api/v1/public/...\` with \`Authorization: Bearer <API key>\`.

## Conventions
- Request bodies: \`application/json\`, \`text/json\` or \`application/*+json\`, at most ${MAX_BODY_BYTES / 1024} KiB (larger: 413; other media types: 415; malformed JSON: 400).
- Top-level request field names and query parameter names are accepted in camelCase or PascalCase (\`referrerId\` or \`ReferrerId\`). Unknown fields are ignored. Numbers and booleans in bodies must be JSON numbers and booleans (\`"0.5"\` is a 400).
- Responses are JSON in camelCase. Ask with \`Accept: text/json\` or \`text/plain\` to have the same JSON labelled with that media type.
- Errors are \`application/problem+json\` (RFC 9457) with a stable \`type\` (\`urn:referloop:problem:<kind>\`), \`title\`, \`status\` and \`detail\`; validation errors list each failing field (dotted path) and rule in \`errors\`.
- 401: the key is missing, malformed, unknown, deleted (or revoked with its creator's removal) or past its \`expiresAt\`. 403: the key's role does not allow the operation.
- 404: the resource does not exist **or belongs to another organisation**; the two are indistinguishable. This also holds for a project id in the path that another organisation owns.
- 409: a conflict with stored state (duplicate \`ClientProvidedId\`, a retry of a delivered webhook). 422: an \`Idempotency-Key\` reused for a different request.
- Creates answer 201 with the created record; deletes answer 200 with an empty body; a manual webhook retry answers 202.
- Paged lists share one envelope: \`items\`, \`page\` (from 1), \`pageSize\` (1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}), \`totalCount\`, \`hasNextPage\`. Out-of-range paging is a 400, never silently clamped.
- Idempotency: \`POST\` create-user, track, link and reward accept \`Idempotency-Key\`. ${IDEMPOTENCY_DOC}

## API keys and roles
Each key acts with the role chosen when it was created, never more than its creator's own role:
${API_KEY_ROLES.map((r) => `- \`${r}\`: ${API_KEY_ROLE_LABELS[r].split(": ")[1]}.`).join("\n")}

An operation the key's role does not allow answers 403 (\`urn:referloop:problem:forbidden\`); each operation below names its permission and the roles that have it. A key stops working (401) when it is deleted, when it expires, and when the member who created it is removed from the organisation (the owner confirms the list of their keys first). When its creator's role is lowered, the key's role is lowered to match. Keys made before roles existed are owner keys with no recorded creator.

## Projects
\`appType\` (\`Web\` or \`Mobile\`) defaults to \`Web\` and cannot change after creation: a PUT with a different value is a 400. \`referralRedirectLink\` must be an absolute http(s) URL without query or fragment (the service appends \`referralCode\`); https only when the service runs in production mode. The \`sk_\` project secret is returned once, on creation and on rotation.

## Referrals and rewards
- Every app user gets a 6-character alphanumeric referral code, unique within the project, from a cryptographic random source.
- A tracking item is \`Pending\` until a reward event moves it to \`Completed\` (reward granted, webhooks queued) or \`Failed\` (an eligibility check failed; no webhook). Both are final.
- The reward call answers 200 whether or not the reward was claimed; \`rewardClaimed\` and \`reason\` tell which. Reasons: ${REWARD_REASON_CODES.map((r) => `\`${r}\``).join(", ")}.
- **Each reward event is tracked independently.** When the item was pre-assigned an event (\`rewardEventName\`) and the reported event has another name (names compare exactly, case-sensitive), the event is recorded on its own and the item **stays Pending**, so the right event can still claim it.
- The attribution window is ${DEFAULT_ATTRIBUTION_WINDOW_DAYS} days by default (\`attributionWindowDays\` in the campaign, ${MIN_ATTRIBUTION_WINDOW_DAYS} to ${MAX_ATTRIBUTION_WINDOW_DAYS}).
- Counters: \`totalReferralsGiven\` and \`totalReferralsReceived\` count tracked arrivals; \`successfulReferrals\` counts rewarded referrals. \`referredBy\` is the referrer of the first completed reward.
- Concurrency: the database enforces one claim per item and one reward per referrer/referee pair; concurrent calls produce exactly one completion.

## Webhook deliveries
When a reward is granted, each enabled webhook of the campaign whose environment scope matches gets one delivery: \`Sandbox\` calls reach \`Sandbox\` and \`Both\` webhooks, \`Production\` calls reach \`Production\` and \`Both\`, and a call without environment reaches every enabled webhook once.

The request is a \`POST\` with \`Content-Type: application/json\` and the body fields \`event\`, \`referrerId\`, \`refereeId\`, \`rewardClaimedAt\`, \`trackingId\` (dedupe on it), \`rewardStatus\` (\`Completed\`), \`projectId\`, \`projectName\`, \`campaignId\`. Headers:
- \`Authorization: Bearer <webhook secret>\`
- \`X-Service-Delivery-Id\` and \`webhook-id\`: the delivery id, the same on every retry of one delivery.
- \`webhook-timestamp\`: unix seconds of this attempt.
- \`webhook-signature\` and \`X-Service-Signature\`: \`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}">\` ([Standard Webhooks](https://www.standardwebhooks.com/)).

**Secrets.** Omit \`secret\` when creating a webhook and the service generates one in the Standard Webhooks form, \`whsec_\` + base64 of ${GENERATED_SECRET_BYTES} random bytes (returned once, in the create response); the HMAC key is the base64-decoded bytes after \`whsec_\`, so the official libraries take the secret as it is:
\`\`\`js
import { Webhook } from "standardwebhooks";
const wh = new Webhook(process.env.REFERLOOP_WEBHOOK_SECRET); // "whsec_..."
const payload = wh.verify(rawBody, { "webhook-id": h["webhook-id"], "webhook-timestamp": h["webhook-timestamp"], "webhook-signature": h["webhook-signature"] });
\`\`\`
A secret you choose yourself has ${MIN_WEBHOOK_SECRET_LENGTH} to ${MAX_WEBHOOK_SECRET_LENGTH} visible ASCII characters (no spaces); one starting with \`whsec_\` must be a Standard Webhooks secret (base64 of 24 to 64 bytes) and is keyed as above. Any other chosen secret is keyed with its UTF-8 bytes: give the library those bytes.
\`\`\`js
const wh = new Webhook(new TextEncoder().encode(process.env.REFERLOOP_WEBHOOK_SECRET), { format: "raw" });
\`\`\`
or by hand: compute the HMAC above, base64-encode it, compare in constant time with the part after \`v1,\`, and reject timestamps more than 5 minutes old.

Policy: any 2xx is success. At most ${MAX_ATTEMPTS} attempts, backing off ${BACKOFFS} (plus up to ${JITTER_RATIO * 100}% jitter; \`Retry-After\` on 429/503 is honoured up to ${RETRY_AFTER_CAP_MS / 60_000} minutes). Each attempt has ${seconds(DEFAULT_ATTEMPT_TIMEOUT_MS)} in total. Redirects are not followed. ${[...PERMANENT_STATUSES].join(", ")} are permanent and dead-letter the delivery at once; 408, 429, other 4xx, 5xx, timeouts and network errors are retried. A failed entry of a dead-lettered delivery can be retried from the dashboard or with \`POST /webhooks/logs/{logId}/retry\`.

Webhook URLs must be https in production mode, and URLs resolving to loopback, private, link-local or metadata addresses are refused there, at creation and again at each send (the error says the address is not public, without naming it). Secrets are stored encrypted and returned only on creation; the environment scope field is \`environment\` (\`Sandbox\`, \`Production\` or \`Both\`, default \`Both\`).
`.trim();
