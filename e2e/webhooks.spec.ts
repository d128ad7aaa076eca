import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { createApiKey, createProject, openProjectTab, readSecret, restClient, signUp, type RewardResponse, type TrackResponse } from "./helpers";

type Received = { headers: IncomingHttpHeaders; body: string };

/** A webhook receiver on a random local port that answers with whatever status the test sets. */
async function startReceiver() {
  const received: Received[] = [];
  const state = { status: 500 };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(state.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(state.status < 300 ? { ok: true } : { error: "receiver is down for maintenance" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/referloop`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("webhooks: create in the dashboard, failed delivery, manual retry with the same delivery id", async ({ page, request }) => {
  test.setTimeout(120_000);
  const receiver = await startReceiver();
  try {
    await signUp(page);
    const projectId = await createProject(page, { name: "Hooks shop" });
    const apiKey = await createApiKey(page);
    const api = restClient(request, apiKey, projectId);

    // Create the webhook with a generated secret; the secret is shown once.
    await openProjectTab(page, projectId, "Webhooks");
    await expect(page.getByRole("table", { name: "Webhooks" })).toContainText("No webhooks yet");
    const form = page.getByRole("form", { name: "New webhook" });
    await form.getByLabel("Name").fill("Receiver");
    await form.getByLabel("URL").fill(receiver.url);
    await form.getByRole("button", { name: "Generate" }).click();
    const secret = await form.getByLabel("Secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await form.getByLabel("Environment").selectOption("Both");
    await expect(form.getByLabel("Enabled")).toBeChecked();
    await form.getByRole("button", { name: "Create webhook" }).click();
    expect(await readSecret(page, "Webhook secret")).toBe(secret);
    await expect(page.getByRole("region", { name: "New webhook secret" })).toContainText("only time the secret is shown");
    const webhooks = page.getByRole("table", { name: "Webhooks" });
    const row = webhooks.getByRole("row", { name: /Receiver/ });
    await expect(row).toContainText(receiver.url);
    await expect(row).toContainText(`****${secret.slice(-4)}`);
    await expect(row.getByRole("switch", { name: "Enabled: Receiver" })).toHaveAttribute("aria-checked", "true");

    // A reward through the REST API: the receiver answers 500 to all five attempts.
    const alice = await api.post<{ referralCode: string }>("/users", { clientProvidedId: "alice" }, 201);
    const tracked = await api.post<TrackResponse>("/referrals/track", { referralCode: alice.referralCode, refereeId: "bob" });
    const reward = await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: tracked.referralTrackingId, eventName: "first_purchase" });
    expect(reward.rewardClaimed).toBe(true);
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(5);
    const deliveryId = String(receiver.received[0]?.headers["x-service-delivery-id"] ?? "");
    expect(deliveryId).not.toBe("");
    for (const hit of receiver.received) {
      expect(hit.headers["x-service-delivery-id"]).toBe(deliveryId);
      expect(hit.headers.authorization).toBe(`Bearer ${secret}`);
    }
    expect(JSON.parse(receiver.received[0]?.body ?? "{}")).toMatchObject({ event: "first_purchase", referrerId: "alice", refereeId: "bob" });
    // The generated whsec_ secret verifies with the official Standard Webhooks library as it is.
    const first = receiver.received[0]!;
    const signed = { "webhook-id": String(first.headers["webhook-id"]), "webhook-timestamp": String(first.headers["webhook-timestamp"]), "webhook-signature": String(first.headers["webhook-signature"]) };
    expect(new Webhook(secret).verify(first.body, signed)).toMatchObject({ event: "first_purchase" });

    // The deliveries view: the failed delivery, its five attempts, the response on demand.
    await row.getByRole("link", { name: "Deliveries of Receiver" }).click();
    await expect(page.getByRole("heading", { name: "Deliveries: Receiver" })).toBeVisible();
    const delivery = page.getByRole("region", { name: `Delivery ${deliveryId}` });
    await expect(delivery.getByText("Failed", { exact: true }).first()).toBeVisible();
    const attempts = delivery.getByRole("table", { name: `Attempts of delivery ${deliveryId}` });
    await expect(attempts.getByRole("row")).toHaveCount(6);
    await expect(attempts.getByRole("row").nth(1)).toContainText("#5");
    await expect(attempts.getByRole("row").nth(1)).toContainText("500");
    await expect(attempts.getByRole("row").nth(1)).toContainText("first_purchase");
    await attempts.getByRole("row").nth(1).locator("summary").click();
    await expect(attempts.getByRole("row").nth(1)).toContainText("receiver is down for maintenance");

    // The receiver recovers; Retry shows its progress, then the new attempt's success.
    receiver.state.status = 200;
    // One Retry per delivery (a retry acts on the whole delivery, not on one attempt).
    await delivery.getByRole("button", { name: `Retry delivery ${deliveryId}` }).click();
    await expect(delivery.getByRole("status").filter({ hasText: /Queueing the retry|waiting for the new attempt/ })).toBeVisible();
    await expect(delivery.getByRole("status").filter({ hasText: "Retry succeeded: attempt 6 got HTTP 200" })).toBeVisible({ timeout: 15_000 });
    await expect(attempts.getByRole("row")).toHaveCount(7);
    await expect(attempts.getByRole("row").nth(1)).toContainText("#6");
    await expect(attempts.getByRole("row").nth(1)).toContainText("Success");
    await expect(delivery.getByText("Succeeded", { exact: true })).toBeVisible();
    await expect(delivery.getByRole("button", { name: /Retry delivery/ })).toHaveCount(0);
    expect(receiver.received).toHaveLength(6);
    expect(receiver.received[5]?.headers["x-service-delivery-id"]).toBe(deliveryId);

    // Edit, disable and delete the webhook.
    await page.getByRole("link", { name: "← Webhooks" }).click();
    await webhooks.getByRole("button", { name: "Edit Receiver" }).click();
    const edit = page.getByRole("form", { name: "Edit webhook Receiver" });
    await edit.getByLabel("Name").fill("Billing receiver");
    await edit.getByLabel("Environment").selectOption("Production");
    await edit.getByRole("button", { name: "Save webhook" }).click();
    const edited = webhooks.getByRole("row", { name: /Billing receiver/ });
    await expect(edited).toContainText("Production");
    await expect(edited).toContainText(`****${secret.slice(-4)}`);
    // A new URL needs a new secret: refused without one, saved with a generated one (the old one never follows the URL).
    await webhooks.getByRole("button", { name: "Edit Billing receiver" }).click();
    const move = page.getByRole("form", { name: "Edit webhook Billing receiver" });
    await move.getByLabel("URL").fill(`${receiver.url}/moved`);
    await expect(move).toContainText("A new URL needs a new secret");
    await move.getByRole("button", { name: "Save webhook" }).click();
    await expect(move).toContainText("The current secret never follows the URL");
    await move.getByRole("button", { name: "Generate" }).click();
    const newSecret = await move.getByLabel(/^Secret/).inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    await move.getByRole("button", { name: "Save webhook" }).click();
    await expect(edited).toContainText(`****${newSecret.slice(-4)}`);
    await expect(edited).toContainText(`${receiver.url}/moved`);
    await edited.getByRole("switch", { name: "Enabled: Billing receiver" }).click();
    await expect(edited.getByRole("switch", { name: "Enabled: Billing receiver" })).toHaveAttribute("aria-checked", "false");
    await page.reload();
    await expect(webhooks.getByRole("switch", { name: "Enabled: Billing receiver" })).toHaveAttribute("aria-checked", "false");
    // The list's health: one success in six attempts, none failed since, switched off by a person.
    await expect(edited).toContainText("16.7 % of 6 attempts");
    await expect(edited).not.toContainText("in a row");
    await expect(edited).toContainText("Disabled by a member.");
    await webhooks.getByRole("button", { name: "Delete Billing receiver" }).click();
    await webhooks.getByRole("button", { name: "Delete webhook" }).click();
    await expect(webhooks).toContainText("No webhooks yet");
  } finally {
    await receiver.close();
  }
});
