/*
 * One consistent story for the examples of the OpenAPI document (request bodies, responses,
 * parameters): one project, its campaign, a referrer who invites a referee, a webhook. The schemas
 * carry them in `.meta({ examples })`; a test checks each example against its own schema.
 */
export const EXAMPLE = {
  projectId: "4f5d2c7e-8b1a-4c3d-9e2f-1a2b3c4d5e6f",
  campaignId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  referrer: { uniqueId: "0b7f3a52-6d1e-4c8a-9f2b-3e4d5c6b7a81", clientProvidedId: "user-1001", referralCode: "K7p2Qx" },
  referee: { uniqueId: "5c2e9d71-0a4b-4f3e-8d6c-7b9a1e2f3d40", clientProvidedId: "user-2002", referralCode: "Zr4m9B" },
  trackingId: "c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f",
  webhookId: "7e6d5c4b-3a29-4187-a6f5-e4d3c2b1a098",
  deliveryId: "2d1c0b9a-8f7e-4d6c-b5a4-93827160f5e4",
  logId: "6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d",
  activityId: "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
  eventId: "8c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f",
  at: "2026-11-02T14:05:09.123Z",
  later: "2026-11-09T10:41:27.480Z",
  redirectLink: "https://shop.example.com/join",
  webhookUrl: "https://api.shop.example.com/referloop/rewards",
  eventName: "first_purchase",
} as const;
