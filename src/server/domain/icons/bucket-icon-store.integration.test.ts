import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, type IconBucket } from "@/server/config";
import { bucketIconStore, databaseIconStore, iconStore } from "@/server/domain/icons/icon-store";
import { IMMUTABLE, serveIcon } from "@/server/http/serve-icon";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithApiKey, restClient, type RestClient } from "@/test/rest";

// A real S3-compatible server in this process. s3rver checks the access key of a Signature V4 request
// but not the signature itself, so the signing is aws4fetch's (used against S3 and R2 alike).
const BUCKET = "referloop-icons";
const ORIGIN = "https://go.referloop.example";
let s3: S3rver;
let dir: string;
let bucketEnv: Record<string, string>;
let t: TestDb;
let call: RestClient;
let projectId: string;

const png = async (side = 64) =>
  new Uint8Array(await sharp({ create: { width: side, height: side, channels: 3, background: "#c8285a" } }).png().toBuffer());

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "referloop-s3-"));
  s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await s3.run();
  bucketEnv = {
    ICON_BUCKET_URL: `http://127.0.0.1:${port}/${BUCKET}/`,
    ICON_BUCKET_ACCESS_KEY_ID: "S3RVER",
    ICON_BUCKET_SECRET_ACCESS_KEY: "S3RVER",
  };
  t = await createTestDb();
  const org = await createOrgWithApiKey(t.db);
  call = restClient(t.db, org.apiKey, { config: testConfig({ REFERLOOP_PUBLIC_URL: ORIGIN, ...bucketEnv }) });
  projectId = (await call("POST", "/projects", { body: { name: "App", appType: "Mobile", app: { name: "Acme" } } })).json.uniqueId;
});
afterAll(async () => {
  await t?.drop();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

const bucket = (): IconBucket => testConfig(bucketEnv).iconBucket!;

describe("app icons in an S3-compatible bucket (ICON_BUCKET_URL)", () => {
  it("stores an upload in the bucket, not the database, and serves it at the same content-addressed URL", async () => {
    const image = await png();
    const res = await call("PUT", `/projects/${projectId}/app/icon`, { rawBody: image, headers: { "content-type": "image/png" } });
    expect(res.status, res.text).toBe(200);
    const url: string = res.json.app.iconUrl;
    expect(url).toMatch(new RegExp(`^${ORIGIN}/icons/[0-9a-f]{64}\\.png$`));
    expect(await t.db.appIcon.count()).toBe(0);

    const sha256 = url.split("/icons/")[1]!.split(".")[0]!;
    expect(await bucketIconStore(bucket()).load(sha256)).toMatchObject({ sha256, contentType: "image/png", width: 64, height: 64 });

    const served = await serveIcon(url.split("/icons/")[1]!, null, iconStore(t.db, testConfig(bucketEnv)));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(image))).toBe(true);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe(IMMUTABLE);
    // The database store does not have it: the bucket served it.
    expect((await serveIcon(url.split("/icons/")[1]!, null, iconStore(t.db, testConfig()))).status).toBe(404);
    // The same bytes again: the same URL.
    expect((await call("PUT", `/projects/${projectId}/app/icon`, { rawBody: image, headers: { "content-type": "image/png" } })).json.app.iconUrl).toBe(url);
  });

  it("still serves icons stored in the database before the bucket was configured", async () => {
    const image = await png(32);
    const before = restClient(t.db, (await createOrgWithApiKey(t.db)).apiKey, { config: testConfig({ REFERLOOP_PUBLIC_URL: ORIGIN }) });
    const mobile = (await before("POST", "/projects", { body: { name: "Older", appType: "Mobile" } })).json.uniqueId;
    const url: string = (await before("PUT", `/projects/${mobile}/app/icon`, { rawBody: image, headers: { "content-type": "image/png" } })).json.app.iconUrl;
    expect(await t.db.appIcon.count()).toBe(1);
    const served = await serveIcon(url.split("/icons/")[1]!, null, iconStore(t.db, testConfig(bucketEnv)));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(image))).toBe(true);
  });

  it("reads an absent icon as null, and fails loudly with credentials the bucket does not know", async () => {
    const store = bucketIconStore(bucket());
    expect(await store.load("0".repeat(64))).toBeNull();
    const wrong = bucketIconStore({ ...bucket(), accessKeyId: "NOT-A-KEY" });
    const icon = { sha256: "1".repeat(64), contentType: "image/png" as const, bytes: await png(), width: 64, height: 64 };
    await expect(wrong.save(icon)).rejects.toThrow(/icon bucket answered 403 to PUT/);
    await expect(wrong.load("0".repeat(64))).rejects.toThrow(/403/);
    expect(await store.load(icon.sha256)).toBeNull();
  });

  it("is configured all at once: a bucket URL without credentials, or not naming a bucket, stops the start", () => {
    const missing = (() => {
      try {
        testConfig({ ICON_BUCKET_URL: bucketEnv.ICON_BUCKET_URL! });
      } catch (error) {
        return error;
      }
    })();
    expect(missing).toBeInstanceOf(ConfigError);
    expect((missing as ConfigError).issues[0]).toMatch(/ICON_BUCKET_ACCESS_KEY_ID and ICON_BUCKET_SECRET_ACCESS_KEY/);
    expect(() => testConfig({ ...bucketEnv, ICON_BUCKET_URL: "https://s3.example.com" })).toThrow(/ICON_BUCKET_URL: must be an http\(s\) URL naming the bucket/);
    expect(testConfig().iconBucket).toBeUndefined();
    expect(bucket()).toEqual({ url: bucketEnv.ICON_BUCKET_URL!.replace(/\/$/, ""), region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER" });
  });

  it("npm run admin -- copy-icons-to-bucket copies the database's icons, verified, and can then remove them", async () => {
    if (!t.url) return; // embedded run: one process per PGlite folder
    const admin = (args: string[], env: Record<string, string>) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { env: { ...process.env, DATABASE_URL: t.url!, ...env } });
    const sides = [16, 24, 40];
    const icons = await Promise.all(sides.map(async (side) => ({ side, bytes: await png(side) })));
    const database = databaseIconStore(t.db);
    const hashes = icons.map(({ bytes }) => createHash("sha256").update(bytes).digest("hex"));
    for (const [i, { side, bytes }] of icons.entries()) await database.save({ sha256: hashes[i]!, contentType: "image/png", bytes, width: side, height: side });
    const inDatabase = await t.db.appIcon.count(); // with the earlier test's icon

    await expect(admin(["copy-icons-to-bucket"], {})).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("ICON_BUCKET_URL is not set") });
    const copied = JSON.parse((await admin(["copy-icons-to-bucket"], bucketEnv)).stdout);
    expect(copied).toEqual({ total: inDatabase, copied: inDatabase, removedFromDatabase: 0 });
    expect(await t.db.appIcon.count()).toBe(inDatabase);
    for (const [i, sha256] of hashes.entries()) {
      const stored = await bucketIconStore(bucket()).load(sha256);
      expect(Buffer.from(stored!.bytes).equals(Buffer.from(icons[i]!.bytes))).toBe(true);
      expect(stored).toMatchObject({ contentType: "image/png", width: sides[i], height: sides[i] });
    }

    const removed = JSON.parse((await admin(["copy-icons-to-bucket", "--remove-from-database"], bucketEnv)).stdout);
    expect(removed).toEqual({ total: inDatabase, copied: inDatabase, removedFromDatabase: inDatabase });
    expect(await t.db.appIcon.count()).toBe(0);
    // Still served, now from the bucket alone.
    for (const sha256 of hashes) expect((await serveIcon(`${sha256}.png`, null, iconStore(t.db, testConfig(bucketEnv)))).status).toBe(200);
    expect(JSON.parse((await admin(["copy-icons-to-bucket"], bucketEnv)).stdout)).toEqual({ total: 0, copied: 0, removedFromDatabase: 0 });
  }, 180_000); // starts the admin command (a cold tsx start) twice: a busy VM needed over a minute
});
