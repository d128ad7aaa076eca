import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { createApiKey, readSecret, restClient, type TrackResponse } from "./helpers";

/** A webhook receiver on 127.0.0.1 that answers 200 and counts what it got. */
export async function startOkReceiver() {
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/referloop`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SeededProject = {
  projectId: string;
  publishableKey: string;
  secret: string;
  apiKey: string;
  webhookId: string;
  referrerId: string;
  trackingId: string;
  deliveryId: string;
};

/** Creates a project in the dashboard (its secret read once) and returns its id and secret. */
export async function createProjectWithSecret(page: Page, { name = "Shop", redirectLink = "" } = {}) {
  await page.goto("/dashboard");
  const form = page.getByRole("form", { name: "Create a project" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  if (redirectLink) await form.getByLabel("Referral redirect link").fill(redirectLink);
  await form.getByRole("button", { name: "Create project" }).click();
  const secret = await readSecret(page, "Project secret");
  await page.getByRole("link", { name: `Open ${name}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/projects\/[^/]+$/);
  return { projectId: new URL(page.url()).pathname.split("/").pop() ?? "", secret };
}

/**
 * A project with something on every page: an app user who referred another, a webhook to `webhookUrl`,
 * a reward (and so a delivery), and a call of the client library with the publishable key.
 */
export async function seedProject(page: Page, request: APIRequestContext, webhookUrl: string): Promise<SeededProject> {
  const { projectId, secret } = await createProjectWithSecret(page, { name: "Seeded shop", redirectLink: "https://shop.example.com/join" });
  const apiKey = await createApiKey(page);
  const api = restClient(request, apiKey, projectId);
  const project = await api.get<{ campaignId: string; publishableKey: string }>("");
  const webhook = await api.post<{ id: string }>(`/webhooks/${project.campaignId}`, { name: "Receiver", url: webhookUrl }, 201);
  const alice = await api.post<{ referralCode: string; uniqueId: string }>("/users", { clientProvidedId: "alice", attributes: { name: "Alice", plan: "pro" } }, 201);
  const tracked = await api.post<TrackResponse>("/referrals/track", { referralCode: alice.referralCode, refereeId: "bob" });
  await api.post("/referrals/reward", { referralTrackingId: tracked.referralTrackingId, eventName: "first_purchase" });
  const init = await request.post("/api/v1/sdk/init-app-user", { headers: { "X-Service-ProjectSecret": project.publishableKey }, data: { userId: "carol" } });
  expect(init.status(), await init.text()).toBe(200);
  // The reward's delivery to the webhook, for its page.
  let deliveryId = "";
  await expect
    .poll(async () => (deliveryId = (await api.get<{ items: { deliveryId: string }[] }>("/deliveries")).items[0]?.deliveryId ?? ""))
    .not.toBe("");
  return { projectId, publishableKey: project.publishableKey, secret, apiKey, webhookId: webhook.id, referrerId: alice.uniqueId, trackingId: tracked.referralTrackingId, deliveryId };
}

/** Every page of the dashboard, with the seeded project's sections. */
export function dashboardPages(seed: SeededProject): string[] {
  const project = `/dashboard/projects/${seed.projectId}`;
  return [
    "/dashboard",
    "/dashboard/api-keys",
    "/dashboard/organization",
    "/dashboard/audit-log",
    "/dashboard/account",
    "/dashboard/api-reference",
    project,
    `${project}/settings`,
    `${project}/users`,
    `${project}/users/lookup`,
    `${project}/users/${seed.referrerId}`,
    `${project}/referrals`,
    `${project}/referrals/${seed.trackingId}`,
    `${project}/leaderboard`,
    `${project}/reviews`,
    `${project}/campaign`,
    `${project}/webhooks`,
    `${project}/webhooks/${seed.webhookId}`,
    `${project}/deliveries`,
    `${project}/deliveries/${seed.deliveryId}`,
    `${project}/inbound-events`,
    `${project}/activity`,
    `${project}/activity/reward-events`,
  ];
}
