import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createAppUserOverRest, createOrgWithApiKey, createProjectOverRest, expectProblem, restClient, type RestClient, trackOverRest } from "@/test/rest";
import { EXPORT_BATCH_ROWS } from "@/server/domain/exports/keyset-csv";

/*
 * The CSV exports read back with a CSV parser (csv-parse) and compared with what was stored,
 * hostile values included: quoting, line breaks, and formulas a spreadsheet would run.
 */

let t: TestDb;
let call: RestClient;
let other: RestClient;
let project: string;
let organizationId: string;

/** Values a spreadsheet or a naive CSV writer would get wrong, each with what the file must say. */
const HOSTILE: [string, string][] = [
  ['=HYPERLINK("https://evil.example","click")', `'=HYPERLINK("https://evil.example","click")`],
  ["+1+2", "'+1+2"],
  ["-2+3", "'-2+3"],
  ["@SUM(A1:A9)", "'@SUM(A1:A9)"],
  ["\tTabbed", "'\tTabbed"],
  ["\rCarriage", "'\rCarriage"],
  ["comma, inside", "comma, inside"],
  ['a "quoted" word', 'a "quoted" word'],
  ["line\nbreak\r\nand more", "line\nbreak\r\nand more"],
  ["Ünïcödé ✓ 日本", "Ünïcödé ✓ 日本"],
  ["", ""],
];

const csv = (res: { text: string }) => parse(res.text, { relax_column_count: false }) as string[][];

async function exported(path: string, client = call) {
  const res = await client("GET", `/projects/${project}/exports/${path}`);
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="export-test-[a-z-]+-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.csv"$/);
  expect(res.text.endsWith("\r\n")).toBe(true);
  return csv(res);
}

beforeAll(async () => {
  t = await createTestDb();
  const mine = await createOrgWithApiKey(t.db);
  organizationId = mine.org.id;
  call = restClient(t.db, mine.apiKey);
  other = restClient(t.db, (await createOrgWithApiKey(t.db)).apiKey);
  project = await createProjectOverRest(call, "Export test!");
});
afterAll(() => t.drop());

