import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userHashOf } from "@/server/domain/projects/verify-user-hash";
import { answerPortal } from "@/server/http/portal/answer-portal";
import { fromFetchRequest } from "@/server/http/api-exchange";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { uniqueName as uid } from "@/test/names";
import { createAppUserOverRest, expectProblem, restClientForNewOrg, trackOverRest, type RestAppUser, type RestClient } from "@/test/rest";
import { createSdkProject, sdkClient, type SdkClient } from "@/test/sdk";

/*
 * The referrer's own page end to end against this file's database: minting sessions over REST, the
 * hosted page and its JSON, the client library's summary; and every way a session or a call must
 * open nothing (another organisation, another project's token, tampered, expired, rotated secret,
 * erased user, unverified publishable key).
 */
const SHOP = "https://shop.example.com";
let t: TestDb;
let rest: RestClient;
let other: RestClient;
let sdk: SdkClient;
let main: Awaited<ReturnType<typeof createSdkProject>>;
let second: Awaited<ReturnType<typeof createSdkProject>>;
let theirs: Awaited<ReturnType<typeof createSdkProject>>;
let ada: RestAppUser;

const config = testConfig();

/** GET the hosted page (HTML, or JSON with `json`), as the front door would hand it over. */
async function portal(url: string, opts: { json?: boolean; now?: Date } = {}) {
  const headers = new Headers(opts.json ? { accept: "application/json" } : { accept: "text/html" });
  const a = await answerPortal(fromFetchRequest(new Request(url, { headers })), { db: t.db, config }, opts.now);
  const text = typeof a.body === "string" ? a.body : "";
  return { status: a.status, headers: a.headers, text, json: opts.json ? JSON.parse(text) : undefined };
}

async function mint(projectId: string, uniqueId: string, body?: unknown, call = rest) {
  return call("POST", `/projects/${projectId}/users/${uniqueId}/portal-sessions`, { body: body ?? {} });
}

beforeAll(async () => {
  t = await createTestDb();
  rest = await restClientForNewOrg(t.db);
  other = await restClientForNewOrg(t.db);
  sdk = sdkClient(t.db);
  main = await createSdkProject(rest, { allowedOrigins: [SHOP] });
  second = await createSdkProject(rest, { name: "Second" });
  theirs = await createSdkProject(other, { name: "Theirs" });
  ada = await createAppUserOverRest(rest, main.projectId, "ada", { name: "Ada" });
  const put = await rest("PUT", `/projects/${main.projectId}/campaign`, {
    body: { milestones: [{ referrals: 2, name: "Silver" }, { referrals: 1, name: "Bronze" }], referrerExperience: { modal: { modalTitle: "Ada's friends <club>" } } },
  });
  expect(put.status, put.text).toBe(200);
  expect(put.json.milestones).toEqual([{ referrals: 1, name: "Bronze" }, { referrals: 2, name: "Silver" }]);
  // Five arrivals: two rewarded, one pending, one anonymous (not signed up), one held for review below.
  const friends = ["grace", "linus", "barbara", "margaret"];
  const ids: string[] = [];
  for (const name of friends) {
    await createAppUserOverRest(rest, main.projectId, `${name}-${uid("id")}`, { name: name[0]!.toUpperCase() + name.slice(1), nick: `${name}!` });
  }
  const users = await t.db.appUser.findMany({ where: { projectId: main.projectId, clientProvidedId: { not: "ada" } }, orderBy: { createdAt: "asc" } });
  for (const u of users) ids.push((await trackOverRest(rest, main.projectId, ada, u.clientProvidedId)).trackingId);
  const anonymous = await sdk("track-referral", { key: main.publishableKey, body: { referralCode: ada.referralCode } });
  expect(anonymous.status, anonymous.text).toBe(200);
  for (const id of ids.slice(0, 2)) expect((await rest("POST", `/projects/${main.projectId}/referrals/reward`, { body: { referralTrackingId: id } })).json.rewardClaimed).toBe(true);
  await t.db.rewardReview.create({ data: { trackingId: ids[3]!, projectId: main.projectId, eventName: "purchase", reasons: ["hold"] } });
});
afterAll(() => t?.drop());

