/*
 * A client's backend with @referloop/node: a referral from start to reward, and the reward's webhook
 * received on a plain node:http server and checked with verifyWebhook. Prints what it saw as JSON.
 */
import { randomUUID } from "node:crypto";
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { createReferloopClient, ReferloopError, verifyWebhook, WebhookVerificationError, type WebhookEvent } from "@referloop/node";

const env = (name: string) => process.env[name] ?? "";
const referloop = createReferloopClient({ apiKey: env("API_KEY"), baseUrl: env("APP") });
const projectId = env("PROJECT_ID");
const inProject = { path: { projectId } };

// The receiver, as the package's README shows it: the raw body, verified before anything else.
let secret = "";
const events: WebhookEvent[] = [];
const received: { body: string; headers: IncomingHttpHeaders }[] = [];
let rejected = 0;
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks);
  try {
    const event = verifyWebhook(rawBody, req.headers, secret);
    events.push(event);
    received.push({ body: rawBody.toString("utf8"), headers: req.headers });
    res.writeHead(204).end();
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    rejected++;
    res.writeHead(400).end();
  }
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/referloop`;

const campaign = await referloop.GET("/public/projects/{projectId}/campaign", { params: inProject });
const hook = await referloop.POST("/public/projects/{projectId}/webhooks/{campaignId}", {
  params: { path: { projectId, campaignId: campaign.campaignId } },
  body: { name: "Package receiver", url: receiverUrl, environment: "Production" },
});
secret = hook.secret;

const ada = await referloop.POST("/public/projects/{projectId}/users", { params: inProject, body: { clientProvidedId: "pkg-ada", attributes: { name: "Ada" } } });
await referloop.POST("/public/projects/{projectId}/users", { params: inProject, body: { clientProvidedId: "pkg-bob" } });
const link = await referloop.POST("/public/projects/{projectId}/referrals/link", { params: inProject, body: { referrerId: ada.clientProvidedId, rewardEventName: "purchase" } });
const tracked = await referloop.POST("/public/projects/{projectId}/referrals/track", {
  params: inProject,
  body: { referralCode: ada.referralCode, refereeId: "pkg-grace", rewardEventName: "purchase" },
});
const reward = await referloop.POST("/public/projects/{projectId}/referrals/reward", {
  params: inProject,
  body: { referralTrackingId: tracked.referralTrackingId, eventName: "purchase", environment: "Production" },
});

// Every user, one per page: the helper walks the pages.
const paged: string[] = [];
for await (const user of referloop.paginate("/public/projects/{projectId}/users", { params: { ...inProject, query: { pageSize: 1, sortBy: "clientProvidedId", sortOrder: "asc" } } })) {
  paged.push(user.clientProvidedId);
}

// A problem is an error with its type, status, detail and request id.
let problem: Pick<ReferloopError, "type" | "status" | "detail" | "requestId"> | null = null;
try {
  await referloop.GET("/public/projects/{projectId}", { params: { path: { projectId: randomUUID() } } });
} catch (error) {
  if (error instanceof ReferloopError) problem = { type: error.type, status: error.status, detail: error.detail, requestId: error.requestId };
}

const deadline = Date.now() + 30_000;
while (events.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
const event = events[0];
// The union narrows on `type`: reward.granted's fields are there once it is told.
const projectName: string | undefined = event?.type === "reward.granted" ? event.projectName : undefined;
const trackingId: string | undefined = event?.trackingId;

// The delivery again with one character of its body changed: the receiver refuses it.
const tamperedStatus = await new Promise<number>((resolve, reject) => {
  const delivery = received[0];
  if (!delivery) return resolve(0);
  const body = delivery.body.replace("pkg-grace", "pkg-grac3");
  const headers = { "content-type": "application/json", "webhook-id": String(delivery.headers["webhook-id"]), "webhook-timestamp": String(delivery.headers["webhook-timestamp"]), "webhook-signature": String(delivery.headers["webhook-signature"]) };
  const req = request(receiverUrl, { method: "POST", headers }, (res) => resolve(res.statusCode ?? 0));
  req.on("error", reject);
  req.end(body);
});
let wrongSecret = "";
if (received[0]) {
  try {
    verifyWebhook(received[0].body, received[0].headers, "whsec_" + Buffer.alloc(24, 7).toString("base64"));
  } catch (error) {
    wrongSecret = (error as Error).name;
  }
}

receiver.close();
console.log(JSON.stringify({ link: link.referralLink ?? null, trackingId: tracked.referralTrackingId, rewardClaimed: reward.rewardClaimed, event, eventTrackingId: trackingId, projectName, paged, problem, tamperedStatus, rejected, wrongSecret }));