describe("GET /projects/{projectId}/exports/app-users.csv", () => {
  let users: Awaited<ReturnType<typeof createAppUserOverRest>>[];
  beforeAll(async () => {
    users = [];
    for (const [i, [value]] of HOSTILE.entries()) {
      users.push(await createAppUserOverRest(call, project, i === 0 ? "=cmd|' /C calc'!A0" : `user-${i}`, { note: value || "-", plan: i % 2 ? "pro" : "free" }));
    }
    // One referral, so that hasReferrals selects someone.
    await trackOverRest(call, project, users[1]!, "referee-of-user-1");
  });

  it("writes every user with the chosen attributes as columns, quoted and neutralised, read back equal", async () => {
    const rows = await exported("app-users.csv?attributes=note&attributes=plan&attributes=missing");
    expect(rows[0]).toEqual([
      "uniqueId",
      "clientProvidedId",
      "referralCode",
      "status",
      "totalReferralsGiven",
      "totalReferralsReceived",
      "successfulReferrals",
      "firstSeenAt",
      "lastSeenAt",
      "createdAt",
      "note",
      "plan",
      "missing",
    ]);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byId.size).toBe(HOSTILE.length + 1);
    for (const [i, [value, written]] of HOSTILE.entries()) {
      const row = byId.get(users[i]!.uniqueId)!;
      expect(row[1]).toBe(i === 0 ? "'=cmd|' /C calc'!A0" : `user-${i}`);
      expect(row[2]).toBe(users[i]!.referralCode);
      expect(row.slice(10)).toEqual([value ? written : "'-", i % 2 ? "pro" : "free", ""]);
    }
    const referrer = byId.get(users[1]!.uniqueId)!;
    expect(referrer.slice(3, 7)).toEqual(["Active", "1", "0", "0"]);
    expect(referrer[9]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The referee, created by the tracking call, has no attributes: empty cells.
    expect(rows.find((r) => r[1] === "referee-of-user-1")!.slice(10)).toEqual(["", "", ""]);
  });

  it("applies the list's filters, and a header alone when nothing matches", async () => {
    expect((await exported("app-users.csv?hasReferrals=true")).slice(1).map((r) => r[1])).toEqual(["user-1"]);
    expect((await exported("app-users.csv?search=USER-1")).slice(1).map((r) => r[1]).sort()).toEqual(["referee-of-user-1", "user-1", "user-10"]);
    expect((await exported(`app-users.csv?search=${users[2]!.referralCode}`)).slice(1).map((r) => r[1])).toEqual(["user-2"]);
    expect(await exported("app-users.csv?search=%25")).toHaveLength(1);
  });

  it("applies the attribute filter exactly, hostile values included, with the chosen columns read back", async () => {
    const pro = await exported("app-users.csv?attributeKey=plan&attributeValue=pro&attributes=plan&attributes=note");
    expect(pro[0]!.slice(10)).toEqual(["plan", "note"]);
    expect(pro.slice(1).map((r) => r[1]).sort()).toEqual(HOSTILE.flatMap((_, i) => (i % 2 ? [`user-${i}`] : [])).sort());
    expect(pro.slice(1).every((r) => r[10] === "pro")).toBe(true);
    for (const [i, [value, written]] of HOSTILE.entries()) {
      if (!value) continue;
      const rows = await exported(`app-users.csv?attributeKey=note&attributeValue=${encodeURIComponent(value)}&attributes=note`);
      expect(rows.slice(1), JSON.stringify(value)).toEqual([[users[i]!.uniqueId, ...rows[1]!.slice(1, 10), written]]);
    }
    expect(await exported("app-users.csv?attributeKey=plan&attributeValue=PRO")).toHaveLength(1);
  });

  it("reads a project larger than a batch in full, each user once, oldest first, ties by id", async () => {
    const big = await createProjectOverRest(call, "Export test big");
    const count = EXPORT_BATCH_ROWS * 2 + 7;
    // Half the users share one creation instant: the keyset must break the tie by id.
    await t.db.$executeRaw`
      INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "createdAt", "updatedAt")
      SELECT md5(${big} || n)::uuid::text, ${big}, 'bulk-' || n, lpad(n::text, 6, '0'),
        CASE WHEN n % 2 = 0 THEN TIMESTAMP '2026-01-01 00:00:00' ELSE TIMESTAMP '2026-01-01 00:00:00' + n * INTERVAL '1 second' END, now()
      FROM generate_series(1, ${count}::int) AS n`;
    const res = await call("GET", `/projects/${big}/exports/app-users.csv`);
    const rows = csv(res).slice(1);
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((r) => r[0])).size).toBe(count);
    const keys = rows.map((r) => `${r[9]} ${r[0]}`);
    expect(keys).toEqual([...keys].sort());
  });

  it("refuses bad filters with a problem naming them", async () => {
    expectProblem(await call("GET", `/projects/${project}/exports/app-users.csv?hasReferrals=maybe`), 400, ["hasReferrals"]);
    const many = Array.from({ length: 51 }, (_, i) => `attributes=k${i}`).join("&");
    expectProblem(await call("GET", `/projects/${project}/exports/app-users.csv?${many}`), 400, ["attributes"]);
    expectProblem(await call("GET", `/projects/${project}/exports/app-users.csv?attributes=${"k".repeat(101)}`), 400, ["attributes.0"]);
    expectProblem(await call("GET", `/projects/${project}/exports/app-users.csv?attributeKey=plan`), 400, ["attributeValue"]);
    expectProblem(await call("GET", `/projects/${project}/exports/app-users.csv?attributeValue=pro`), 400, ["attributeKey"]);
    expectProblem(await call("GET", `/projects/${project}/exports/app-users.csv?attributeKey=plan&attributeValue=${"v".repeat(1001)}`), 400, ["attributeValue"]);
  });
});

