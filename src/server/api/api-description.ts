import {
  DEFAULT_ATTRIBUTION_MODEL,
  DEFAULT_ATTRIBUTION_WINDOW_DAYS,
  MAX_ATTRIBUTION_WINDOW_DAYS,
  MIN_ATTRIBUTION_WINDOW_DAYS,
} from "@/lib/schemas/campaigns";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { REWARD_REASON_CODES } from "@/lib/schemas/referrals";
import { TEXT_RULES } from "@/lib/schemas/well-formed-text";
import { IDEMPOTENCY_DOC } from "@/server/api/idempotency";
import { PROBLEM_TYPES, problemType, type ProblemSlug } from "@/server/api/problem";
import { JSON_MEDIA_TYPES, MAX_BODY_BYTES } from "@/server/http/request-body";
import { REQUEST_ID_PATTERN } from "@/server/http/request-id";
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
import { GENERATED_SECRET_BYTES, MAX_WEBHOOK_SECRET_LENGTH, MIN_WEBHOOK_SECRET_LENGTH } from "@/lib/webhook-secrets";

/** The document's tags, one per resource, in the order the reference shows them. */
export const API_TAGS = [
  { name: "Projects", description: "An app or environment: an isolated container with its own secret, users, campaign and webhooks." },
  { name: "App users", description: "The end users of your app, each with a referral code; identified to you by your own id (`clientProvidedId`)." },
  { name: "Campaign", description: "The referral experience of a project (the referrer's sharing UI, the new user's banner) and its attribution rules." },
  { name: "Referrals", description: "Referral links, tracked arrivals, and reward events with their eligibility checks." },
  { name: "Webhooks", description: "Where granted rewards are delivered, the delivery log, manual retries, and the delivery itself (see `webhooks`)." },
  { name: "Activity", description: "The project's activity feed." },
] as const;

const problemCatalogue = Object.entries(PROBLEM_TYPES)
  .map(([slug, { status, meaning }]) => `- \`${problemType(slug as ProblemSlug)}\` (${status}): ${meaning}`)
  .join("\n");

/**
 * The prose of the API reference: conventions and every decision the interface specification left
 * open. Rendered at the top of the dashboard's API reference page.
 */
