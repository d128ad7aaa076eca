import { eventType, Inngest, staticSchema } from "inngest";

/**
 * The Inngest client. Mode, keys and server come from the environment the SDK reads itself:
 * INNGEST_DEV (dev server), or INNGEST_EVENT_KEY + INNGEST_SIGNING_KEY (cloud, or self-hosted with
 * INNGEST_BASE_URL).
 */
export const inngest = new Inngest({ id: "referloop" });

/** Asks for a delivery to be sent (again): the function runs its attempts until the policy stops. */
export const deliveryRequested = eventType("referloop/delivery.requested", {
  schema: staticSchema<{ deliveryId: string }>(),
});

/** True when deliveries go through Inngest rather than the embedded worker. */
export function inngestConfigured(): boolean {
  const dev = process.env.INNGEST_DEV;
  if (dev && dev !== "0" && dev.toLowerCase() !== "false") return true;
  return Boolean(process.env.INNGEST_EVENT_KEY && process.env.INNGEST_SIGNING_KEY);
}
