import { TRPCError } from "@trpc/server";
import { PROJECT_KEY_HEADER, PROJECT_SECRET_HEADER } from "@/lib/schemas/sdk";
import { authenticateProjectKey, type ProjectKeyKind, type SdkProject } from "@/server/domain/projects/authenticate-project-key";
import { PUBLISHABLE_PREFIX, SECRET_PREFIX } from "@/server/domain/projects/project-keys";
import { recordFirstSdkCall } from "@/server/domain/projects/record-first-sdk-call";
import { limitSdkRequest } from "./rate-limits";
import { SDK_EXPOSED_HEADERS } from "@/server/api/rest/sdk-cors";
import { publicProcedure } from "./procedures";

/** Who calls a client-library endpoint: the project of the key, the kind of key, and the browser origin if any. */
export type SdkCaller = { project: SdkProject; key: ProjectKeyKind; origin: string | null };

const unauthorized = (message: string) => new TRPCError({ code: "UNAUTHORIZED", message });

/**
 * The procedure kinds of the client-library endpoints (/api/v1/sdk), authorised by a project key
 * instead of an API key:
 * - `projectKey`: `X-Service-ProjectSecret` with the publishable `pk_` key (web pages, apps) or the
 *   `sk_` secret (backends);
 * - `projectSecret`: `x-project-secret-key` with the `sk_` secret only, never from a browser (a
 *   request with an `Origin` header is refused).
 * A browser call (with `Origin`) must use the publishable key and come from one of the project's
 * allowed origins; an empty list allows none. Calls without `Origin` (servers, mobile apps) pass on
 * the key alone. Every refusal is a 401 problem; the key is checked before the body, so a bad key
 * with a bad body is a 401. Calls are then limited per key and client address (a 429 over the quota).
 */
function sdkKind(credential: "projectKey" | "projectSecret") {
  const header = credential === "projectKey" ? PROJECT_KEY_HEADER : PROJECT_SECRET_HEADER;
  return publicProcedure.meta({ sdkCredential: credential }).use(async ({ ctx, path, next }) => {
    // Only over REST (handleSdkRequest): the dashboard's tRPC endpoint has no business here.
    if (ctx.via !== "rest") throw new TRPCError({ code: "NOT_FOUND", message: `No procedure ${path}.` });
    const origin = ctx.headers.get("origin");
    if (credential === "projectSecret" && origin !== null) {
      throw unauthorized(`This is a backend call: send the ${SECRET_PREFIX} secret in ${PROJECT_SECRET_HEADER} from your server. Requests from a browser (with an Origin header) are refused.`);
    }
    const key = ctx.headers.get(header)?.trim();
    if (!key) {
      throw unauthorized(
        credential === "projectKey"
          ? `Send the project's publishable key (${PUBLISHABLE_PREFIX}...) or secret (${SECRET_PREFIX}...) in the ${PROJECT_KEY_HEADER} header.`
          : `Send the project secret (${SECRET_PREFIX}...) in the ${PROJECT_SECRET_HEADER} header.`,
      );
    }
    if (credential === "projectSecret" && !key.startsWith(SECRET_PREFIX)) {
      throw unauthorized(`This backend call takes the project secret (${SECRET_PREFIX}...); a publishable key is not enough.`);
    }
    const found = await authenticateProjectKey(ctx.db, key, ctx.credentials);
    if (!found) throw unauthorized(`The key in ${header} is not valid: unknown, or rotated since.`);
    if (origin !== null) {
      // A secret seen from a browser sits in a page: refused, so the mistake shows at once.
      if (found.kind === "secret") {
        throw unauthorized(`The project secret must never reach a browser: use the publishable key (${PUBLISHABLE_PREFIX}...) in web pages, and rotate the secret if a page has shown it.`);
      }
      if (!found.project.allowedOrigins.includes(origin)) {
        throw unauthorized(`The origin ${origin} is not one of this project's allowed origins. Add it in the project's settings.`);
      }
      // CORS for this answer only, whatever its status (a 400 must be readable by the widget).
      ctx.responseHeaders.set("access-control-allow-origin", origin);
      ctx.responseHeaders.set("access-control-expose-headers", SDK_EXPOSED_HEADERS);
    }
    const sdk: SdkCaller = { project: found.project, key: found.kind, origin };
    // Counted per key and client address once the key is known, before any work.
    await limitSdkRequest(ctx, { projectKey: `${sdk.project.id}:${sdk.key}`, organizationId: sdk.project.organizationId });
    // The widget's or mobile client's endpoints: the onboarding checklist's "installed" step.
    if (credential === "projectKey") await recordFirstSdkCall(ctx.db, sdk.project.id);
    return next({ ctx: { sdk } });
  });
}

/** init-app-user, track-referral, new-user-experience: the publishable key or the secret. */
export const sdkProcedure = sdkKind("projectKey");
/** track-reward-event: the secret only, from a backend. */
export const sdkBackendProcedure = sdkKind("projectSecret");