describe("GET /projects/{projectId}/exports/referrals.csv and deliveries.csv", () => {
  let tracked: { trackingId: string; referee: string }[];
  beforeAll(async () => {
    const referrer = await createAppUserOverRest(call, project, "referrer,\"x\"");
    tracked = [];
    for (const referee of ["r-one", "=r-two", "r-three"]) tracked.push({ ...(await trackOverRest(call, project, referrer, referee, "purchase")), referee });
    const reward = await call("POST", `/projects/${project}/referrals/reward`, { body: { ReferralTrackingId: tracked[0]!.trackingId, EventName: "purchase" } });
    expect(reward.json).toMatchObject({ rewardClaimed: true });
    const mismatch = await call("POST", `/projects/${project}/referrals/reward`, { body: { ReferralTrackingId: tracked[1]!.trackingId, EventName: "other" } });
    expect(mismatch.status).toBe(200);
    await t.db.referralTracking.update({ where: { id: tracked[2]!.trackingId }, data: { status: "Failed", failureReason: "expired" } });

    const campaign = await t.db.campaign.findUniqueOrThrow({ where: { projectId: project } });
    const hook = await t.db.webhook.create({
      data: { projectId: project, campaignId: campaign.id, name: "=Billing, \"main\"", url: "https://billing.example.com/hook", secretEncrypted: "x", secretHint: "x" },
    });
    // With its item's parties, as the reward's outbox row carries them.
    const parties = await t.db.referralTracking.findUniqueOrThrow({ where: { id: tracked[0]!.trackingId }, select: { referrerId: true, refereeId: true } });
    await t.db.delivery.create({
      data: { projectId: project, webhookId: hook.id, trackingId: tracked[0]!.trackingId, ...parties, eventName: "purchase", status: "Failed", attemptCount: 5, failure: "exhausted", lastError: "HTTP 503\nService, unavailable", lastHttpStatus: 503 },
    });
    await t.db.delivery.create({ data: { projectId: project, webhookId: hook.id, trackingId: null, eventName: "referloop.test", status: "Succeeded", attemptCount: 1 } });
  });

  it("writes the referrals by status then age, with both parties' client ids", async () => {
    const rows = await exported("referrals.csv");
    expect(rows[0]).toEqual(["trackingId", "status", "referrerId", "refereeId", "referralCode", "rewardEventName", "failureReason", "rewardClaimed", "rewardClaimedAt", "createdAt"]);
    const mine = rows.slice(1).filter((r) => r[2] === 'referrer,"x"');
    expect(mine.map((r) => [r[0], r[1], r[3], r[5], r[6], r[7]])).toEqual([
      [tracked[1]!.trackingId, "Pending", "'=r-two", "purchase", "", "false"],
      [tracked[0]!.trackingId, "Completed", "r-one", "purchase", "", "true"],
      [tracked[2]!.trackingId, "Failed", "r-three", "purchase", "expired", "false"],
    ]);
    expect(mine[1]![8]).toMatch(/Z$/);
    expect((await exported("referrals.csv?status=completed")).slice(1).map((r) => r[0])).toEqual([tracked[0]!.trackingId]);
    expectProblem(await call("GET", `/projects/${project}/exports/referrals.csv?status=Done`), 400, ["status"]);
  });

  it("writes the deliveries the support filter selects", async () => {
    const rows = await exported("deliveries.csv");
    expect(rows[0]).toEqual([
      "deliveryId",
      "webhookId",
      "webhookName",
      "trackingId",
      "referrerId",
      "refereeId",
      "event",
      "status",
      "attempts",
      "lastAttemptAt",
      "lastHttpStatus",
      "lastError",
      "failure",
      "createdAt",
    ]);
    expect(rows.slice(1).map((r) => [r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[10], r[11], r[12]])).toEqual([
      [`'=Billing, "main"`, tracked[0]!.trackingId, 'referrer,"x"', "r-one", "purchase", "Failed", "5", "503", "HTTP 503\nService, unavailable", "exhausted"],
      [`'=Billing, "main"`, "", "", "", "referloop.test", "Succeeded", "1", "", "", ""],
    ]);
    expect((await exported("deliveries.csv?status=succeeded")).slice(1).map((r) => r[6])).toEqual(["referloop.test"]);
    expect((await exported("deliveries.csv?search=r-one")).slice(1).map((r) => r[3])).toEqual([tracked[0]!.trackingId]);
    expect(await exported("deliveries.csv?from=2026-01-02T00:00:00Z&to=2026-01-03T00:00:00Z")).toHaveLength(1);
    expectProblem(await call("GET", `/projects/${project}/exports/deliveries.csv?from=2026-01-03T00:00:00Z&to=2026-01-02T00:00:00Z`), 400, ["from"]);
    expectProblem(await call("GET", `/projects/${project}/exports/deliveries.csv?status=Sent`), 400, ["status"]);
  });
});

