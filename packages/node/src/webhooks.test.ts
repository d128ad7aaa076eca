import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "./index.ts";

/* Deliveries signed with the standardwebhooks package itself, as the service signs them. */
const SECRET = "whsec_" + Buffer.alloc(24, 9).toString("base64");
function signed(body: object, secret = SECRET, key?: Uint8Array) {
  const payload = JSON.stringify(body);
  const id = "msg_1";
  const at = new Date();
  const signature = (key ? new Webhook(key, { format: "raw" }) : new Webhook(secret)).sign(id, at, payload);
  return { payload, headers: { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature } };
}

describe("verifyWebhook", () => {
  it("answers a reward.granted body (no type field) with its type, and another event as it came", () => {
    const granted = signed({ event: "purchase", trackingId: "t1", projectName: "Shop" });
    expect(verifyWebhook(granted.payload, granted.headers, SECRET)).toEqual({ event: "purchase", trackingId: "t1", projectName: "Shop", type: "reward.granted" });
    const revoked = signed({ type: "reward.revoked", trackingId: "t1" });
    // Whatever the unsigned X-Service-Event-Type header says, the signed body decides.
    expect(verifyWebhook(Buffer.from(revoked.payload), new Headers({ ...revoked.headers, "X-Service-Event-Type": "reward.granted" }), SECRET)).toEqual({ type: "reward.revoked", trackingId: "t1" });
  });

  it("refuses a changed body, another secret and an old timestamp", () => {
    const granted = signed({ event: "purchase", trackingId: "t1" });
    expect(() => verifyWebhook(granted.payload.replace("t1", "t2"), granted.headers, SECRET)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(granted.payload, granted.headers, "whsec_" + Buffer.alloc(24, 8).toString("base64"))).toThrow(WebhookVerificationError);
    const old = { ...granted.headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 600) };
    expect(() => verifyWebhook(granted.payload, old, SECRET)).toThrow(WebhookVerificationError);
  });

  it("a secret the client chose signs with its UTF-8 bytes", () => {
    const chosen = "my-own-secret-ünïcode-1234";
    const delivery = signed({ event: "purchase" }, chosen, new TextEncoder().encode(chosen));
    expect(verifyWebhook(delivery.payload, delivery.headers, chosen)).toMatchObject({ type: "reward.granted" });
  });
});