describe("portal sessions over REST", () => {
  it("mints { token, url, expiresAt }: 1 hour by default, up to 24; the page shows the summary, framed only by the allowed origins", async () => {
    const before = Date.now();
    const res = await mint(main.projectId, ada.uniqueId);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { token, url, expiresAt } = res.json;
    expect(url).toBe(`http://localhost/portal/${token}`);
    expect(Math.abs(Date.parse(expiresAt) - before - 3600_000)).toBeLessThan(5000);
    const long = await mint(main.projectId, ada.uniqueId, { expiresInSeconds: 86_400 });
    expect(Math.abs(Date.parse(long.json.expiresAt) - before - 86_400_000)).toBeLessThan(5000);

    const page = await portal(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain(`frame-ancestors ${SHOP}`);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.text).toContain("Ada&#39;s friends &lt;club&gt;");
    expect(page.text).toContain(ada.referralCode);
    expect(page.text).toContain("Being checked");
    expect(page.text).toContain("Silver");
    // No request leaves for another host: no src or href to anything but share links.
    expect(page.text).not.toMatch(/\ssrc="https?:/);

    const { json } = await portal(url, { json: true });
    expect(json.totals).toEqual({ arrived: 5, joined: 4, pending: 1, beingChecked: 1, rewarded: 2 });
    expect(json.referralLink).toBe(`https://shop.example.com/join?referralCode=${ada.referralCode}`);
    expect(json.friends).toMatchObject({ page: 1, totalCount: 5, hasNextPage: false });
    expect(json.friends.items.map((f: { status: string }) => f.status).sort()).toEqual(["arrived", "being_checked", "pending", "rewarded", "rewarded"]);
    // Masked without a display attribute: first letter and dots, never the id or the full name.
    expect(json.friends.items.filter((f: { masked: boolean }) => f.masked)).toHaveLength(5);
    expect(json.friends.items.map((f: { name: string }) => f.name)).toContain("G•••");
    expect(JSON.stringify(json)).not.toMatch(/grace|Grace/);
    expect(json.rewards.count).toBe(2);
    expect(json.milestones).toMatchObject({ successfulReferrals: 2, next: null });
    expect(json.milestones.items.map((m: { name: string; reached: boolean }) => [m.name, m.reached])).toEqual([["Bronze", true], ["Silver", true]]);
  });

  it("the display attribute shows names; hidden sections are null and absent from the page", async () => {
    const put = await rest("PUT", `/projects/${main.projectId}/campaign`, { body: { portal: { friendNameAttribute: "nick", sections: { rewards: false } } } });
    expect(put.json.portal).toEqual({ friendNameAttribute: "nick", sections: { totals: true, friends: true, rewards: false, milestones: true } });
    const { url } = (await mint(main.projectId, ada.uniqueId)).json;
    const { json } = await portal(url, { json: true });
    expect(json.rewards).toBeNull();
    expect(json.friends.items.map((f: { name: string }) => f.name)).toContain("grace!");
    expect((await portal(url)).text).not.toContain("Rewards earned");
    await rest("PUT", `/projects/${main.projectId}/campaign`, { body: { portal: { friendNameAttribute: null, sections: { rewards: true } } } });
  });

  it("bounds and bad input are 400 problems naming the field", async () => {
    for (const expiresInSeconds of [59, 86_401, 1.5, "3600"]) expectProblem(await mint(main.projectId, ada.uniqueId, { expiresInSeconds }), 400, ["expiresInSeconds"]);
    const bad = [
      [{ milestones: Array.from({ length: 11 }, (_, i) => ({ referrals: i + 1, name: `M${i}` })) }, "milestones"],
      [{ milestones: [{ referrals: 3, name: "A" }, { referrals: 3, name: "B" }] }, "milestones.1.referrals"],
      [{ milestones: [{ referrals: 0, name: "A" }] }, "milestones.0.referrals"],
      [{ milestones: [{ referrals: 2, name: " " }] }, "milestones.0.name"],
      [{ milestones: [{ referrals: 2, name: "A", extra: 1 }] }, "milestones.0"],
      [{ portal: { sections: { totals: "yes" } } }, "portal.sections.totals"],
      [{ portal: { friendNameAttribute: "" } }, "portal.friendNameAttribute"],
    ] as const;
    for (const [body, field] of bad) expectProblem(await rest("PUT", `/projects/${main.projectId}/campaign`, { body }), 400, [field]);
  });

  it("tenancy: another organisation's project or user, and a user of another project, are 404s; no key is a 401", async () => {
    expectProblem(await mint(main.projectId, ada.uniqueId, undefined, other), 404);
    const theirUser = await createAppUserOverRest(other, theirs.projectId, "their-ada");
    expectProblem(await mint(theirs.projectId, theirUser.uniqueId), 404);
    expectProblem(await mint(main.projectId, theirUser.uniqueId), 404);
    expectProblem(await mint(second.projectId, ada.uniqueId), 404);
    expectProblem(await rest("POST", `/projects/${main.projectId}/users/${ada.uniqueId}/portal-sessions`, { apiKey: null, body: {} }), 401);
  });
});

describe("a session that opens nothing", () => {
  it("expired: a 401 page saying so plainly, a 401 problem as JSON; nothing about the user", async () => {
    const { url, expiresAt } = (await mint(main.projectId, ada.uniqueId, { expiresInSeconds: 60 })).json;
    const later = new Date(Date.parse(expiresAt) + 1000);
    const page = await portal(url, { now: later });
    expect(page.status).toBe(401);
    expect(page.text).toContain("This page has expired");
    expect(page.text).not.toContain(ada.referralCode);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const problem = await portal(url, { now: later, json: true });
    expect(problem.status).toBe(401);
    expect(problem.headers.get("content-type")).toBe("application/problem+json");
    expect(problem.json.type).toBe("urn:referloop:problem:unauthorized");
    expect((await portal(url, { now: new Date(Date.parse(expiresAt) - 1000) })).status).toBe(200);
  });

  it("tampered, truncated, forged or garbage tokens: 401, never 'expired', never the user", async () => {
    const { token } = (await mint(main.projectId, ada.uniqueId)).json as { token: string };
    const [payload, mac] = token.split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const otherUser = await createAppUserOverRest(rest, main.projectId, uid("bob"));
    const swapped = Buffer.from(JSON.stringify({ ...claims, u: otherUser.uniqueId })).toString("base64url");
    const extended = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 86_400 * 365 })).toString("base64url");
    const flipped = mac.slice(0, -2) + (mac.at(-2) === "A" ? "B" : "A") + mac.at(-1);
    for (const bad of [`${swapped}.${mac}`, `${extended}.${mac}`, `${payload}.${flipped}`, payload, `${payload}.`, "x", "%00", `${payload}.${mac}x`, "a".repeat(5000)]) {
      const res = await portal(`http://localhost/portal/${bad}`);
      expect(res.status, bad).toBe(401);
      expect(res.text).toContain("not available");
      expect(res.text).not.toContain(ada.referralCode);
    }
  });

  it("another project's token cannot be replayed under this project, and rotating the secret revokes every session", async () => {
    const mine = await createAppUserOverRest(rest, second.projectId, "sam");
    const { token } = (await mint(second.projectId, mine.uniqueId)).json as { token: string };
    const [payload, mac] = token.split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const moved = Buffer.from(JSON.stringify({ ...claims, p: main.projectId, u: ada.uniqueId })).toString("base64url");
    expect((await portal(`http://localhost/portal/${moved}.${mac}`)).status).toBe(401);

    const { url } = (await mint(second.projectId, mine.uniqueId)).json;
    expect((await portal(url)).status).toBe(200);
    expect((await rest("POST", `/projects/${second.projectId}/rotate-secret`)).status).toBe(200);
    expect((await portal(url)).status).toBe(401);
    expect((await portal((await mint(second.projectId, mine.uniqueId)).json.url)).status).toBe(200);
  });

  it("erasing the user ends the session", async () => {
    const gone = await createAppUserOverRest(rest, main.projectId, uid("gone"));
    const { url } = (await mint(main.projectId, gone.uniqueId)).json;
    expect((await portal(url)).status).toBe(200);
    expect((await rest("DELETE", `/projects/${main.projectId}/users/${gone.uniqueId}`)).status).toBeLessThan(300);
    const res = await portal(url);
    expect(res.status).toBe(401);
  });

  it("the friends list pages", async () => {
    const { url } = (await mint(main.projectId, ada.uniqueId)).json;
    const many = await createAppUserOverRest(rest, main.projectId, uid("many"));
    for (let i = 0; i < 45; i++) await trackOverRest(rest, main.projectId, many, uid(`f${i}`));
    const manyUrl = (await mint(main.projectId, many.uniqueId)).json.url;
    const third = await portal(`${manyUrl}?page=3`, { json: true });
    expect(third.json.friends).toMatchObject({ page: 3, pageSize: 20, totalCount: 45, hasNextPage: false });
    expect(third.json.friends.items).toHaveLength(5);
    const html = (await portal(manyUrl)).text;
    expect(html).toContain("Page 1 of 3");
    expect(html).toContain("?page=2");
    expect((await portal(url, { json: true })).json.friends.totalCount).toBe(5);
  });
});

