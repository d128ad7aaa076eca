import {
  DEFAULT_ATTRIBUTION_MODEL,
  DEFAULT_ATTRIBUTION_WINDOW_DAYS,
  DEFAULT_MATCH_WINDOW_MINUTES,
  MAX_ATTRIBUTION_WINDOW_DAYS,
  MAX_MATCH_WINDOW_MINUTES,
  MIN_ATTRIBUTION_WINDOW_DAYS,
  MIN_MATCH_WINDOW_MINUTES,
} from "@/lib/schemas/campaigns";
import { MAX_ICON_BYTES, MAX_ICON_SIDE, MIN_ICON_SIDE } from "@/lib/sniff-image";
import { DEFAULT_MATCH_THRESHOLD } from "@/server/domain/attribution/match-click";
import { CLICK_PURGE_INTERVAL_MS } from "@/server/jobs/click-purge";
import { MAX_CLICK_BODY } from "@/server/http/landing/record-landing-click";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { DEFAULT_PORTAL_SESSION_SECONDS, MAX_MILESTONE_REFERRALS, MAX_MILESTONES, MAX_PORTAL_SESSION_SECONDS, MIN_PORTAL_SESSION_SECONDS } from "@/lib/schemas/portal";
import { DELIVERY_COUNT_MAX } from "@/lib/schemas/deliveries";
import { LIST_COUNT_MAX } from "@/lib/schemas/common";
import { RECOVERY_WINDOW_DAYS } from "@/lib/schemas/webhooks";
import { RECOVERY_PACE_MS } from "@/server/domain/deliveries/resend-exhausted";
import { REWARD_REASON_CODES } from "@/lib/schemas/referrals";
import { MAX_HOLD_DAYS, MAX_REWARD_CAP } from "@/lib/schemas/reward-rules";
import { RESERVED_KEY, TEXT_RULES } from "@/lib/schemas/well-formed-text";
import { IDEMPOTENCY_DOC } from "@/server/api/trpc/idempotency";
import { INBOUND_IGNORE_REASONS } from "@/lib/schemas/inbound-hooks";
import { STRIPE_REFEREE_METADATA_KEY, STRIPE_TOLERANCE_S } from "@/server/domain/inbound-hooks/stripe-event";
import { PROBLEM_TYPES, problemType, type ProblemSlug } from "@/server/http/problem";
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
import { API_KEY_ROLE_LABELS } from "@/lib/permissions";
import { API_KEY_ROLES } from "@/lib/schemas/accounts";
import { GENERATED_SECRET_BYTES, MAX_WEBHOOK_SECRET_LENGTH, MIN_WEBHOOK_SECRET_LENGTH } from "@/lib/webhook-secrets";
import { BINDING_REFUSALS } from "@/lib/schemas/referrals";
import { APP_STORE_HOSTS, MAX_ALLOWED_ORIGINS, PLAY_STORE_HOSTS } from "@/lib/schemas/projects";
import { PROJECT_KEY_HEADER, PROJECT_SECRET_HEADER } from "@/lib/schemas/sdk";
import { PREFLIGHT_HEADERS, PREFLIGHT_MAX_AGE_S } from "@/server/api/rest/sdk-cors";
import { EARLIEST_INSTANT, LATEST_INSTANT } from "@/lib/schemas/instant";

/** The document's tags, one per resource, in the order the reference shows them. */
export const API_TAGS = [
  { name: "Projects", description: "An app or environment: an isolated container with its own secret, users, campaign and webhooks." },
  { name: "App users", description: "The end users of your app, each with a referral code; identified to you by your own id (`clientProvidedId`)." },
  { name: "Campaign", description: "The referral experience of a project (the referrer's sharing UI, the new user's banner) and its attribution rules." },
  { name: "Referrals", description: "Referral links, tracked arrivals, and reward events with their eligibility checks." },
  { name: "Webhooks", description: "Where granted rewards are delivered, the delivery log, manual retries, and the delivery itself (see `webhooks`)." },
  {
    name: "Deliveries",
    description: "Every delivery of the project across its webhooks, for support: search, each attempt's request as sent and response as received, retries and bulk retries.",
  },
  {
    name: "Inbound hooks",
    description: "Conversions from Stripe and RevenueCat: the project's hook token and URLs, provider secrets, event names, and every event received (see *Inbound conversions* above).",
  },
  { name: "Reviews", description: "Rewards a campaign rule holds back (`rewardRules`), waiting for a person's decision or the end of a hold." },
  { name: "Activity", description: "The project's activity feed." },
  { name: "Insight", description: "What a project's referral program produces: figures over a range of days, the leaderboard, and CSV exports." },
  {
    name: "Client library",
    description: "What the web widget, mobile apps and your backend's reward call use, with a project key instead of an API key (see *Client library* above).",
  },
] as const;

const problemCatalogue = Object.entries(PROBLEM_TYPES)
  .map(([slug, { status, meaning }]) => `- \`${problemType(slug as ProblemSlug)}\` (${status}): ${meaning}`)
  .join("\n");

/**
 * The prose of the API reference: conventions and every decision the interface specification left
 * open. Rendered at the top of the dashboard's API reference page.
 */
