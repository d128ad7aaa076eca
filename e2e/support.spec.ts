import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { createApiKey, createProject, inviteAndJoin, openProjectTab, restClient, signUp, uniqueEmail, type RewardResponse, type TrackResponse } from "./helpers";

type Received = { headers: IncomingHttpHeaders; body: string };

/** A receiver on 127.0.0.1 that refuses the first request (422: dead-lettered at once) and accepts every later one. */
async function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      const first = received.length === 1;
      res.writeHead(first ? 422 : 200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(first ? { error: "unknown referee" } : { ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/rewards`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test("support: a viewer finds a failed delivery by the referee's id, reads what was sent, retries it and sees it succeed", async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  try {
    // The owner's set-up: a project, a webhook, and a reward whose delivery the receiver refuses.
    await signUp(page, { organization: "Support Co" });
    const projectId = await createProject(page, { name: "Support shop" });
    const api = restClient(request, await createApiKey(page), projectId);
    const { campaignId } = await api.get<{ campaignId: string }>("");
    const secret = "support-e2e-secret-0123456789";
    const webhook = await api.post<{ id: string }>(`/webhooks/${campaignId}`, { name: "Billing", url: receiver.url, secret }, 201);
    const referee = `customer-${Date.now()}`;
    const rita = await api.post<{ referralCode: string }>("/users", { clientProvidedId: "rita" }, 201);
    const tracked = await api.post<TrackResponse>("/referrals/track", { referralCode: rita.referralCode, refereeId: referee });
    expect((await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: tracked.referralTrackingId, eventName: "purchase" })).rewardClaimed).toBe(true);
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
    const deliveryId = String(receiver.received[0]!.headers["x-service-delivery-id"]);

    // Support staff: a viewer of the organisation.
    const viewer = await (await browser.newContext()).newPage();
    await inviteAndJoin(page, viewer, uniqueEmail("support"), "Viewer");

    // The customer says the reward never arrived: search by their id.
    await openProjectTab(viewer, projectId, "Deliveries");
    await viewer.getByRole("searchbox", { name: "Search" }).fill(referee);
    await viewer.getByRole("button", { name: "Search", exact: true }).click();
    await expect(viewer).toHaveURL(new RegExp(`q=${referee}`));
    await expect(viewer.getByText("The client id of a referee")).toBeVisible();
    const results = viewer.getByRole("table", { name: "Deliveries found" });
    await expect(results.getByRole("row")).toHaveCount(2);
    await expect(results.getByRole("row").nth(1)).toContainText("Failed");
    await expect(results.getByRole("row").nth(1)).toContainText("Dead-lettered");
    await expect(results.getByRole("row").nth(1)).toContainText("422");

    // The delivery's page: the request as sent (the secret redacted) and the receiver's answer.
    await results.getByRole("link", { name: `Delivery ${deliveryId}` }).click();
    await expect(viewer.getByRole("heading", { name: `Delivery ${deliveryId}` })).toBeVisible();
    const attempt = viewer.getByRole("region", { name: "Attempt 1" });
    const body = attempt.getByLabel("Request body of attempt 1");
    await expect(body).toContainText(`"refereeId": "${referee}"`);
    await expect(body).toContainText(`"trackingId": "${tracked.referralTrackingId}"`);
    await expect(attempt).toContainText("Authorization:[redacted]");
    await expect(attempt).not.toContainText(secret);
    await expect(attempt.getByLabel("Response body of attempt 1")).toContainText("unknown referee");
    await expect(viewer.getByRole("link", { name: referee })).toHaveAttribute("href", /\/users\//);
    await expect(viewer.getByRole("link", { name: tracked.referralTrackingId })).toBeVisible();

    // One Retry for the delivery; the receiver now accepts it.
    await viewer.getByRole("button", { name: `Retry delivery ${deliveryId}` }).click();
    await expect(viewer.getByRole("region", { name: "Attempt 2" })).toContainText("Success", { timeout: 20_000 });
    await expect(viewer.getByText("Succeeded", { exact: true }).first()).toBeVisible();
    await expect(viewer.getByRole("button", { name: `Retry delivery ${deliveryId}` })).toHaveCount(0);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers["x-service-delivery-id"]).toBe(deliveryId);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);

    // The referral's page shows the claimed reward event and the delivery; a viewer sends no test event.
    await viewer.getByRole("link", { name: tracked.referralTrackingId }).click();
    await expect(viewer.getByRole("table", { name: "Reward events" })).toContainText("Claimed");
    await expect(viewer.getByRole("table", { name: "Deliveries of this referral" })).toContainText("Succeeded");
    await viewer.goto(`/dashboard/projects/${projectId}/webhooks/${webhook.id}`);
    await expect(viewer.getByRole("heading", { name: "Health" })).toBeVisible();
    await expect(viewer.getByRole("button", { name: "Send test event" })).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});