describe("the client library's summary", () => {
  const summary = (body: object, opts: { key?: string; origin?: string } = {}) => sdk("referral-summary", { key: opts.key ?? main.publishableKey, origin: opts.origin, body });

  it("the secret, or the publishable key with a valid userHash (also from an allowed origin): the same summary as the page", async () => {
    const bySecret = await summary({ userId: "ada" }, { key: main.secret });
    expect(bySecret.status, bySecret.text).toBe(200);
    const byHash = await summary({ userId: "ada", userHash: userHashOf(main.secret, "ada") }, { origin: SHOP });
    expect(byHash.status, byHash.text).toBe(200);
    expect(byHash.headers.get("access-control-allow-origin")).toBe(SHOP);
    const { url } = (await mint(main.projectId, ada.uniqueId)).json;
    const page = (await portal(url, { json: true })).json;
    expect(byHash.json).toEqual(page);
    expect(bySecret.json).toEqual(page);
    const paged = await summary({ userId: "ada", page: 2, pageSize: 2 }, { key: main.secret });
    expect(paged.json.friends).toMatchObject({ page: 2, pageSize: 2, totalCount: 5, hasNextPage: true });
  });

  it("an unverified publishable call gets nothing about the user: 401, even for an unknown user", async () => {
    for (const body of [{ userId: "ada" }, { userId: "nobody-" + uid("x") }, { userId: "ada", userHash: userHashOf(main.secret, "someone-else") }, { userId: "ada", userHash: userHashOf(second.secret, "ada") }]) {
      const res = await summary(body);
      expectProblem(res, 401);
      expect(res.text).not.toContain(ada.referralCode);
    }
  });

  it("tenancy: another project's key or secret finds no such user (404); a foreign origin is refused; bad paging is a 400", async () => {
    expectProblem(await summary({ userId: "ada" }, { key: theirs.secret }), 404);
    expectProblem(await summary({ userId: "ada", userHash: userHashOf(theirs.secret, "ada") }, { key: theirs.publishableKey }), 404);
    expectProblem(await summary({ userId: "ada", userHash: userHashOf(main.secret, "ada") }, { origin: "https://evil.example.net" }), 401);
    expectProblem(await summary({ userId: "ada", pageSize: 101 }, { key: main.secret }), 400, ["pageSize"]);
    expectProblem(await summary({ userId: "ada", page: 0 }, { key: main.secret }), 400, ["page"]);
  });
});