export const API_DESCRIPTION = `
The Referloop REST API. Backends call \`/api/v1/public/...\` with \`Authorization: Bearer <API key>\`.

## Conventions
- Request bodies: ${JSON_MEDIA_TYPES.map((t) => `\`${t}\``).join(", ")}, at most ${MAX_BODY_BYTES / 1024} KiB (larger: 413; other media types: 415; malformed JSON: 400). An operation that takes a body refuses a request without one (or with only whitespace) with a 400 naming \`(body)\`; \`{}\` is a body.
- Text: no string anywhere in a request (path, query, body, keys of maps) may contain the NUL character or an unpaired UTF-16 surrogate; either is a 400 naming the field, with the rule ${Object.keys(TEXT_RULES).map((r) => `\`${r}\``).join(" or ")}.
- Every response carries \`X-Request-Id\`: yours, if you sent one matching \`${REQUEST_ID_PATTERN.source}\`, else a new UUID. Problems repeat it as \`requestId\`. An internal error (500) says nothing but that id; quote it when reporting the problem.
- Methods: a path answers \`OPTIONS\` (204) and \`HEAD\` (as \`GET\` without the body); another method on a known path is a 405 with \`Allow\`. A path whose percent-escapes do not decode to UTF-8 is a 400 (\`malformed-path\`).
- Top-level request field names and query parameter names are accepted in camelCase or PascalCase (\`referrerId\` or \`ReferrerId\`). Unknown fields are ignored. Numbers and booleans in bodies must be JSON numbers and booleans (\`"0.5"\` is a 400).
- Responses are JSON in camelCase. Ask with \`Accept: text/json\` or \`text/plain\` to have the same JSON labelled with that media type.
- Errors are \`application/problem+json\` (RFC 9457) with a stable \`type\` (\`urn:referloop:problem:<kind>\`), \`title\`, \`status\` and \`detail\`; validation errors list each failing field (dotted path) and rule in \`errors\`.
- 401: the key is missing, malformed, unknown, deleted or past its \`expiresAt\`.
- 404: the resource does not exist **or belongs to another organisation**; the two are indistinguishable. This also holds for a project id in the path that another organisation owns.
- 409: a conflict with stored state (duplicate \`ClientProvidedId\`, a retry of a delivered webhook). 422: an \`Idempotency-Key\` reused for a different request.
- Creates answer 201 with the created record; deletes answer 200 with an empty body; a manual webhook retry answers 202.
- Paged lists share one envelope: \`items\`, \`page\` (from 1), \`pageSize\` (1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}), \`totalCount\`, \`hasNextPage\`. Out-of-range paging is a 400, never silently clamped.
- Idempotency: \`POST\` create-user, track, link and reward accept \`Idempotency-Key\`. ${IDEMPOTENCY_DOC}

## Rate limits
Each API key may make a number of requests per minute (600 by default; your organisation may have its own quota, and every response states the one that applies): the first request opens a window of 60 seconds in which the quota may be spent at any pace, even all at once, and the next request after it opens a new window. Every response to a known key carries the IETF RateLimit fields (draft 10): \`RateLimit-Policy: "api-key";q=600;w=60\` (the quota) and \`RateLimit: "api-key";r=599;t=60\` (requests left, seconds until the window ends). Over the quota the answer is a 429 problem (\`rate-limited\`) with \`Retry-After\` in seconds; refused requests count too, so wait rather than retry at once. The client-library endpoints count per project key and client address.

## Problems
Every error is \`application/problem+json\`. The \`type\` values:
${problemCatalogue}

## Projects
\`appType\` (\`Web\` or \`Mobile\`) defaults to \`Web\` and cannot change after creation: a PUT with a different value is a 400. \`referralRedirectLink\` must be an absolute http(s) URL without query or fragment (the service appends \`referralCode\`); https only when the service runs in production mode. The \`sk_\` project secret is returned once, on creation and on rotation.

## Referrals and rewards
- Every app user gets a 6-character alphanumeric referral code, unique within the project, from a cryptographic random source.
- A tracking item is \`Pending\` until a reward event moves it to \`Completed\` (reward granted, webhooks queued) or \`Failed\` (an eligibility check failed; no webhook). Both are final.
- The reward call answers 200 whether or not the reward was claimed; \`rewardClaimed\` and \`reason\` tell which. Reasons: ${REWARD_REASON_CODES.map((r) => `\`${r}\``).join(", ")}.
- **One referral per referee.** A referee completes at most one referral per project, whoever referred them and however often they arrived. When a referee arrived more than once (through one referrer's link or several), the campaign's \`attributionModel\` names the arrival that may complete: \`${DEFAULT_ATTRIBUTION_MODEL}\` (the default: the earliest arrival still Pending and within the attribution window) or \`last\` (the latest). A reward event for another arrival fails it with \`not_first_arrival\` or \`not_last_arrival\`; report the event with the tracking id of the arrival that holds the referral (the referee's items are listed by \`GET .../users/{uniqueId}/referrals?direction=received\`). Every arrival is still tracked and counted. Once the referee's referral completed, any other item of theirs fails with \`duplicate_referee\`.
- **No mutual referral.** If A was rewarded for referring B, B's item for referring A fails with \`mutual_referral\`.
- **An arrival without a referee cannot complete.** An anonymous arrival (tracked before the user was known) records the event (\`referee_unknown\`) and stays Pending until the referee is bound to it.
- These rules hold under concurrency: the database keeps one reward per referee and one per pair of users (either way round), whatever the order of simultaneous calls.
- **Each reward event is tracked independently.** When the item was pre-assigned an event (\`rewardEventName\`) and the reported event has another name (names compare exactly, case-sensitive), the event is recorded on its own and the item **stays Pending**, so the right event can still claim it.
- The attribution window is ${DEFAULT_ATTRIBUTION_WINDOW_DAYS} days by default (\`attributionWindowDays\` in the campaign, ${MIN_ATTRIBUTION_WINDOW_DAYS} to ${MAX_ATTRIBUTION_WINDOW_DAYS}).
- Counters: \`totalReferralsGiven\` and \`totalReferralsReceived\` count tracked arrivals; \`successfulReferrals\` counts rewarded referrals. \`referredBy\` is the referrer of the first completed reward.
- Concurrency: the database enforces one claim per item, one reward per referee and one per pair of users; concurrent calls produce exactly one completion.

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
