import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { uniqueName } from "@/test/names";
import { createAppUserOverRest, expectProblem, type RestAppUser as AppUser, type RestClient, restClientForNewOrg, type RestResponse } from "@/test/rest";
import { dataSnapshot } from "@/test/snapshot";

/*
 * The app-user endpoints over HTTP: the real REST handler with real Requests, against this file's own
 * database. The domain rules themselves are tested beside the domain code; this file checks the HTTP
 * surface (paths, status codes, query/body names, problem bodies, no side effects of bad requests).
 */

let t: TestDb;
let call: RestClient;
let other: RestClient;
/** This organisation's main project, a second project of it, and another organisation's project. */
let projectId: string;
let otherOrgProjectId: string;
let otherOrgUser: { uniqueId: string; clientProvidedId: string };

const REDIRECT = "https://shop.example.com/join";

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  other = await restClientForNewOrg(t.db);
  projectId = (await call("POST", "/projects", { body: { name: "Main", referralRedirectLink: REDIRECT } })).json.uniqueId;
  otherOrgProjectId = (await other("POST", "/projects", { body: { name: "Theirs", referralRedirectLink: REDIRECT } })).json.uniqueId;
  otherOrgUser = (await other("POST", `/projects/${otherOrgProjectId}/users`, { body: { ClientProvidedId: "their-user" } })).json;
});
afterAll(() => t?.drop());

const users = (pid = projectId) => `/projects/${pid}/users`;
const uid = (prefix = "user") => uniqueName(prefix);
const createUser = (clientProvidedId = uid(), attributes?: Record<string, string>, pid = projectId) =>
  createAppUserOverRest(call, pid, clientProvidedId, attributes);

async function expectUnchanged(before: string) {
  expect(await dataSnapshot(t.db)).toBe(before);
}

describe("POST /users", () => {
  it("creates a user with 201 from PascalCase fields, with integer counters and a 6-character code", async () => {
    const res = await call("POST", users(), { body: { ClientProvidedId: "alice", Attributes: { plan: "pro", country: "DE" } } });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({
      uniqueId: expect.any(String),
      clientProvidedId: "alice",
      attributes: { plan: "pro", country: "DE" },
      status: "Active",
      referredBy: null,
      firstSeenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(res.json.referralCode).toMatch(/^[A-Za-z0-9]{6}$/);
    for (const counter of ["totalReferralsGiven", "totalReferralsReceived", "successfulReferrals"]) {
      expect(res.json[counter], counter).toBe(0);
    }
    // Integers in the JSON text itself, not strings.
    expect(res.text).toMatch(/"totalReferralsGiven":0[,}]/);
    const stored = await t.db.appUser.findUniqueOrThrow({ where: { id: res.json.uniqueId } });
    expect(stored).toMatchObject({ projectId, clientProvidedId: "alice", referralCode: res.json.referralCode, attributes: { plan: "pro", country: "DE" } });
  });

  it("accepts camelCase fields and no attributes", async () => {
    const res = await call("POST", users(), { body: { clientProvidedId: "camel-case-user" } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ clientProvidedId: "camel-case-user", attributes: {} });
  });

  it("answers 409 naming ClientProvidedId for a duplicate, and keeps the first user as it was", async () => {
    const first = await createUser("dup-user", { a: "1" });
    const before = await dataSnapshot(t.db);
    const res = await call("POST", users(), { body: { ClientProvidedId: "dup-user", Attributes: { a: "2" } } });
    expectProblem(res, 409, [["clientProvidedId", "unique"]]);
    expect(res.json.type).toBe("urn:referloop:problem:conflict");
    expect(res.json.instance).toBe(`/api/v1/public${users()}`);
    await expectUnchanged(before);
    expect((await call("GET", `${users()}/${first.uniqueId}`)).json.attributes).toEqual({ a: "1" });
  });

  it("keeps ClientProvidedId verbatim, surrounding spaces included", async () => {
    const spaced = await call("POST", users(), { body: { ClientProvidedId: " spaced " } });
    expect(spaced.status).toBe(201);
    expect(spaced.json.clientProvidedId).toBe(" spaced ");
    expect((await call("POST", users(), { body: { ClientProvidedId: "spaced" } })).status).toBe(201);
    const blank = await call("POST", users(), { body: { ClientProvidedId: "   " } });
    expect(blank.status).toBe(400);
    expect(blank.json.errors[0].field).toBe("clientProvidedId");
  });

  it("lets another project of the organisation use the same ClientProvidedId", async () => {
    const second = (await call("POST", "/projects", { body: { name: "Second" } })).json.uniqueId;
    await createUser("shared-id", undefined, projectId);
    const res = await call("POST", users(second), { body: { ClientProvidedId: "shared-id" } });
    expect(res.status).toBe(201);
  });

  const badBodies: [string, unknown, string, string?][] = [
    ["ClientProvidedId of the wrong type", { ClientProvidedId: 123 }, "clientProvidedId", "invalid_type"],
    ["missing ClientProvidedId", { Attributes: { a: "b" } }, "clientProvidedId", "invalid_type"],
    ["blank ClientProvidedId", { ClientProvidedId: "   " }, "clientProvidedId", "too_small"],
    ["over-long ClientProvidedId", { ClientProvidedId: "x".repeat(256) }, "clientProvidedId", "too_big"],
    ["attribute value that is a number", { ClientProvidedId: "typed-1", attributes: { a: 1 } }, "attributes.a", "invalid_type"],
    ["attributes that are a string", { ClientProvidedId: "typed-2", attributes: "x" }, "attributes", "invalid_type"],
    ["attributes that are an array", { ClientProvidedId: "typed-3", attributes: ["x"] }, "attributes", "invalid_type"],
    ["attribute value that is null", { ClientProvidedId: "typed-4", attributes: { a: null } }, "attributes.a", "invalid_type"],
    ["more than 50 attributes", { ClientProvidedId: "typed-5", attributes: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) }, "attributes"],
    ["an attribute value over 1000 characters", { ClientProvidedId: "typed-6", attributes: { a: "v".repeat(1001) } }, "attributes.a", "too_big"],
  ];
  it.each(badBodies)("answers 400 for %s, naming the field, and creates nothing", async (_label, body, field, rule) => {
    const before = await dataSnapshot(t.db);
    const res = await call("POST", users(), { body });
    expectProblem(res, 400, [rule ? [field, rule] : field]);
    expect(res.json.type).toBe("urn:referloop:problem:validation");
    await expectUnchanged(before);
  });

  it("answers 400 for a body that is not an object and 415 for a form body, creating nothing", async () => {
    const before = await dataSnapshot(t.db);
    expectProblem(await call("POST", users(), { rawBody: '"alice"', headers: { "content-type": "application/json" } }), 400);
    expectProblem(await call("POST", users(), { rawBody: '{"ClientProvidedId":', headers: { "content-type": "application/json" } }), 400);
    expectProblem(await call("POST", users(), { rawBody: "ClientProvidedId=x", headers: { "content-type": "application/x-www-form-urlencoded" } }), 415);
    await expectUnchanged(before);
  });

  it("answers 401 without an API key", async () => {
    const before = await dataSnapshot(t.db);
    expectProblem(await call("POST", users(), { body: { ClientProvidedId: "nokey" }, apiKey: null }), 401);
    await expectUnchanged(before);
  });
});

