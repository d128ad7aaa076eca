import { deniedReason } from "@/lib/permissions";
import { DomainError } from "@/server/domain/errors";

/**
 * A retry of a test delivery (one with no tracking item) is a new test event at the receiver, so one
 * rule covers both: it takes `webhooks.write`, the permission of sending one (a viewer may retry reward
 * deliveries, not tests), and like sending one it reaches a disabled webhook too.
 */
export function requireTestResend(mayResendTests: boolean): void {
  if (!mayResendTests) {
    throw new DomainError("forbidden", `This is a test delivery: re-sending it is sending a test event. ${deniedReason("webhooks.write")}`);
  }
}
