import type { InboundProvider } from "@/generated/prisma/enums";

/** The hooks' path prefix, served by the front door (src/server.ts). */
export const INBOUND_HOOKS_PREFIX = "/api/v1/hooks/";

/** The path segment of each provider's hook. */
export const HOOK_SEGMENTS: Record<InboundProvider, string> = { stripe: "stripe", revenuecat: "revenuecat" };

/** The URL a provider is given: `<origin>/api/v1/hooks/<token>/<provider>`. */
export const hookUrl = (origin: string, token: string, provider: InboundProvider) => `${origin}${INBOUND_HOOKS_PREFIX}${token}/${HOOK_SEGMENTS[provider]}`;
