import { eventType, Inngest, staticSchema } from "inngest";

/**
 * The Inngest client. Mode, keys and server come from the environment the SDK reads itself:
 * INNGEST_DEV (dev server), or INNGEST_EVENT_KEY + INNGEST_SIGNING_KEY (cloud, or self-hosted with
 * INNGEST_BASE_URL). Whether it is used at all is the configuration's `inngestEnabled`.
 */
export const inngest = new Inngest({ id: "referloop" });

/** Asks for a delivery to be sent (again): the function runs its attempts until the policy stops. */
export const deliveryRequested = eventType("referloop/delivery.requested", {
  schema: staticSchema<{ deliveryId: string }>(),
});