describe("Idempotency-Key on POST /users", () => {
  it("replays the first response for the same key and body, creating one user", async () => {
    const key = `idem-${uid()}`;
    const body = { ClientProvidedId: "idem-user", Attributes: { x: "1" } };
    const first = await call("POST", users(), { body, headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(201);
    const second = await call("POST", users(), { body, headers: { "Idempotency-Key": key } });
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(await t.db.appUser.count({ where: { projectId, clientProvidedId: "idem-user" } })).toBe(1);
    // Without the key the same body is a second request: the duplicate is refused.
    expectProblem(await call("POST", users(), { body }), 409, ["clientProvidedId"]);
  });

  it("counts PascalCase and camelCase bodies with the same content as the same request", async () => {
    const key = `idem-${uid()}`;
    const first = await call("POST", users(), { body: { ClientProvidedId: "idem-case", Attributes: { k: "v" } }, headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(201);
    const second = await call("POST", users(), { body: { attributes: { k: "v" }, clientProvidedId: "idem-case" }, headers: { "Idempotency-Key": key } });
    expect(second.status).toBe(201);
    expect(second.json).toEqual(first.json);
    expect(await t.db.appUser.count({ where: { projectId, clientProvidedId: "idem-case" } })).toBe(1);
  });

  it("answers 422 for the same key with a different body, and creates nothing", async () => {
    const key = `idem-${uid()}`;
    expect((await call("POST", users(), { body: { ClientProvidedId: "idem-a" }, headers: { "Idempotency-Key": key } })).status).toBe(201);
    const before = await dataSnapshot(t.db);
    const res = await call("POST", users(), { body: { ClientProvidedId: "idem-b" }, headers: { "Idempotency-Key": key } });
    expectProblem(res, 422, [["Idempotency-Key", "reused"]]);
    await expectUnchanged(before);
    expect(await t.db.appUser.count({ where: { projectId, clientProvidedId: "idem-b" } })).toBe(0);
  });

  it("answers 422 for the same key used on another project's create", async () => {
    const key = `idem-${uid()}`;
    const second = (await call("POST", "/projects", { body: { name: "Idem second" } })).json.uniqueId;
    expect((await call("POST", users(), { body: { ClientProvidedId: "idem-p" }, headers: { "Idempotency-Key": key } })).status).toBe(201);
    expectProblem(await call("POST", users(second), { body: { ClientProvidedId: "idem-p" }, headers: { "Idempotency-Key": key } }), 422);
    expect(await t.db.appUser.count({ where: { projectId: second } })).toBe(0);
  });

  it("runs concurrent retries once: each answer is the first response or a 409 while it is in flight", async () => {
    const key = `idem-${uid()}`;
    const body = { ClientProvidedId: "idem-concurrent" };
    const answers = await Promise.all([1, 2, 3, 4].map(() => call("POST", users(), { body, headers: { "Idempotency-Key": key } })));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of created) expect(a.json.uniqueId).toBe(created[0]!.json.uniqueId);
    for (const a of answers.filter((x) => x.status !== 201)) expectProblem(a, 409);
    expect(await t.db.appUser.count({ where: { projectId, clientProvidedId: "idem-concurrent" } })).toBe(1);
  });

  it("keeps keys per organisation: another organisation may use the same key", async () => {
    const key = `idem-${uid()}`;
    expect((await call("POST", users(), { body: { ClientProvidedId: "idem-org" }, headers: { "Idempotency-Key": key } })).status).toBe(201);
    const theirs = await other("POST", users(otherOrgProjectId), { body: { ClientProvidedId: "idem-org-theirs" }, headers: { "Idempotency-Key": key } });
    expect(theirs.status).toBe(201);
    expect(theirs.json.clientProvidedId).toBe("idem-org-theirs");
    expect(await t.db.appUser.count({ where: { projectId: otherOrgProjectId, clientProvidedId: "idem-org-theirs" } })).toBe(1);
  });

  it("answers 400 for a key over 255 characters, and creates nothing", async () => {
    const before = await dataSnapshot(t.db);
    const res = await call("POST", users(), { body: { ClientProvidedId: "idem-long" }, headers: { "Idempotency-Key": "k".repeat(256) } });
    expectProblem(res, 400, ["Idempotency-Key"]);
    await expectUnchanged(before);
  });
});

describe("GET and PUT /users/{uniqueId}", () => {
  it("gets the user by uniqueId", async () => {
    const user = await createUser(uid(), { a: "1" });
    const res = await call("GET", `${users()}/${user.uniqueId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toEqual(user);
  });

  it("answers 404 for an unknown uniqueId", async () => {
    const res = await call("GET", `${users()}/00000000-0000-0000-0000-000000000000`);
    expectProblem(res, 404);
    expect(res.json.type).toBe("urn:referloop:problem:not-found");
  });

  it("replaces the whole attributes map, and {} clears it", async () => {
    const user = await createUser(uid(), { keep: "no", change: "old" });
    const res = await call("PUT", `${users()}/${user.uniqueId}`, { body: { Attributes: { change: "new", added: "yes" } } });
    expect(res.status).toBe(200);
    expect(res.json.attributes).toEqual({ change: "new", added: "yes" });
    expect(res.json).toMatchObject({ uniqueId: user.uniqueId, clientProvidedId: user.clientProvidedId, referralCode: user.referralCode });
    expect((await t.db.appUser.findUniqueOrThrow({ where: { id: user.uniqueId } })).attributes).toEqual({ change: "new", added: "yes" });

    const cleared = await call("PUT", `${users()}/${user.uniqueId}`, { body: { attributes: {} } });
    expect(cleared.status).toBe(200);
    expect(cleared.json.attributes).toEqual({});
    expect((await call("GET", `${users()}/${user.uniqueId}`)).json.attributes).toEqual({});
  });

  const badUpdates: [string, unknown, string][] = [
    ["a missing attributes map", {}, "attributes"],
    ["attributes that are a string", { attributes: "x" }, "attributes"],
    ["an attribute value that is a number", { Attributes: { a: 1 } }, "attributes.a"],
    ["an attribute value that is a boolean", { Attributes: { a: true } }, "attributes.a"],
    ["attributes that are null", { attributes: null }, "attributes"],
  ];
  it.each(badUpdates)("answers 400 for %s and leaves the attributes as they were", async (_label, body, field) => {
    const user = await createUser(uid(), { a: "kept" });
    const before = await dataSnapshot(t.db);
    expectProblem(await call("PUT", `${users()}/${user.uniqueId}`, { body }), 400, [field]);
    await expectUnchanged(before);
  });

  it("answers 404 for an update of an unknown user, writing nothing", async () => {
    const before = await dataSnapshot(t.db);
    expectProblem(await call("PUT", `${users()}/00000000-0000-0000-0000-000000000000`, { body: { attributes: { a: "b" } } }), 404);
    await expectUnchanged(before);
  });
});

describe("GET /users/by-user-id/{clientProvidedId}", () => {
  it("serves a stored id of any UUID form, not only version 4 (imported or seeded rows): never a 500", async () => {
    const user = await createUser();
    // An md5-derived id, as a bulk import or a seed writes it: UUID-shaped, no RFC version or variant.
    const imported = "0cc175b9-c0f1-b6a8-31c3-99e269772661";
    await t.db.$executeRaw`UPDATE "AppUser" SET "id" = ${imported} WHERE "id" = ${user.uniqueId}`;
    const res = await call("GET", `${users()}/by-user-id/${encodeURIComponent(user.clientProvidedId)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.uniqueId).toBe(imported);
    expect((await call("GET", `${users()}/${imported}`)).json.uniqueId).toBe(imported);
  });

  it("finds a user whose id holds /, a space and unicode, when the id is URL-encoded", async () => {
    const clientId = "team/a b ü€✓";
    const user = await createUser(clientId);
    const res = await call("GET", `${users()}/by-user-id/${encodeURIComponent(clientId)}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ uniqueId: user.uniqueId, clientProvidedId: clientId });
    expect((await call("GET", `${users()}/by-user-id/%E0%A4%A`)).status).toBe(404);
  });

  it("finds ids made of URL-safe characters (letters, digits, - . _ ~)", async () => {
    const clientId = "Team_1.a-b~c";
    const user = await createUser(clientId);
    const res = await call("GET", `${users()}/by-user-id/${encodeURIComponent(clientId)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ uniqueId: user.uniqueId, clientProvidedId: clientId });
  });

  it("finds a plain id, matching exactly (case-sensitive)", async () => {
    const user = await createUser("CaseSensitive");
    expect((await call("GET", `${users()}/by-user-id/CaseSensitive`)).json.uniqueId).toBe(user.uniqueId);
    expectProblem(await call("GET", `${users()}/by-user-id/casesensitive`), 404);
  });

  it("answers 404 for an unknown id", async () => {
    expectProblem(await call("GET", `${users()}/by-user-id/${encodeURIComponent("nobody/here")}`), 404);
  });
});

describe("GET /users (list)", () => {
  let listProject: string;
  /** Users named so their client ids sort a < b < c; the other sort fields are set to differ. */
  const ids = { a: "list-Alpha", b: "list-bravo", c: "list-charlie" };
  let codes: Record<"a" | "b" | "c", string>;
  const list = (query: string) => call("GET", `${users(listProject)}${query ? `?${query}` : ""}`);
  const names = (res: RestResponse) => (res.json.items as AppUser[]).map((u) => u.clientProvidedId);

  beforeAll(async () => {
    listProject = (await call("POST", "/projects", { body: { name: "Listing" } })).json.uniqueId;
    const made = {
      a: await createUser(ids.a, undefined, listProject),
      b: await createUser(ids.b, undefined, listProject),
      c: await createUser(ids.c, undefined, listProject),
    };
    codes = { a: made.a.referralCode, b: made.b.referralCode, c: made.c.referralCode };
    const at = (minutes: number) => new Date(Date.UTC(2024, 0, 1, 0, minutes));
    // Each field orders the three users differently, so a wrong sort field shows in the order.
    const values = {
      a: { createdAt: at(2), firstSeenAt: at(3), lastSeenAt: at(1), successfulReferrals: 5, totalReferralsGiven: 0 },
      b: { createdAt: at(3), firstSeenAt: at(1), lastSeenAt: at(2), successfulReferrals: 1, totalReferralsGiven: 2 },
      c: { createdAt: at(1), firstSeenAt: at(2), lastSeenAt: at(3), successfulReferrals: 3, totalReferralsGiven: 7 },
    };
    for (const k of ["a", "b", "c"] as const) {
      const { successfulReferrals, totalReferralsGiven, ...user } = values[k];
      await t.db.appUser.update({ where: { id: made[k].uniqueId }, data: { ...user, counters: { update: { successfulReferrals, totalReferralsGiven } } } });
    }
  });

  it("answers the envelope with defaults: page 1, pageSize 20, newest first", async () => {
    const res = await list("");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ page: 1, pageSize: 20, totalCount: 3, hasNextPage: false });
    expect(names(res)).toEqual([ids.b, ids.a, ids.c]);
    for (const item of res.json.items as AppUser[]) {
      for (const n of [item.totalReferralsGiven, item.totalReferralsReceived, item.successfulReferrals]) expect(Number.isInteger(n)).toBe(true);
    }
  });

  const sorts: [string, string[]][] = [
    ["createdAt", ["c", "a", "b"]],
    ["firstSeenAt", ["b", "c", "a"]],
    ["lastSeenAt", ["a", "b", "c"]],
    ["clientProvidedId", ["a", "b", "c"]],
    ["successfulReferrals", ["b", "c", "a"]],
    ["totalReferralsGiven", ["a", "b", "c"]],
  ];
  it.each(sorts)("sorts by %s in any case, asc and desc", async (field, ascending) => {
    const expected = ascending.map((k) => ids[k as "a" | "b" | "c"]);
    for (const spelled of [field, field.toUpperCase(), field.toLowerCase()]) {
      const asc = await list(`SortBy=${spelled}&SortOrder=asc`);
      expect(asc.status, asc.text).toBe(200);
      expect(names(asc), `${spelled} asc`).toEqual(expected);
      const desc = await list(`sortBy=${spelled}&sortOrder=DESC`);
      expect(desc.status, desc.text).toBe(200);
      expect(names(desc), `${spelled} desc`).toEqual([...expected].reverse());
    }
  });

  it("sorts descending by default when only SortBy is given", async () => {
    expect(names(await list("SortBy=clientProvidedId"))).toEqual([ids.c, ids.b, ids.a]);
  });

  it("searches a case-insensitive part of the client id, or an exact referral code", async () => {
    expect(names(await list("Search=ALPHA"))).toEqual([ids.a]);
    expect(names(await list("search=list-&SortBy=clientProvidedId&SortOrder=asc"))).toEqual([ids.a, ids.b, ids.c]);
    expect(names(await list(`Search=${codes.b}`))).toEqual([ids.b]);
    const none = await list("Search=nomatch");
    expect(none.json).toMatchObject({ items: [], totalCount: 0, hasNextPage: false });
    // % is literal, not a wildcard.
    expect((await list(`Search=${encodeURIComponent("list%a")}`)).json.totalCount).toBe(0);
  });

  it("filters with HasReferrals=true/false (PascalCase and camelCase)", async () => {
    expect(names(await list("HasReferrals=true&SortBy=clientProvidedId&SortOrder=asc"))).toEqual([ids.b, ids.c]);
    expect(names(await list("hasReferrals=false"))).toEqual([ids.a]);
    expect(names(await list("HasReferrals=true&Search=charlie"))).toEqual([ids.c]);
  });

  it("pages with Page and PageSize (PascalCase and camelCase), reporting totalCount and hasNextPage", async () => {
    const first = await list("PageSize=2&Page=1&SortBy=clientProvidedId&SortOrder=asc");
    expect(first.json).toMatchObject({ page: 1, pageSize: 2, totalCount: 3, hasNextPage: true });
    expect(names(first)).toEqual([ids.a, ids.b]);
    const second = await list("pageSize=2&page=2&sortBy=clientProvidedId&sortOrder=asc");
    expect(second.json).toMatchObject({ page: 2, pageSize: 2, totalCount: 3, hasNextPage: false });
    expect(names(second)).toEqual([ids.c]);
    const beyond = await list("PageSize=2&Page=5");
    expect(beyond.json).toMatchObject({ items: [], page: 5, pageSize: 2, totalCount: 3, hasNextPage: false });
    const exact = await list("PageSize=3");
    expect(exact.json).toMatchObject({ pageSize: 3, hasNextPage: false });
    expect(exact.json.items).toHaveLength(3);
    expect((await list("PageSize=100")).json.pageSize).toBe(100);
    expect((await list("PageSize=1")).json).toMatchObject({ pageSize: 1, hasNextPage: true });
  });

  it("accepts query names in camelCase and PascalCase, values of SortOrder and HasReferrals in any case", async () => {
    const pascal = await call("GET", `${users()}?PageSize=1&SortOrder=ASC&HasReferrals=False`);
    const camel = await call("GET", `${users()}?pageSize=1&sortOrder=asc&hasReferrals=false`);
    expect(pascal.status).toBe(200);
    expect(pascal.json).toEqual(camel.json);
    expect(pascal.json.pageSize).toBe(1);
  });

  const badQueries: [string, string][] = [
    ["PageSize=0", "pageSize"],
    ["PageSize=101", "pageSize"],
    ["pageSize=2.5", "pageSize"],
    ["Page=0", "page"],
    ["Page=-1", "page"],
    ["Page=abc", "page"],
    ["SortBy=nonsense", "sortBy"],
    ["SortOrder=up", "sortOrder"],
    ["HasReferrals=maybe", "hasReferrals"],
    ["HasReferrals=1", "hasReferrals"],
    [`Search=${"s".repeat(101)}`, "search"],
  ];
  it.each(badQueries)("answers 400 for %s naming the field (no silent clamp)", async (query, field) => {
    const before = await dataSnapshot(t.db);
    const res = await list(query);
    expectProblem(res, 400, [field]);
    expect(res.json.type).toBe("urn:referloop:problem:validation");
    await expectUnchanged(before);
  });

  it("reports every bad query parameter at once", async () => {
    const res = await list("PageSize=0&Page=0&SortBy=nonsense&SortOrder=up");
    expectProblem(res, 400, ["pageSize", "page", "sortBy", "sortOrder"]);
  });

  it("accepts a ProjectId query parameter equal to the path, and refuses a different one with 400", async () => {
    const same = await list(`ProjectId=${listProject}&PageSize=1`);
    expect(same.status).toBe(200);
    expect(same.json.totalCount).toBe(3);
    expect((await list(`projectId=${listProject}`)).status).toBe(200);
    expectProblem(await list(`ProjectId=${projectId}`), 400, [["ProjectId", "matches_path"]]);
    expectProblem(await list("ProjectId=00000000-0000-0000-0000-000000000000"), 400, ["ProjectId"]);
  });

  it("lists only the path's project", async () => {
    const res = await call("GET", `${users()}?PageSize=100`);
    expect(names(res)).not.toContain(ids.a);
  });
});

describe("GET /users?attributeKey=&attributeValue= (the attribute filter)", () => {
  let filterProject: string;
  /** Pairs a naive filter would get wrong: quotes, commas, JSON and LIKE syntax, unicode, spaces kept. */
  const HOSTILE: [string, string][] = [
    ["plan", 'a "quoted" value'],
    ["plan", "comma, inside"],
    ["plan", "'single' -- ;"],
    ["plan", '{"nested": "json"}'],
    ["plan", "back\\slash %_"],
    ["plan", " padded "],
    ["plan", "line\nbreak"],
    ["plan", ""],
    ["Ünïcödé ✓ 日本", "👩‍👩‍👧 ключ"],
    ['"quoted key", with comma', "x"],
    ["a.b", "dotted"],
  ];
  const query = (key: string, value: string, extra = "") =>
    call("GET", `${users(filterProject)}?attributeKey=${encodeURIComponent(key)}&attributeValue=${encodeURIComponent(value)}${extra}`);
  const names = (res: RestResponse) => (res.json.items as AppUser[]).map((u) => u.clientProvidedId).sort();

  beforeAll(async () => {
    filterProject = (await call("POST", "/projects", { body: { name: "Attribute filter" } })).json.uniqueId;
    for (const [i, [key, value]] of HOSTILE.entries()) await createUser(`hostile-${i}`, { [key]: value, other: "shared" }, filterProject);
    await createUser("pro-1", { plan: "pro", country: "DE" }, filterProject);
    await createUser("pro-2", { plan: "pro" }, filterProject);
    await createUser("Pro-case", { plan: "Pro" }, filterProject);
    await createUser("no-attributes", undefined, filterProject);
    // The same pair in another project of the organisation: never listed here.
    await createUser("elsewhere", { plan: "pro" });
  });

  it("lists the users whose attribute holds exactly the value, with the count and the usual envelope", async () => {
    const res = await query("plan", "pro", "&sortBy=clientProvidedId&sortOrder=asc");
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ totalCount: 2, hasNextPage: false });
    expect((res.json.items as AppUser[]).map((u) => u.clientProvidedId)).toEqual(["pro-1", "pro-2"]);
    expect(res.json.items[0].attributes).toEqual({ plan: "pro", country: "DE" });
    // PascalCase names, as every list parameter.
    expect(names(await call("GET", `${users(filterProject)}?AttributeKey=plan&AttributeValue=Pro`))).toEqual(["Pro-case"]);
  });

  it("matches nothing for a near miss: another case, a space more, a part, an unknown key", async () => {
    for (const [key, value] of [["plan", "PRO"], ["plan", "pro "], ["plan", "pr"], ["Plan", "pro"], ["missing", "pro"], ["plan", "padded"]]) {
      const res = await query(key!, value!);
      expect(res.status, res.text).toBe(200);
      expect(res.json, `${key}=${value}`).toMatchObject({ items: [], totalCount: 0 });
    }
  });

  it("matches hostile keys and values exactly, each only its own user", async () => {
    for (const [i, [key, value]] of HOSTILE.entries()) {
      expect(names(await query(key, value)), `${key}=${JSON.stringify(value)}`).toEqual([`hostile-${i}`]);
    }
    expect((await query("other", "shared")).json.totalCount).toBe(HOSTILE.length);
    // A key named __proto__ is an ordinary key to the filter (written here directly: the create
    // endpoint's parsing drops such a key).
    await t.db.$executeRaw`
      INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "attributes", "updatedAt")
      VALUES (gen_random_uuid()::text, ${filterProject}, 'proto-key', 'PROTO1', '{"__proto__": "polluted"}'::jsonb, now())`;
    const proto = await query("__proto__", "polluted");
    expect(proto.status, proto.text).toBe(200);
    expect(names(proto)).toEqual(["proto-key"]);
  });

  it("combines with the search, hasReferrals and paging", async () => {
    expect(names(await query("plan", "pro", "&search=-2"))).toEqual(["pro-2"]);
    expect((await query("plan", "pro", "&hasReferrals=true")).json.totalCount).toBe(0);
    const page = await query("other", "shared", "&pageSize=5&page=3&sortBy=clientProvidedId&sortOrder=asc");
    expect(page.json).toMatchObject({ page: 3, totalCount: HOSTILE.length, hasNextPage: false });
    expect(page.json.items).toHaveLength(HOSTILE.length - 10);
  });

  const badQueries: [string, string][] = [
    ["attributeKey=plan", "attributeValue"],
    ["attributeValue=pro", "attributeKey"],
    ["attributeKey=&attributeValue=pro", "attributeKey"],
    [`attributeKey=${"k".repeat(101)}&attributeValue=pro`, "attributeKey"],
    [`attributeKey=plan&attributeValue=${"v".repeat(1001)}`, "attributeValue"],
    ["attributeKey=plan&attributeKey=country&attributeValue=pro", "attributeKey"],
    ["attributeKey=plan&attributeValue=a%00b", "attributeValue"],
  ];
  it.each(badQueries)("answers 400 for %s naming the field, never a 500", async (q, field) => {
    expectProblem(await call("GET", `${users(filterProject)}?${q}`), 400, [field]);
  });

  it("takes a key and a value at their longest", async () => {
    const res = await query("k".repeat(100), "v".repeat(1000));
    expect(res.status, res.text).toBe(200);
    expect(res.json.totalCount).toBe(0);
  });

  it("answers 404 for another organisation's project, as for an unknown one", async () => {
    const theirs = await call("GET", `${users(otherOrgProjectId)}?attributeKey=plan&attributeValue=pro`);
    expectProblem(theirs, 404);
    const absent = await call("GET", `${users("00000000-0000-0000-0000-000000000000")}?attributeKey=plan&attributeValue=pro`);
    expect(absent.json.detail).toBe(theirs.json.detail);
  });
});

