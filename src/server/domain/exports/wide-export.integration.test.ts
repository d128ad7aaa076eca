import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject } from "@/test/fixtures";
import { exportAppUsers } from "./export-app-users";
import { EXPORT_CHUNK_BYTES } from "./keyset-csv";

/*
 * The app users' export with wide rows (1,000 users, 50 attributes of 400 characters each, about 20 KB
 * of CSV a row): the file is exactly the rows, and it is written by size, in chunks of about
 * EXPORT_CHUNK_BYTES, the first of them handed out before the last rows are read.
 */

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.drop();
});

const USERS = 1_000;
const KEYS = Array.from({ length: 50 }, (_, i) => `attr${i}`);

async function wideProject() {
  const { org, project } = await createOrgWithProject(t.db);
  // Each value distinct per user and key, with a comma and a quote so that quoting is exercised.
  await t.db.$executeRaw`
    INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "attributes", "createdAt", "updatedAt")
    SELECT md5(${project.id} || n)::uuid::text, ${project.id}, 'user-' || n, lpad(n::text, 6, '0'),
      (SELECT jsonb_object_agg('attr' || k, 'v' || n || '-' || k || ', "q" ' || repeat(md5(n::text || k), 12)) FROM generate_series(0, 49) AS k),
      TIMESTAMP '2026-01-01 00:00:00' + n * INTERVAL '1 second', now()
    FROM generate_series(1, ${USERS}::int) AS n`;
  return { organizationId: org.id, projectId: project.id };
}

describe("an export of wide rows", () => {
  it("writes every row exactly, in chunks of about 1 MB, the first handed out before the last rows are read", async () => {
    const { organizationId, projectId } = await wideProject();
    const { chunks } = await exportAppUsers(t.db, organizationId, projectId, { attributes: KEYS });
    const received: Buffer[] = [];
    let lateId: string | null = null;
    for await (const chunk of chunks) {
      received.push(Buffer.from(chunk));
      // Once the header and the first rows are out, a user sorting last is added: it is in the file only
      // if the last rows were read after the first chunk was handed out.
      if (received.length === 2) {
        const late = await t.db.appUser.create({
          data: { projectId, clientProvidedId: "late", referralCode: "LATE01", attributes: { attr0: "late" }, createdAt: new Date("2027-01-01T00:00:00Z") },
        });
        lateId = late.id;
      }
    }
    const records = parse(Buffer.concat(received).toString("utf8")) as string[][];
    const [header, ...rows] = records;
    expect(header!.slice(-KEYS.length)).toEqual(KEYS);
    expect(rows).toHaveLength(USERS + 1);
    expect(rows.at(-1)![0]).toBe(lateId);

    const expected = await t.db.appUser.findMany({ where: { projectId, clientProvidedId: { not: "late" } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(rows.slice(0, USERS).map((r) => [r[0], ...r.slice(-KEYS.length)])).toEqual(
      expected.map((u) => [u.id, ...KEYS.map((k) => (u.attributes as Record<string, string>)[k])]),
    );

    // Written by size: many chunks, none much past EXPORT_CHUNK_BYTES (a batch is sized by the widest row read before it).
    const widest = Math.max(...Buffer.concat(received.slice(1)).toString("utf8").split("\r\n").map((line) => Buffer.byteLength(line) + 2));
    const body = received.slice(1);
    expect(body.length).toBeGreaterThan(10);
    for (const chunk of body) expect(chunk.length).toBeLessThanOrEqual(EXPORT_CHUNK_BYTES + widest);
  });
});