export const API_DESCRIPTION = `
The Referloop REST API. Backends call \`/api/v1/public/...\` with \`Authorization: Bearer <API key>\`. The client library (the web widget, mobile apps, and your backend's reward call) calls \`/api/v1/sdk/...\` with a project key: see *Client library* below.

Packages typed from this document: \`@referloop/node\` (this REST API with retries, idempotency keys and typed problems, and \`verifyWebhook\` for *Webhook deliveries*), \`@referloop/js\` (the web widget for bundlers) and \`@referloop/react-native\` (the mobile client), versioned 1.x for \`v1\`.

## Conventions
- Request bodies: ${JSON_MEDIA_TYPES.map((t) => `\`${t}\``).join(", ")}, at most ${MAX_BODY_BYTES / 1024} KiB (larger: 413; other media types: 415; malformed JSON: 400). An operation that takes a body refuses a request without one (or with only whitespace) with a 400 naming \`(body)\`; \`{}\` is a body. The one exception is the app icon upload, whose body is the image itself (see *Mobile projects*).
- Text: no string anywhere in a request (path, query, body, keys of maps) may contain the NUL character or an unpaired UTF-16 surrogate; either is a 400 naming the field, with the rule ${Object.keys(TEXT_RULES).map((r) => `\`${r}\``).join(" or ")}. A map (\`attributes\`, for one) may not hold the key \`__proto__\`: a 400 naming the map, rule \`${RESERVED_KEY}\`.
- Every response carries \`X-Request-Id\`: yours, if you sent one matching \`${REQUEST_ID_PATTERN.source}\`, else a new UUID. Problems repeat it as \`requestId\`. An internal error (500) says nothing but that id; quote it when reporting the problem.
- Methods: a path answers \`OPTIONS\` (204) and \`HEAD\` (as \`GET\` without the body); another method on a known path is a 405 with \`Allow\`. On the client library's paths, \`OPTIONS\` is a browser's CORS preflight (see *Client library*). A path whose percent-escapes do not decode to UTF-8 is a 400 (\`malformed-path\`).
- Top-level request field names and query parameter names are accepted in camelCase or PascalCase (\`referrerId\` or \`ReferrerId\`). Unknown fields are ignored. Numbers and booleans in bodies must be JSON numbers and booleans (\`"0.5"\` is a 400).
- Dates and times in queries and bodies (\`from\`, \`to\`, ...) are ISO 8601 with an offset (\`Z\` or \`±hh:mm\`), between \`${EARLIEST_INSTANT}\` and \`${LATEST_INSTANT}\` once read as UTC (what the database stores); another is a 400 naming the field. The document's \`date-time\` pattern refuses year 0000.
- Responses are JSON in camelCase. Ask with \`Accept: text/json\` or \`text/plain\` to have the same JSON labelled with that media type.
- Errors are \`application/problem+json\` (RFC 9457) with a stable \`type\` (\`urn:referloop:problem:<kind>\`), \`title\`, \`status\` and \`detail\`; validation errors list each failing field (dotted path) and rule in \`errors\`.
- 401: the key is missing, malformed, unknown, deleted (or revoked with its creator's removal) or past its \`expiresAt\`. 403: the key's role does not allow the operation.
- 404: the resource does not exist **or belongs to another organisation**; the two are indistinguishable. This also holds for a project id in the path that another organisation owns.
- 503 (\`unavailable\`) with \`Retry-After\` (seconds): the database is unavailable for a moment (a restart, a failover, no free connection); each write is all or nothing, but one may have been applied just before the connection dropped, so send the same request again after that time (with its \`Idempotency-Key\`, if it had one): a repeated reward then answers \`already_completed\`.
- 409: a conflict with stored state (duplicate \`ClientProvidedId\`, a retry of a delivered webhook). 422: an \`Idempotency-Key\` reused for a different request.
- Creates answer 201 with the created record; deletes answer 200 with an empty body; a manual webhook retry answers 202.
- Paged lists share one envelope: \`items\`, \`page\` (from 1), \`pageSize\` (1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}), \`totalCount\`, \`hasNextPage\`. Out-of-range paging is a 400, never silently clamped. The delivery search and the app-user and referral lists count their matches only up to ${DELIVERY_COUNT_MAX.toLocaleString("en-GB")} (deliveries) and ${LIST_COUNT_MAX.toLocaleString("en-GB")} (users, referrals) and say whether their \`totalCount\` is exact (\`totalCountExact\`); their \`hasNextPage\` is exact either way. **Compatibility:** the app-user list (\`GET .../users\`) and the referral lists (\`GET .../referrals\`, \`GET .../users/{uniqueId}/referrals\`) used to count every match; they now answer \`totalCount\` ${LIST_COUNT_MAX.toLocaleString("en-GB")} with \`totalCountExact: false\` when more match (a large project unfiltered included). A client that computes the number of pages from \`totalCount\` should page on while \`hasNextPage\` instead.
- Idempotency: \`POST\` create-user, track, link and reward, and the client library's track-reward-event (keyed like reward), accept \`Idempotency-Key\`. ${IDEMPOTENCY_DOC}

## API keys and roles
Each key acts with the role chosen when it was created, never more than its creator's own role:
${API_KEY_ROLES.map((r) => `- \`${r}\`: ${API_KEY_ROLE_LABELS[r].split(": ")[1]}.`).join("\n")}

An operation the key's role does not allow answers 403 (\`urn:referloop:problem:forbidden\`); each operation below names its permission and the roles that have it. A key stops working (401) when it is deleted, when it expires, and when the member who created it is removed from the organisation (the owner confirms the list of their keys first). When its creator's role is lowered, the key's role is lowered to match. Keys made before roles existed are owner keys with no recorded creator.