describe("GET /projects/{projectId}/exports/referrals.csv, more than a batch", () => {
  it("reads each status in full across batches, by status then age, ties by id, erased parties empty", async () => {
    const big = await createProjectOverRest(call, "Export test referrals big");
    const campaign = await t.db.campaign.findUniqueOrThrow({ where: { projectId: big } });
    // Three referrers, so the parties repeat within every batch; the third is erased below.
    await t.db.$executeRaw`
      INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt")
      SELECT ${big} || '-u' || n, ${big}, 'referrer-' || n, 'REF' || n, now() FROM generate_series(0, 2) AS n`;
    const counts = { Pending: EXPORT_BATCH_ROWS + 3, Completed: EXPORT_BATCH_ROWS + 2, Failed: 5, Revoked: 2 };
    // Written Failed first and in no order of time; half of them share one creation instant, so the
    // keyset must break ties by id. Every fourth has a referee (referrer-1).
    await t.db.$executeRaw`
      INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode", "status", "failureReason", "revokedAt", "createdAt", "updatedAt")
      SELECT md5(${big} || n)::uuid::text, ${big}, ${campaign.id}, ${big} || '-u' || (n % 3), CASE WHEN n % 4 = 0 THEN ${big} || '-u1' END, 'REF0',
        (CASE WHEN n <= ${counts.Failed} THEN 'Failed' WHEN n <= ${counts.Failed + counts.Completed} THEN 'Completed'
          WHEN n <= ${counts.Failed + counts.Completed + counts.Revoked} THEN 'Revoked' ELSE 'Pending' END)::"TrackingStatus",
        CASE WHEN n <= ${counts.Failed} THEN 'expired' END,
        CASE WHEN n > ${counts.Failed + counts.Completed} AND n <= ${counts.Failed + counts.Completed + counts.Revoked} THEN now() END,
        TIMESTAMP '2026-01-01 00:00:00' + (CASE WHEN n % 2 = 0 THEN 0 ELSE (n * 7919) % 10007 END) * INTERVAL '1 second', now()
      FROM generate_series(1, ${counts.Failed + counts.Completed + counts.Revoked + counts.Pending}::int) AS n`;
    await t.db.appUser.delete({ where: { id: `${big}-u2` } });

    const rows = csv(await call("GET", `/projects/${big}/exports/referrals.csv`)).slice(1);
    expect(rows).toHaveLength(counts.Pending + counts.Completed + counts.Failed + counts.Revoked);
    expect(new Set(rows.map((r) => r[0])).size).toBe(rows.length);
    const statuses = ["Pending", "Completed", "Failed", "Revoked"];
    const keys = rows.map((r) => `${statuses.indexOf(r[1]!)} ${r[9]} ${r[0]}`);
    expect(keys).toEqual([...keys].sort());
    for (const status of statuses) expect(rows.filter((r) => r[1] === status)).toHaveLength(counts[status as keyof typeof counts]);
    expect(new Set(rows.map((r) => r[2]))).toEqual(new Set(["referrer-0", "referrer-1", ""]));
    expect(new Set(rows.map((r) => r[3]))).toEqual(new Set(["referrer-1", ""]));

    const completed = csv(await call("GET", `/projects/${big}/exports/referrals.csv?status=completed`)).slice(1);
    expect(completed).toEqual(rows.filter((r) => r[1] === "Completed"));
  });
});

describe("access", () => {
  it("answers 404 for another organisation's project, as for an unknown one", async () => {
    for (const file of ["app-users.csv", "referrals.csv", "deliveries.csv"]) {
      const theirs = await other("GET", `/projects/${project}/exports/${file}`);
      expectProblem(theirs, 404);
      expect(theirs.json.detail).toBe((await other("GET", `/projects/00000000-0000-0000-0000-000000000000/exports/${file}`)).json.detail);
    }
    expectProblem(await call("GET", `/projects/${project}/exports/everything.csv`), 404);
  });

  it("counts exports against the organisation's hourly quota", async () => {
    const key = (await createOrgWithApiKey(t.db)).apiKey;
    const limited = restClient(t.db, key, { config: testConfig({ RATE_LIMIT_EXPORTS_PER_HOUR: "2" }) });
    const own = await createProjectOverRest(limited, "Quota");
    expect((await limited("GET", `/projects/${own}/exports/app-users.csv`)).status).toBe(200);
    expect((await limited("GET", `/projects/${own}/exports/referrals.csv`)).status).toBe(200);
    const refused = await limited("GET", `/projects/${own}/exports/deliveries.csv`);
    expectProblem(refused, 429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(organizationId).toBeTruthy();
  });
});
