import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret } from "@/lib/webhook-secrets";
import { deliveryHeaders, signatureFor } from "./sign-delivery";

const secret = "my-receiver-secret-1234";
const body = JSON.stringify({ event: "purchase", trackingId: "t-1" });

describe("deliveryHeaders", () => {
  it("verifies a generated whsec_ secret with the official library as it is, no conversion", () => {
    const generated = generateWebhookSecret();
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders({ deliveryId: "d-1", timestampSeconds, body, secret: generated });
    expect(new Webhook(generated).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    expect(headers.Authorization).toBe(`Bearer ${generated}`);
  });

  it("verifies a client-chosen secret with the official library, keyed with the secret's UTF-8 bytes", () => {
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders({ deliveryId: "d-1", timestampSeconds, body, secret });
    const verifier = new Webhook(new TextEncoder().encode(secret), { format: "raw" });
    expect(verifier.verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => verifier.verify(body + " ", headers)).toThrow();
    expect(() => new Webhook(new TextEncoder().encode("other"), { format: "raw" }).verify(body, headers)).toThrow();
  });

  it("carries the spec's headers", () => {
    const headers = deliveryHeaders({ deliveryId: "d-1", timestampSeconds: 1_700_000_000, body, secret });
    expect(headers).toEqual({
      "Content-Type": "application/json",
      Authorization: `Bearer ${secret}`,
      "webhook-id": "d-1",
      "webhook-timestamp": "1700000000",
      "webhook-signature": signatureFor("d-1", 1_700_000_000, body, secret),
      "X-Service-Signature": signatureFor("d-1", 1_700_000_000, body, secret),
      "X-Service-Delivery-Id": "d-1",
    });
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it("signs the timestamp, so each attempt has its own signature", () => {
    expect(signatureFor("d-1", 1, body, secret)).not.toBe(signatureFor("d-1", 2, body, secret));
  });
});