## Rate limits
Each API key may make a number of requests per minute (600 by default; your organisation may have its own quota, and every response states the one that applies): the first request opens a window of 60 seconds in which the quota may be spent at any pace, even all at once, and the next request after it opens a new window. Every response to a known key carries the IETF RateLimit fields (draft 10): \`RateLimit-Policy: "api-key";q=600;w=60\` (the quota) and \`RateLimit: "api-key";r=599;t=60\` (requests left, seconds until the window ends). Over the quota the answer is a 429 problem (\`rate-limited\`) with \`Retry-After\` in seconds; refused requests count too, so wait rather than retry at once. The client-library endpoints count per project key and client address.

## Problems
Every error is \`application/problem+json\`. The \`type\` values:
${problemCatalogue}

## Projects
\`appType\` (\`Web\` or \`Mobile\`) defaults to \`Web\` and cannot change after creation: a PUT with a different value is a 400. \`referralRedirectLink\` must be an absolute http(s) URL without query or fragment (the service appends \`referralCode\`); https only (a service run for development may allow http). The \`sk_\` project secret is returned once, on creation and on rotation. The \`pk_\` publishable key is part of every project record (\`publishableKey\`). \`allowedOrigins\` (at most ${MAX_ALLOWED_ORIGINS}, each \`scheme://host[:port]\`, stored without a trailing slash, https) and \`identityVerification\` are explained under *Client library*.

## Mobile projects: app details, icon, landing page, deferred deep linking
**App details.** A Mobile project carries \`app\` (the spec's \`AppDto\`: \`name\`, \`appStoreUrl\`, \`playStoreUrl\`, \`iconUrl\`), set on create and update (\`app: null\` clears it; Web projects answer \`app: null\`). The landing page sends visitors to these links, so \`appStoreUrl\` must be on ${APP_STORE_HOSTS.map((h) => `\`${h}\``).join(" or ")} (rule \`app_store_host\`) and \`playStoreUrl\` on ${PLAY_STORE_HOSTS.map((h) => `\`${h}\``).join(" or ")} (rule \`play_store_host\`); \`iconUrl\` is only ever the icon the project uploaded (below): a write may send it back unchanged or \`null\` to remove it, anything else is a 400 naming \`app.iconUrl\` and the rule \`uploaded_icon\`.

**Icon upload.** \`PUT /projects/{projectId}/app/icon\` takes the image's bytes as the request body (\`curl -X PUT --data-binary @icon.png -H "Content-Type: image/png" ...\`); this is the one request body that is not JSON. PNG, JPEG or WebP, judged by the bytes, never by a file name or the \`Content-Type\`; at most ${MAX_ICON_BYTES / 1024 / 1024} MB (${MAX_ICON_BYTES} bytes; more is a 413 saying so); each side ${MIN_ICON_SIDE} to ${MAX_ICON_SIDE} pixels. Anything else is a 400 naming \`icon\` and the rule (\`not_an_image\`, \`unreadable\`, \`bad_dimensions\`); a multipart form is a 415; a Web project is a 400 (\`appType\`, \`mobile_only\`). The icon is stored by the service (every instance serves it) and served from a content-addressed URL, \`{origin}/icons/{sha256}.{png|jpg|webp}\`, with \`Cache-Control: public, max-age=31536000, immutable\`, an \`ETag\` and \`nosniff\`; the response is the project, its \`app.iconUrl\` pointing there.

**Referral links and the hosted landing page.** A Mobile project's referral link is the service's own landing page, \`{origin}/r/{projectId}/{referralCode}\`, with \`?rewardEventName=...\` when the link pre-assigns an event (the project id is in the path because referral codes are unique within a project only). \`{origin}\` is the configured public URL of the service (\`REFERLOOP_PUBLIC_URL\`, else \`NEXTAUTH_URL\`), else the origin the request came to. The page shows the app's name and icon, records the visit (the click) with the device's fingerprint, and sends the visitor on: iPhones and iPads to the App Store (offering first to copy a one-time invite token for the app to read on first launch), Android to the Play Store with the referral and the click in the store's install referrer, without scripts, a plain link and a refresh do the same. The project's redirect link (with the referral appended) is never followed by itself, since its host is the project's choice and \`/r/...\` is on the service's domain: computers, and phones without a store link, see a page that names the link's host and full address, and go there by clicking *Continue to {host}* (sent without a \`Referer\`). An unknown project or code (or a Web project's) is one "not found" page. The page needs no redirect link; without one, computers see the store links.

**Clicks.** The page's script posts the click to \`POST /r/{projectId}/{referralCode}/click\`: OS and version from the user agent, screen size and pixel ratio, timezone and locale from the browser, and the client's IP address: the connection's, or behind reverse proxies listed in \`REFERLOOP_TRUSTED_PROXIES\` the address their \`X-Forwarded-For\` names (a header from anyone else is ignored). The beacon is a few hundred bytes: a body over ${MAX_CLICK_BODY} bytes is a 413 problem (reading stops there), and each client address may send up to \`RATE_LIMIT_LANDING_CLICKS_PER_IP_PER_MINUTE\` of them a minute (60 by default; more is a 429 problem with \`Retry-After\`). Clicks are kept for the campaign's match window (\`matchWindowMinutes\`: ${MIN_MATCH_WINDOW_MINUTES} to ${MAX_MATCH_WINDOW_MINUTES}, default ${DEFAULT_MATCH_WINDOW_MINUTES}), then deleted (a job runs every ${CLICK_PURGE_INTERVAL_MS / 60_000} minutes).

**Attribution on first launch** (\`init-app-user\` from the app, its \`attribution\` field). The service binds the install to a referral by the first signal that names one of the project's referrals, in order of certainty:
- \`install_referrer\` (confidence 1): the Google Play Install Referrer that the landing page's store link carried.
- \`clipboard\` (confidence 1): the landing page's "copy the code" token, signed, valid for the match window, usable once.
- \`link\` (confidence 1): a universal/app link opened after install, carrying \`referralTrackingId\` or \`referralCode\` (or the landing page's own URL).
- \`fingerprint\` (confidence: the match's, at least ${DEFAULT_MATCH_THRESHOLD}): the device (OS and version, screen, timezone, locale, IP address) matched to the most likely unmatched click of the project in the match window.
- \`none\` (confidence 0): nothing certain, and no click likely enough.

Deterministic signals always win over a fingerprint. A fingerprint match needs a confidence of at least ${DEFAULT_MATCH_THRESHOLD}: the evidence (a naive-Bayes estimate weighing how many other visitors share the network address and device in the window) must favour one referral over every other explanation, including "no click at all"; two referrals that explain an install equally well bind neither. A click is bound once, even when two first launches race for it. In a simulation with carrier NAT, popular phones and organic installs, the fingerprint's precision at this threshold was 97.5 to 100% and its recall 63 to 79% (weights, method and figures: \`bench/attribution/README.md\` in the source).

## Referrals and rewards
- Every app user gets a 6-character alphanumeric referral code, unique within the project, from a cryptographic random source.
- A tracking item is \`Pending\` until a reward event moves it to \`Completed\` (reward granted, webhooks queued) or \`Failed\` (an eligibility check failed; no webhook). Both are final, but a \`Completed\` item (or a \`Pending\` one whose reward is held) can be revoked.
- **Revoked.** \`POST .../referrals/{trackingId}/revoke\` with a \`reason\` (or the dashboard's referral page, or a provider's refund, dispute or cancellation in trial: see *Inbound conversions*) takes the reward back and makes the item \`Revoked\`, which is final. Expect: \`rewardClaimed\` false again (\`rewardClaimedAt\` keeps when it was granted), the reward no longer counted in the referrer's \`successfulReferrals\`, caps, the stats, the leaderboard and top referrers; \`reward.revoked\` sent to the webhooks that subscribe to it when the reward had been granted (a held reward is cancelled: it never grants, and nothing is sent); a later reward event answering \`already_revoked\`; a second revoke answering 200 with \`revoked: "already_revoked"\`; the referral's detail (\`GET .../referrals/{trackingId}\`) giving \`revocation\` (when, why, by what: \`api\`, \`dashboard\`, \`stripe\`, \`revenuecat\`). A \`Pending\` item with nothing held, or a \`Failed\` one, is a 409 naming its state. The referee's and pair's one-reward rules count revoked rewards out too, so a referee whose reward was revoked can complete another arrival.
- The reward call answers 200 whether or not the reward was claimed; \`rewardClaimed\` and \`reason\` tell which. Reasons: ${REWARD_REASON_CODES.map((r) => `\`${r}\``).join(", ")}.
- **One referral per referee.** A referee completes at most one referral per project, whoever referred them and however often they arrived. When a referee arrived more than once (through one referrer's link or several), the campaign's \`attributionModel\` names the arrival that may complete: \`${DEFAULT_ATTRIBUTION_MODEL}\` (the default: the earliest arrival still Pending and within the attribution window) or \`last\` (the latest). A reward event for another arrival fails it with \`not_first_arrival\` or \`not_last_arrival\`; report the event with the tracking id of the arrival that holds the referral (the referee's items are listed by \`GET .../users/{uniqueId}/referrals?direction=received\`). Every arrival is still tracked and counted. Once the referee's referral completed, any other item of theirs fails with \`duplicate_referee\`.
- **No mutual referral.** If A was rewarded for referring B, B's item for referring A fails with \`mutual_referral\`.
- **An arrival without a referee cannot complete.** An anonymous arrival (tracked before the user was known) records the event (\`referee_unknown\`) and stays Pending until the referee is bound to it.
- These rules hold under concurrency: the database keeps one reward per referee and one per pair of users (either way round), whatever the order of simultaneous calls.
- **Each reward event is tracked independently.** When the item was pre-assigned an event (\`rewardEventName\`) and the reported event has another name (names compare exactly, case-sensitive), the event is recorded on its own and the item **stays Pending**, so the right event can still claim it.
- The attribution window is ${DEFAULT_ATTRIBUTION_WINDOW_DAYS} days by default (\`attributionWindowDays\` in the campaign, ${MIN_ATTRIBUTION_WINDOW_DAYS} to ${MAX_ATTRIBUTION_WINDOW_DAYS}).
- Counters: \`totalReferralsGiven\` counts tracked arrivals through the user's link, \`totalReferralsReceived\` the items the user is the referee of (an anonymous arrival counts once its referee is bound); \`successfulReferrals\` counts rewarded referrals. \`referredBy\` is the referrer of the first completed reward.
- Concurrency: the database enforces one claim per item, one reward per referee and one per pair of users; concurrent calls produce exactly one completion.

- Figures (\`GET .../stats\`): \`clicks\` counts clicks on referral links only (the landing page's); a referral tracked any other way is no click, so a Web project answers 0 (before, it answered its tracked referrals). \`referralsDelivered\` counts referrals with a succeeded webhook delivery, each once however many webhooks it went to; \`deliveriesSucceeded\` still counts deliveries.

## Reward protection: rules, holds and the review queue
The campaign's \`rewardRules\` (set with the campaign update; all off by default, so the rules above are the whole story until you turn one on):
- \`maxRewardsPerReferrer\`: \`{ "perDay": n, "perMonth": n, "lifetime": n }\`, each optional, each a whole number from 1 to ${MAX_REWARD_CAP}. Days and months are UTC (a day starts at 00:00 UTC). A reward over a cap is refused: the item fails with \`referrer_cap_reached\`. Caps hold under concurrency: claims for one referrer under a cap count and grant one after another, so N referees rewarded at once never exceed it. An update replaces the caps as a whole (\`{}\` removes them).
- \`disposableEmail\`: \`off\`, \`review\` or \`block\`, judged on the referee's \`email\` attribute (its domain, or a parent domain, is on the disposable-mail list of the maintained \`mailchecker\` package).
- \`sameDevice\`: \`off\`, \`review\` or \`block\`. The same device means: the referee's client was seen from the same client address (IPv6 normalised; the address as described under *Clicks*) as their referrer's, or with the same complete device fingerprint (OS, OS version, screen, timezone and locale: partial ones match too many phones of a model), within 24 hours of each other. Seen means an \`init-app-user\` call (the widget or app identifying the user), and for the referee also a landing-page click attributed to them. An address shared by a household or an office matches too, which is why \`review\` exists. Sightings are recorded only while a campaign of the project has the rule on (no addresses are kept for a rule nobody uses), and go when the user is erased.
- \`holdDays\`: 0 to ${MAX_HOLD_DAYS}. A reward that passes every check waits that many days in review, then completes by itself.
- \`block\` refuses with the rule's own reason (\`disposable_email\`, \`same_device\`; the item fails). \`review\` or a hold keeps the item \`Pending\` and puts it in the review queue (\`GET /projects/{projectId}/reviews\`): nothing is delivered, and the reward call answers \`rewardClaimed: false\` with \`reason: "held_for_review"\` (so does a repeated report while it waits). A rule set to \`review\` waits for a person, whatever the hold.
- Approving (\`POST .../reviews/{trackingId}/approve\`) completes the reward exactly as the reward call would have (the eligibility checks as of when it was held, the caps at approval, reward history, counters, webhooks); denying (\`.../deny\`) fails it with \`denied_in_review\`, with an optional body \`{ "note": "..." }\`: the reason in words (at most 500 characters; blank is none), kept with the decision as the bulk call's \`note\` is (history, export, audit log). Both answer like the reward call; an item not in review (decided, never held, final) is a 409, and of concurrent decisions on one item exactly one acts. Owners and members decide; viewers and read-only keys can list. Every decision is in the audit log.
- Several at once: \`POST .../reviews/decide\` with \`{ "decision": "approve" | "deny", "trackingIds": [...], "note": "..." }\` (1 to 100 ids, \`note\` optional, at most 500 characters) decides each item on its own, in the order sent, and answers every item's real outcome: \`granted\`, \`failed\` with the reward's \`reason\` (an approval can fail: \`referrer_cap_reached\` when the rewards granted before it reached the referrer's cap), \`not_in_review\` or \`not_found\`. One item never stops the others. The \`note\` is kept with each decision.
- What a reviewer decides on: each queue item carries the referee's \`refereeEmail\`, \`refereeSignals\` (where their client was seen: addresses and device fingerprints, marked \`sharedWithReferrer\`) and the referrer's \`referrerHistory\` (referrals, rewards, earlier denials). \`GET .../reviews?reason=same_device\` keeps one reason's items.
- **Compatibility.** \`POST .../reviews/{trackingId}/deny\` gained an optional body with one optional field, \`note\`; a call without a body (or with an empty one) denies as before, keeping no reason. A \`note\` over 500 characters, or not a string, is a 400 naming \`note\` (and nothing is decided).
- History: \`GET .../reviews/decisions\` lists every decision newest first (who, the note, why it was held, the outcome; \`decidedBy\` null where a hold ended by itself), \`?trackingId=\` one referral's; \`GET .../exports/review-decisions.csv\` exports them.

## Data rights: erasing and exporting an app user
- \`DELETE /projects/{projectId}/users/{uniqueId}\` erases the user (200, empty body): their record, attributes, referral code and link, counters, timeline and sightings go; the client id can be used again for a new user. Tracking items and reward history that named them keep their status and the other party's counters, with the erased party's ids null and \`referrerErased\`/\`refereeErased\` true. A \`Pending\` item of theirs becomes \`Failed\` with \`user_erased\` (as referee nobody can complete it; as referrer nobody would be credited). Stored webhook bodies of their referrals have their client id replaced by \`[erased]\` (a delivery still being retried sends that), as do inbound provider events that named them and the other parties' timeline entries; the items they referred show \`referralCode\` \`[erased]\`; landing-page clicks attributed to them or on their link are deleted. Stored answers of \`Idempotency-Key\` requests that name them are deleted, so the same request with the same key acts as new (it creates a new user, with new ids, rather than replaying the erased one). Audit details that named them (a bulk retry's \`search\`) read \`[erased]\`. No webhook is sent. The audit log records the erasure (and any export of theirs) by \`uniqueId\` only, a random id nothing links to them afterwards.
- \`GET /projects/{projectId}/users/{uniqueId}/export\` answers one JSON document with everything held about the user (see \`AppUserExport\`); each export is audited.
- **Compatibility.** The reward \`reason\` and the referral's \`failureReason\` gained \`referrer_cap_reached\`, \`disposable_email\`, \`same_device\`, \`held_for_review\`, \`denied_in_review\` and \`user_erased\`. The first four occur only once a campaign turns a rule on; \`user_erased\` only after an erasure. A client that switches over the reason should treat an unknown value as "not claimed" (the enum may grow). Referral records' \`referrerId\` and \`referrerUniqueId\` are null for an erased referrer. The referral status gained \`Revoked\` (only after a revoke: by this API, the dashboard or a provider's refund, dispute or cancellation in trial), the reward \`reason\` \`already_revoked\`; a client that switches over the status should treat an unknown value as "not rewarded". The overview's \`clicks\` counts only landing-page link clicks (it used to count REST-tracked referrals too, so a Web project now shows 0).

## Client library (\`/api/v1/sdk\`)
Four \`POST\` endpoints with JSON bodies and camelCase answers, the same problem+json errors as above (the key is checked before the body: a bad key with a bad body is a 401).

**Keys.** Every project has two:
- the **secret** \`sk_...\`, returned once (on creation and on rotation), for backends. The service keeps a SHA-256 hash to recognise it and, for identity verification, a copy encrypted like webhook secrets (AES-256-GCM under \`REFERLOOP_ENCRYPTION_KEY\`). Why not a key derived from it: checking \`HMAC-SHA256(userId)\` keyed with the secret needs that key itself, and whatever can check such an HMAC can also forge one, so a derived value would protect nothing more than the encrypted secret does.
- the **publishable key** \`pk_...\`, for web pages and app binaries. It is not a secret: it is shown in the dashboard and in the project record, and it only identifies the project; browsers may use it from the allowed origins only.
- Both rotate (\`POST /public/projects/{projectId}/rotate-secret\`, \`POST /public/projects/{projectId}/rotate-publishable-key\`, or the project settings). The secret's rotation takes an optional body \`{"overlapHours": 0 | 1 | 24}\`: with 1 or 24 the previous secret keeps authenticating (and signing \`userHash\`) until \`previousSecretExpiresAt\` in the answer, so backends switch without downtime; at most two secrets are valid at a time. Otherwise (and for the publishable key) the old value stops working at once: on the instance that made the change before it answers, and on every other instance as soon as the change's database notification reaches it (each keeps keys for at most 10 s, and none while it cannot hear those notifications). The same holds for turning identity verification on or changing allowed origins.
- \`${PROJECT_KEY_HEADER}: <pk_ or sk_>\` on \`init-app-user\`, \`track-referral\` and \`new-user-experience\`: the publishable key from pages and apps, the secret from your servers. The secret in a browser request (one with an \`Origin\` header) is a 401, whatever the origin: it must never sit in a page (rotate it if one showed it).
- \`${PROJECT_SECRET_HEADER}: sk_...\` on \`track-reward-event\`, a backend call: a \`pk_\` key there, the key in the other header, or a request carrying an \`Origin\` header (a browser) is a 401.
- A missing, unknown or rotated key is a 401 problem with \`WWW-Authenticate: ProjectKey realm="referloop"\`. A key acts for its own project only: another project's referral codes and tracking ids are unknown to it (404, or \`unknown_referral\`).

**Browser origins.** A request with an \`Origin\` header must come from one of the project's \`allowedOrigins\`, compared exactly (scheme, host and port), else it is a 401 problem without CORS headers, so the page reads nothing. **An empty list allows no browser at all**: strict by default, so a key copied onto another site does nothing there; the dashboard says so and offers the origin of the referral redirect link. \`Origin: null\` (sandboxed frames, files) is never allowed. Requests without \`Origin\` (servers, mobile apps) pass on the key alone. Every answer to an accepted origin, errors included, carries \`Access-Control-Allow-Origin: <that origin>\`, \`Vary: Origin\` and \`Access-Control-Expose-Headers: Retry-After, RateLimit, RateLimit-Policy, X-Request-Id\`. Nothing uses cookies on the API's origin: the widget calls with \`credentials: "omit"\`, and no \`Access-Control-Allow-Credentials\` is sent.

**Preflight.** A CORS preflight (\`OPTIONS /api/v1/sdk/*\`) carries no key, so it cannot know the project. It is answered 204 with \`Access-Control-Allow-Origin: <origin>\`, \`Access-Control-Allow-Methods: ${PREFLIGHT_HEADERS["access-control-allow-methods"]}\`, \`Access-Control-Allow-Headers: ${PREFLIGHT_HEADERS["access-control-allow-headers"]}\` and \`Access-Control-Max-Age: ${PREFLIGHT_MAX_AGE_S}\` when **at least one project** allows the origin; otherwise it is a 403 problem without CORS headers (the browser reports a CORS error and sends nothing). The request that follows is then checked against its own project. Each instance keeps the set of allowed origins in memory and drops it, on every instance, as soon as any project's origins are saved.

**What the publishable key can do.** The \`pk_\` key is in every page and app binary of yours, so anyone can call \`init-app-user\` with it and any \`userId\`. What such a call may do depends on whether it proves its user with \`userHash\`: the hex HMAC-SHA256 of \`userId\` (its UTF-8 bytes, exactly as sent) keyed with the \`sk_\` secret, computed by your backend and handed to the page or app. Upper- and lower-case hex are both accepted.

| \`init-app-user\` called with | new user (this call creates it) | existing user |
|---|---|---|
| \`sk_\` secret (your backend) | create, set attributes, bind the token | set attributes, bind the token, answer their referral |
| \`pk_\` with a valid \`userHash\` | create, set attributes, bind the token | set attributes, bind the token, answer their referral |
| \`pk_\` without \`userHash\` (verification off) | create, set attributes, bind the token | read only: the referral code, link and referrer experience (what a referral link already shows); nothing about the user is written (attributes kept, \`lastSeenAt\` and the same-device rule's sightings untouched), nothing bound (\`attribution.reason\`: \`identity_not_verified\` when a token was passed), \`referralTrackingId\` \`null\` |
| \`pk_\` without \`userHash\` (verification on) | 401 | 401 |

Every call marks the user seen (\`lastSeenAt\`). A \`userHash\` that is sent is always checked: a wrong one is a 401 (readable by an allowed page, so the widget can say why), whether or not verification is on. With the project's \`identityVerification\` on, a publishable-key call without \`userHash\` is a 401 too, so nobody can even create users or learn codes without your backend's hash. Without identity verification, a returning user's referral is bound by your backend instead: \`track-reward-event\` binds an item without a referee to \`newUserId\` (below). After rotating the secret, compute hashes with the new one. Projects created before the service kept the encrypted secret must rotate it before switching verification on (409 until then); until then a \`userHash\` they send cannot be checked and the call counts as unverified.

The dashboard shows this set-up beside the widget snippet (*Campaign*, *Add the widget to your site*).

\`\`\`js
// Node, on your server, when rendering a signed-in page:
import { createHmac } from "node:crypto";
const userHash = createHmac("sha256", process.env.REFERLOOP_PROJECT_SECRET).update(user.id).digest("hex");
// in the page: Referloop.identify({ userId: user.id, userHash })
\`\`\`

**Anonymous arrivals and binding.** \`track-referral\` records an arrival through a referral link before anyone knows who the visitor is: a \`Pending\` item **without a referee** (\`refereeId\` and \`refereeUniqueId\` are \`null\` in the referral lists until one is bound). The referrer's \`totalReferralsGiven\` counts the arrival; the referee's \`totalReferralsReceived\` moves when they are bound. An item is bound to exactly one referee, once:
- \`init-app-user\` with \`referralTrackingId\` binds that item if it has no referee yet, with one conditional update, so of concurrent users presenting one id exactly one is bound. The same user presenting it again changes nothing (idempotent).
- \`init-app-user\` with only \`referralCode\` (the widget stored the code but the tracking call failed) binds through a new item, as the REST track call creates one, unless the user already is the referee of an item of that referrer, which is then the answer (so repeating the call creates nothing).
- A user is never bound to their own referral.
- A token that binds nothing is not an error (a stale cookie must not break the page): \`init-app-user\` answers 200 with \`attribution: { method: "none", confidence: 0, reason }\`, where \`reason\` is one of:
${Object.entries(BINDING_REFUSALS)
  .map(([reason, text]) => `  - \`${reason}\`: ${text}.`)
  .join("\n")}