describe("a user's events and referrals", () => {
  let referrer: AppUser;
  let refereeId: string;
  let trackingId: string;

  beforeAll(async () => {
    referrer = await createUser(uid("referrer"));
    refereeId = uid("referee");
    const track = await call("POST", `/projects/${projectId}/referrals/track`, { body: { ReferralCode: referrer.referralCode, RefereeId: refereeId } });
    expect(track.status, track.text).toBe(200);
    trackingId = track.json.referralTrackingId;
  });

  it("lists the user's events, newest first", async () => {
    const res = await call("GET", `${users()}/${referrer.uniqueId}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json.map((e: { type: string }) => e.type)).toEqual(["referral_tracked", "user_created"]);
    for (const e of res.json) expect(e).toMatchObject({ id: expect.any(String), description: expect.any(String), createdAt: expect.any(String) });
    expect(res.json[0].description).toContain(refereeId);
    const limited = await call("GET", `${users()}/${referrer.uniqueId}/events?limit=1`);
    expect(limited.json.map((e: { type: string }) => e.type)).toEqual(["referral_tracked"]);
  });

  it("answers 400 for an events limit out of range and 404 for an unknown user", async () => {
    expectProblem(await call("GET", `${users()}/${referrer.uniqueId}/events?limit=0`), 400, ["limit"]);
    expectProblem(await call("GET", `${users()}/${referrer.uniqueId}/events?limit=101`), 400, ["limit"]);
    expectProblem(await call("GET", `${users()}/00000000-0000-0000-0000-000000000000/events`), 404);
  });

  it("lists referrals given and received by direction (default given)", async () => {
    const referee = (await call("GET", `${users()}/by-user-id/${encodeURIComponent(refereeId)}`)).json as AppUser;
    const given = await call("GET", `${users()}/${referrer.uniqueId}/referrals?direction=given`);
    expect(given.status).toBe(200);
    expect(given.json).toMatchObject({ page: 1, pageSize: 20, totalCount: 1, hasNextPage: false });
    expect(given.json.items).toEqual([
      expect.objectContaining({ referralTrackingId: trackingId, referrerId: referrer.clientProvidedId, refereeId, status: "Pending" }),
    ]);
    expect((await call("GET", `${users()}/${referrer.uniqueId}/referrals`)).json.items).toHaveLength(1);
    expect((await call("GET", `${users()}/${referrer.uniqueId}/referrals?Direction=received`)).json.totalCount).toBe(0);
    const received = await call("GET", `${users()}/${referee.uniqueId}/referrals?direction=received`);
    expect(received.json.items.map((i: { referralTrackingId: string }) => i.referralTrackingId)).toEqual([trackingId]);
    expect((await call("GET", `${users()}/${referee.uniqueId}/referrals?direction=given`)).json.totalCount).toBe(0);
    expect((await call("GET", `${users()}/${referrer.uniqueId}/referrals?status=completed`)).json.totalCount).toBe(0);
    expect((await call("GET", `${users()}/${referrer.uniqueId}/referrals?Status=PENDING`)).json.totalCount).toBe(1);
  });

  it("answers 400 for a bad direction or status and 404 for an unknown user", async () => {
    expectProblem(await call("GET", `${users()}/${referrer.uniqueId}/referrals?direction=sideways`), 400, ["direction"]);
    expectProblem(await call("GET", `${users()}/${referrer.uniqueId}/referrals?status=Done`), 400, ["status"]);
    expectProblem(await call("GET", `${users()}/${referrer.uniqueId}/referrals?PageSize=0`), 400, ["pageSize"]);
    expectProblem(await call("GET", `${users()}/00000000-0000-0000-0000-000000000000/referrals`), 404);
  });

  it("counts the arrival and, after the reward, shows the referrer's client id as referredBy (integers in JSON)", async () => {
    const before = (await call("GET", `${users()}/by-user-id/${encodeURIComponent(refereeId)}`)).json;
    expect(before).toMatchObject({ totalReferralsReceived: 1, referredBy: null });
    const reward = await call("POST", `/projects/${projectId}/referrals/reward`, { body: { ReferralTrackingId: trackingId } });
    expect(reward.json).toMatchObject({ rewardClaimed: true });

    const referee = await call("GET", `${users()}/by-user-id/${encodeURIComponent(refereeId)}`);
    expect(referee.json).toMatchObject({ referredBy: referrer.clientProvidedId, totalReferralsReceived: 1, totalReferralsGiven: 0, successfulReferrals: 0 });
    const me = await call("GET", `${users()}/${referrer.uniqueId}`);
    expect(me.json).toMatchObject({ totalReferralsGiven: 1, successfulReferrals: 1, totalReferralsReceived: 0, referredBy: null });
    expect(me.text).toMatch(/"totalReferralsGiven":1[,}]/);
    expect(me.text).toMatch(/"successfulReferrals":1[,}]/);
    const listed = await call("GET", `${users()}?Search=${encodeURIComponent(refereeId)}`);
    expect(listed.json.items[0].referredBy).toBe(referrer.clientProvidedId);
    const events = await call("GET", `${users()}/${referrer.uniqueId}/events`);
    expect(events.json[0].type).toBe("reward_claimed");
  });
});

describe("another organisation's data is not found, and nothing changes", () => {
  it("answers 404 on every app-user endpoint for another organisation's project", async () => {
    const base = users(otherOrgProjectId);
    const before = await dataSnapshot(t.db);
    const requests: [string, string, unknown?][] = [
      ["GET", base],
      ["GET", `${base}?PageSize=5&SortBy=createdAt`],
      ["POST", base, { ClientProvidedId: "intruder" }],
      ["GET", `${base}/${otherOrgUser.uniqueId}`],
      ["PUT", `${base}/${otherOrgUser.uniqueId}`, { attributes: { owned: "yes" } }],
      ["GET", `${base}/by-user-id/${otherOrgUser.clientProvidedId}`],
      ["GET", `${base}/${otherOrgUser.uniqueId}/events`],
      ["GET", `${base}/${otherOrgUser.uniqueId}/referrals?direction=received`],
    ];
    for (const [method, path, body] of requests) {
      const res = await call(method, path, { body });
      expectProblem(res, 404);
      expect(res.json.type, `${method} ${path}`).toBe("urn:referloop:problem:not-found");
      // Indistinguishable from a project that does not exist.
      const absent = await call(method, path.replace(otherOrgProjectId, "00000000-0000-0000-0000-000000000000"), { body });
      expect(absent.json.detail, `${method} ${path}`).toBe(res.json.detail);
    }
    await expectUnchanged(before);
  });

  it("answers 404 for another organisation's user under this organisation's project", async () => {
    const before = await dataSnapshot(t.db);
    const base = users();
    const requests: [string, string, unknown?][] = [
      ["GET", `${base}/${otherOrgUser.uniqueId}`],
      ["PUT", `${base}/${otherOrgUser.uniqueId}`, { attributes: { owned: "yes" } }],
      ["GET", `${base}/by-user-id/${otherOrgUser.clientProvidedId}`],
      ["GET", `${base}/${otherOrgUser.uniqueId}/events`],
      ["GET", `${base}/${otherOrgUser.uniqueId}/referrals`],
    ];
    for (const [method, path, body] of requests) expectProblem(await call(method, path, { body }), 404);
    await expectUnchanged(before);
    expect((await other("GET", `${users(otherOrgProjectId)}/${otherOrgUser.uniqueId}`)).json.attributes).toEqual({});
  });

  it("does not list another organisation's users", async () => {
    const res = await call("GET", `${users()}?Search=their-user`);
    expect(res.json.totalCount).toBe(0);
  });
});
