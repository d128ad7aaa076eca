import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret } from "@/lib/webhook-secrets";
import { REDACTED } from "@/lib/schemas/deliveries";
import { redactedDeliveryHeaders, signatureFor, signedDeliveryHeaders } from "./sign-delivery";

const secret = "my-receiver-secret-1234";
const body = JSON.stringify({ event: "purchase", trackingId: "t-1" });

describe("deliveryHeaders", () => {
  it("verifies a generated whsec_ secret with the official library as it is, no conversion", () => {
    const generated = generateWebhookSecret();
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const { headers } = signedDeliveryHeaders({ deliveryId: "d-1", timestampSeconds, body, secret: generated, test: false });
    expect(new Webhook(generated).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    expect(headers.Authorization).toBe(`Bearer ${generated}`);
  });

  it("verifies a client-chosen secret with the official library, keyed with the secret's UTF-8 bytes", () => {
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const { headers } = signedDeliveryHeaders({ deliveryId: "d-1", timestampSeconds, body, secret, test: false });
    const verifier = new Webhook(new TextEncoder().encode(secret), { format: "raw" });
    expect(verifier.verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => verifier.verify(body + " ", headers)).toThrow();
    expect(() => new Webhook(new TextEncoder().encode("other"), { format: "raw" }).verify(body, headers)).toThrow();
  });

  it("carries the spec's headers, and shows them again with the secret redacted", () => {
    const { headers, signature } = signedDeliveryHeaders({ deliveryId: "d-1", timestampSeconds: 1_700_000_000, body, secret, test: false });
    expect(headers).toEqual({
      "Content-Type": "application/json",
      Authorization: `Bearer ${secret}`,
      "webhook-id": "d-1",
      "webhook-timestamp": "1700000000",
      "webhook-signature": signatureFor("d-1", 1_700_000_000, body, secret),
      "X-Service-Signature": signatureFor("d-1", 1_700_000_000, body, secret),
      "X-Service-Delivery-Id": "d-1",
      "X-Service-Event-Type": "reward.granted",
      "User-Agent": "Referloop-Webhooks/1",
      "Content-Length": String(Buffer.byteLength(body)),
    });
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const shown = redactedDeliveryHeaders({ deliveryId: "d-1", timestampSeconds: 1_700_000_000, signature, body, test: false });
    expect(shown).toEqual({ ...headers, Authorization: REDACTED });
    expect(Object.keys(shown)).toEqual(Object.keys(headers));
    expect(JSON.stringify(shown)).not.toContain(secret);
  });

  it("marks a test event with X-Service-Test: true", () => {
    const { headers } = signedDeliveryHeaders({ deliveryId: "d-1", timestampSeconds: 1, body, secret, test: true });
    expect(headers["X-Service-Test"]).toBe("true");
    expect(headers["X-Service-Event-Type"]).toBe("referloop.test");
    expect(signedDeliveryHeaders({ deliveryId: "d-1", timestampSeconds: 1, body, secret, test: false }).headers).not.toHaveProperty("X-Service-Test");
    expect(signedDeliveryHeaders({ deliveryId: "d-1", timestampSeconds: 1, body, secret, test: false, eventType: "reward.revoked" }).headers).toMatchObject({
      "X-Service-Event-Type": "reward.revoked",
    });
  });

  it("signs the timestamp, so each attempt has its own signature", () => {
    expect(signatureFor("d-1", 1, body, secret)).not.toBe(signatureFor("d-1", 2, body, secret));
  });
});