- Otherwise \`attribution\` is \`{ method: "cookie", confidence: 1 }\` when the token names a referral this user is (now) the referee of, and \`{ method: "none", confidence: 0 }\` for a call without a token. \`referralTrackingId\` is the item the token names, else the user's latest referral as referee, else \`null\`. The mobile fields (\`installReferrer\`, \`clipboardToken\`, \`deepLink\`, \`device\`) are validated and accepted; attribution from them (methods \`install_referrer\`, \`clipboard\`, \`link\`, \`fingerprint\`) arrives with the hosted landing page.
- \`init-app-user\` also creates the user if missing (with a referral code), sets \`lastSeenAt\` (not for an existing user the call does not speak for), and replaces the attributes when \`attributes\` is sent (kept otherwise; an existing user's are kept unless the call speaks for them, see *What the publishable key can do*). It binds an existing user only when the call speaks for them. \`referralLink\` is \`null\` while the project has no redirect link.
- \`track-reward-event\` binds an item that has no referee yet to \`newUserId\` (created if missing) by the same rules, then runs the reward path; for an item with a referee, \`newUserId\` must be that referee (409 otherwise). \`newUserId\` being the item's referrer binds nothing: 200 with \`rewardClaimed: false\`, \`reason: "self_referral"\`, the item left \`Pending\` for its real referee.
- The REST reward (\`POST /public/projects/{projectId}/referrals/reward\`) on an item without a referee: pass \`RefereeId\` (the new user's clientProvidedId) and it binds and rewards in one call, by the same rules; without it the event is recorded and the item stays \`Pending\` (200, \`rewardClaimed: false\`, \`reason: "referee_unknown"\`) until its referee is bound. On an item with a referee, a \`RefereeId\` must be that referee (409 otherwise).

**track-reward-event** is the reward endpoint for backends holding the secret: the same eligibility checks, exactly-once claim and webhook routing by \`environment\` as the REST reward (without \`environment\`, every enabled webhook once), answering \`rewardClaimed\`, \`status\`, \`reason\` (when not claimed) and \`referralTrackingId\`. An unknown tracking id is a 404. Your backend reads the tracking id from the \`svc_tracked_referral\` cookie the widget set on your own site:

\`\`\`js
// Node 18+, on your server, when the referred user completes the qualifying action:
const res = await fetch("https://<your Referloop app>/api/v1/sdk/track-reward-event", {
  method: "POST",
  headers: { "Content-Type": "application/json", "${PROJECT_SECRET_HEADER}": process.env.REFERLOOP_PROJECT_SECRET },
  body: JSON.stringify({ newUserId: user.id, referralTrackingId: req.cookies.svc_tracked_referral, eventName: "purchase", environment: "Production" }),
});
const { rewardClaimed, status, reason } = await res.json();
\`\`\`
\`\`\`sh
curl -X POST https://<your Referloop app>/api/v1/sdk/track-reward-event \\
  -H "Content-Type: application/json" -H "${PROJECT_SECRET_HEADER}: $REFERLOOP_PROJECT_SECRET" \\
  -d '{"newUserId":"42","referralTrackingId":"<from svc_tracked_referral>","eventName":"purchase"}'
\`\`\`

**new-user-experience** answers the banner's \`promoText\` and \`promoPosition\` and, for a \`referralCode\`, \`referrerName\`: the referrer's attribute named by the campaign's \`newUserExperience.referrerNameAttribute\` (default \`name\`), or \`null\` when the code is unknown, the attribute is missing or blank, or no code was sent. An unknown code is not an error there (a stale link must not break a landing page); \`track-referral\` answers it with a 404.

Calls are limited per project key and client IP (a 429 problem with \`Retry-After\` over the quota; see *Rate limits*).

## The referrer's own page
Every referrer can see their own program: their link and code (with copy and share buttons), totals (friends who **arrived** through the link, **joined**, **pending**, **being checked** in the review queue, **rewarded**), the list of referred friends with status and date, rewards earned, and milestone progress. One summary (\`ReferralSummary\`) feeds three places:
- **A hosted page, minted by your backend.** \`POST /public/projects/{projectId}/users/{uniqueId}/portal-sessions\` (API key, \`appUsers.write\`; body \`{}\` or \`{"expiresInSeconds": 3600}\`, ${MIN_PORTAL_SESSION_SECONDS} to ${MAX_PORTAL_SESSION_SECONDS}, default ${DEFAULT_PORTAL_SESSION_SECONDS}) answers 201 \`{ token, url, expiresAt }\`. Send the user to \`url\` or frame it: the page may be framed only by the project's allowed origins (\`Content-Security-Policy: frame-ancestors\`), loads nothing from another host, follows the device's dark mode, and takes the campaign's title, description and colours. \`GET\` of \`url\` with \`Accept: application/json\` answers the summary as JSON. The session is read-only and for that one user of that one project; it is a signed token (HMAC-SHA256 under a key derived from the instance key and the project's current secret), stored nowhere: **rotating the project secret revokes every session of the project**, and erasing the user ends theirs. An expired, tampered or other project's token (and one whose user was erased) is a 401: a plain page saying the page has expired or is not available, or an \`unauthorized\` problem for JSON; nothing about the user. Treat \`token\` and \`url\` as secrets (the page sends no referrer).
- **The client library.** \`POST /sdk/referral-summary\` with \`userId\` (and \`page\`, \`pageSize\` of the friends list) answers the same summary for an identified user only: the \`sk_\` secret, or the \`pk_\` key with a valid \`userHash\`. A publishable-key call without one is a 401 and says nothing about the user (not even whether it exists); an unknown user is a 404 once the call is identified. The web widget's sharing UI shows it as **Your referrals** when \`identify\` was given a \`userHash\`; the mobile client's \`getReferralSummary()\` returns it as typed data.
- **Friends' names** are masked (first letter and dots) unless the campaign's \`portal.friendNameAttribute\` names a referee attribute to show; an erased friend reads \`(erased)\`. The list is newest first and paged (${DEFAULT_PAGE_SIZE} a page by default; the hosted page pages with \`?page=N\`). Sections the campaign hides (\`portal.sections\`) are \`null\` in the summary and absent from the page.

**Milestones.** \`PUT /projects/{projectId}/campaign\` with \`milestones: [{ "referrals": 3, "name": "Silver" }, ...]\` (at most ${MAX_MILESTONES}, each threshold once, 1 to ${MAX_MILESTONE_REFERRALS}; the list is replaced and answered in ascending order) sets tiers of successful referrals (rewards claimed). A referrer reaches a milestone when a reward brings their successful referrals to it, in that reward's own statement, **exactly once per referrer and milestone**, also under concurrent rewards; a milestone added later below a referrer's count is recorded as reached with their next reward. Reaching one sends a \`milestone.reached\` event to webhooks whose \`events\` include it, one per reward (when a reward reaches several added milestones at once, the highest; its delivery carries the reward's tracking item) (body: \`type\`, \`projectId\`, \`milestone\` \`{ referrals, name }\`, \`referrer\` \`{ uniqueId, clientProvidedId }\`, \`referralTrackingId\` of the reward, \`reachedAt\`), written with the reward. **A revoked reward does not take a reached milestone back**, and reaching the count again sends nothing. The summary and the leaderboard (\`milestone\`: the highest reached) show them.

## Inbound conversions: Stripe and RevenueCat
Instead of calling \`track-reward-event\` yourself, point your Stripe or RevenueCat webhooks at the project and the referral completes when the referee pays. Each project has an inbound hook token (\`GET /public/projects/{projectId}/inbound-hooks\` answers it with both URLs; the dashboard shows them in the project's settings with copy buttons):

| Hook | Verified by | Conversions |
|---|---|---|
| \`POST /api/v1/hooks/{token}/stripe\` | \`Stripe-Signature\` over the raw body with your endpoint's signing secret (\`whsec_...\`), by the official \`stripe\` library, timestamps older than ${STRIPE_TOLERANCE_S} s refused | \`checkout.session.completed\` with \`payment_status\` \`paid\`; \`invoice.paid\` of a subscription's first invoice (\`billing_reason\` \`subscription_create\`) that charged more than 0 |
| \`POST /api/v1/hooks/{token}/revenuecat\` | The \`Authorization\` header, compared in constant time with the value you set | \`INITIAL_PURCHASE\` (unless it starts a free trial: \`period_type\` \`TRIAL\`); \`RENEWAL\` when it is the first paid period after a free trial |

**The referee.** Stripe: the app user whose \`clientProvidedId\` is the Checkout Session's \`client_reference_id\`, else \`metadata.${STRIPE_REFEREE_METADATA_KEY}\` of the session or the invoice, else of the subscription (put it in \`subscription_data.metadata\` when you create the Checkout Session). RevenueCat: \`event.app_user_id\`, else one of \`event.aliases\`. The conversion runs exactly what \`track-reward-event\` runs, for the referee's most recent \`Pending\` tracking item: the eligibility checks, at most one reward, the reward history entry, and the webhooks routed by the environment: Stripe \`livemode: false\` and RevenueCat \`SANDBOX\` are \`Sandbox\`, live mode and \`PRODUCTION\` are \`Production\`. The reported event name is the one \`eventNames\` maps the provider's type to (\`{"invoice.paid": "purchase"}\`), else the type itself, so a link's \`rewardEventName\` can name either.

**A trial's first paid renewal.** RevenueCat marks it itself: a \`RENEWAL\` with \`is_trial_conversion: true\` counts (this holds even when the trial started before you set up the hook), one with \`false\` does not. A renewal without the field counts when the last event recorded here for the same user and \`product_id\` had \`period_type\` \`TRIAL\`. Later renewals never count. On Stripe, a trial's first invoice is for 0 and is ignored as \`not_paid\`; report the first paid invoice with \`track-reward-event\` if your plans start with a trial.

**Answers.** \`200 {"received": true, "outcome": "rewarded" | "ignored" | "refused", "reason": ...}\` for an event verified and understood (\`ignored\`: ${Object.keys(INBOUND_IGNORE_REASONS).map((r) => `\`${r}\``).join(", ")}; \`refused\`: the eligibility reason). The provider's retry of the same event id answers 200 with \`"duplicate": true\` and what was recorded (\`"processing"\` while the first delivery is still being handled) and changes nothing; 20 deliveries of one event at once reward once. A 404 problem for an unknown (or rotated) token and for a provider not set up for the project, as if the hook did not exist; a 400 \`invalid-signature\` problem (Stripe) or a 401 (RevenueCat) for a missing, wrong or stale credential, and nothing is recorded; 400 for a body that is not JSON or lacks the fields read (named in \`errors\`); 413 over ${MAX_BODY_BYTES / 1024} KiB; 429 with \`Retry-After\` over the token's quota (600 verified calls a minute by default; the credential is checked first, and calls whose credential failed count in a budget of their own, so whoever holds the URL without the secret cannot use up the provider's); 5xx when something failed here, which the providers retry. Every verified event is listed by \`GET /public/projects/{projectId}/inbound-events\` and in the dashboard.

**Reversals: refunds, disputes, cancellations in trial.** The same hooks take rewards back. Stripe \`charge.refunded\` with \`refunded: true\` (a full refund; a partial one is \`ignored\`, \`partial_refund\`), \`charge.dispute.created\`, and \`customer.subscription.deleted\` of a subscription cancelled before its \`trial_end\` (\`not_in_trial\` otherwise); RevenueCat \`CANCELLATION\` with \`cancel_reason\` \`CUSTOMER_SUPPORT\` (how RevenueCat reports a refund) or with \`period_type\` \`TRIAL\` (other cancellations: \`not_a_conversion\`). Each is matched to the referral that the original conversion completed, by the ids that conversion carried: the payment intent, invoice, charge or subscription, else the customer (Stripe); the transaction and original transaction ids (RevenueCat). The answer and the inbound event's record say what it did: \`"outcome": "revoked"\` with \`reason\` \`refund\`, \`dispute\` or \`trialCancellation\`, or \`ignored\` with why (\`no_matching_referral\` for a payment that completed no referral, still a 200; \`already_revoked\`; \`not_revocable\`; \`revocation_off\`). The campaign's \`revokeOn\` (\`refund\`, \`dispute\`, \`trialCancellation\`, all \`true\` by default) says which kinds revoke. A provider's retry of the same event revokes once. Subscribe the Stripe endpoint to \`charge.refunded\`, \`charge.dispute.created\` and \`customer.subscription.deleted\` too, and RevenueCat to **Cancellation**.

**Set up Stripe, step by step.**
1. In Referloop, open the project's **Settings -> Inbound conversions** (or \`GET .../inbound-hooks\`) and copy the **Stripe URL**.
2. In the Stripe Dashboard, open **Developers -> Webhooks** (Workbench: **Webhooks -> Add destination**), choose **Add endpoint**, and paste the URL as the **Endpoint URL**. Do it once in test mode (sandbox conversions) and once in live mode (production conversions); both can use the same URL.
3. Under **Select events**, select \`checkout.session.completed\` and \`invoice.paid\`, and add the endpoint.
4. On the endpoint's page, reveal the **Signing secret** (\`whsec_...\`), paste it into **Stripe signing secret** in Referloop and save (\`PUT .../inbound-hooks\` with \`stripeSigningSecret\`). Test mode and live mode endpoints have different secrets: the hook accepts the one saved, so use one mode's endpoint per project (a project per environment, as the spec intends), or save the secret of the mode you are testing.
5. Name the referee in your checkout: \`client_reference_id: "<your user id>"\` on the Checkout Session, or \`metadata: { ${STRIPE_REFEREE_METADATA_KEY}: "<your user id>" }\` on the session, invoice or subscription.
6. Send a test event (\`stripe trigger checkout.session.completed\`, or **Send test event**) and watch it arrive under **Inbound events** (a test event names no referee: \`ignored\`, \`no_referee\`).

**Set up RevenueCat, step by step.**
1. Copy the **RevenueCat URL** from the project's **Settings -> Inbound conversions**.
2. In RevenueCat, open **Project settings -> Integrations -> Webhooks -> Add new webhook** and paste it as the **Webhook URL**.
3. Set **Authorization header value** to a long random value of your own (for example \`Bearer \` followed by \`openssl rand -hex 32\`), and paste the same exact value into **RevenueCat Authorization** in Referloop and save (\`revenueCatAuthorization\`).
4. Choose the environment to send (**Production and Sandbox**, or one of them) and, under events, at least **Initial purchase** and **Renewal** (sending all events is fine: others are recorded as \`ignored\`).
5. Make RevenueCat's app user id your user's id: \`Purchases.logIn("<your user id>")\` (the id the referral was tracked with, \`clientProvidedId\`).
6. Use **Send test event** and check **Inbound events** (a \`TEST\` event is \`ignored\`, \`not_a_conversion\`).

Rotate the token (\`POST .../inbound-hooks/rotate-token\`, or the **Rotate** button) if a URL leaks: the old URLs answer 404 at once; paste the new ones into both providers. The secrets are stored encrypted and never returned; \`null\` removes one, which turns that hook off (404).

## Webhook deliveries
**Events.** Each webhook subscribes to event types in \`events\` (default \`["reward.granted"]\`, so a webhook that says nothing gets what it always got): \`reward.granted\` (a reward granted: the body below, unchanged), \`reward.revoked\` (a granted reward taken back), \`reward.held\` (a reward waiting for its hold or a review), \`referral.tracked\` (a referee arrived through a referrer's link or code), and \`milestone.reached\` (a referrer reached a campaign milestone). Every delivery says its type in the \`X-Service-Event-Type\` header; every body but \`reward.granted\`'s (the spec's, field for field) also leads with \`"type"\`. The \`webhooks\` section of this document describes each body. A type is sent once per referral and webhook. The test event stays \`referloop.test\`.

When a reward is granted, each enabled webhook of the campaign subscribed to \`reward.granted\` whose environment scope matches gets one delivery (the other events are routed the same way): \`Sandbox\` calls reach \`Sandbox\` and \`Both\` webhooks, \`Production\` calls reach \`Production\` and \`Both\`, and a call without environment reaches every enabled webhook once.

The request is a \`POST\` with \`Content-Type: application/json\` and the body fields \`event\`, \`referrerId\`, \`refereeId\`, \`rewardClaimedAt\`, \`trackingId\` (dedupe on it), \`rewardStatus\` (\`Completed\`), \`projectId\`, \`projectName\`, \`campaignId\`. Headers:
- \`Authorization: Bearer <webhook secret>\`
- \`X-Service-Delivery-Id\` and \`webhook-id\`: the delivery id, the same on every retry of one delivery.
- \`webhook-timestamp\`: unix seconds of this attempt.
- \`webhook-signature\` and \`X-Service-Signature\`: \`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}">\` ([Standard Webhooks](https://www.standardwebhooks.com/)). During a secret rotation's overlap it carries two signatures, space separated (the new secret's, then the previous one's): the Standard Webhooks libraries accept the request when either verifies.
- \`X-Service-Event-Type\`: the event type (\`reward.granted\`, \`reward.revoked\`, ...; \`referloop.test\` for a test event).

**Rotation without downtime.** \`POST /projects/{projectId}/webhooks/{webhookId}/rotate-secret\` generates a new secret, shown once; with \`{"overlapHours": 1}\` or \`24\` every delivery until \`previousSecretExpiresAt\` is signed with both secrets, so the receiver can switch when it likes (\`Authorization\` carries the new secret: verify the signature). Without a body (or 0) the previous secret stops at once.

**Recovery after an outage.** With \`autoRecover: true\` (create or update; default false), the first successful delivery after failures makes the service resend, ${RECOVERY_PACE_MS} ms apart, every delivery of that webhook that exhausted its attempts in the last ${RECOVERY_WINDOW_DAYS} days: one attempt each, each at most once by recovery (\`recoveredAt\` in the delivery). Dead-lettered deliveries (permanent answers) are not resent. Each recovery is one audit log entry (\`webhook.recover\`).

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

Policy: any 2xx is success. At most ${MAX_ATTEMPTS} attempts, backing off ${BACKOFFS} (plus up to ${JITTER_RATIO * 100}% jitter; \`Retry-After\` on 429/503 is honoured up to ${RETRY_AFTER_CAP_MS / 60_000} minutes). Each attempt has ${seconds(DEFAULT_ATTEMPT_TIMEOUT_MS)} in total. Redirects are not followed. ${[...PERMANENT_STATUSES].join(", ")} are permanent and dead-letter the delivery at once; 408, 429, other 4xx, 5xx, timeouts and network errors are retried. A failed entry of a dead-lettered delivery can be retried from the dashboard or with \`POST /webhooks/logs/{logId}/retry\`. A delivery (failed, or pending and sent now) is retried with \`POST /projects/{projectId}/deliveries/{deliveryId}/retry\`, and every delivery a filter selects with \`POST /projects/{projectId}/deliveries/retry\`. \`POST /projects/{projectId}/webhooks/{webhookId}/test\` sends a test event (\`referloop.test\`, header \`X-Service-Test: true\`) that grants nothing.

Webhook URLs must be https, and URLs resolving to loopback, private, link-local or metadata addresses are refused, at creation and again at each send (the error says the address is not public, without naming it). A service run for development or tests may allow http and private addresses; link-local and cloud metadata addresses (\`169.254.0.0/16\`, \`fe80::/10\`, \`fd00:ec2::254\`, \`100.100.100.200\`) are refused whatever it allows. Secrets are stored encrypted and returned only on creation; the environment scope field is \`environment\` (\`Sandbox\`, \`Production\` or \`Both\`, default \`Both\`).
`.trim();
