import { createTRPCClient, httpLink } from "@trpc/client";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionContext } from "@/server/api/trpc/context";
import { appRouter, type AppRouter } from "@/server/api/root";
import { MAX_ICON_BYTES } from "@/lib/sniff-image";
import { iconStore } from "@/server/domain/icons/icon-store";
import { IMMUTABLE, serveIcon } from "@/server/http/serve-icon";
import { testConfig, testServices } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithApiKey, expectProblem, restClient, type RestClient } from "@/test/rest";

let t: TestDb;
let call: RestClient;
let orgId: string;
let other: RestClient;
let projectId: string;

const ORIGIN = "https://go.referloop.example";
const png = async (width = 64, height = 64) =>
  new Uint8Array(await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer());

beforeAll(async () => {
  t = await createTestDb();
  const org = await createOrgWithApiKey(t.db);
  orgId = org.org.id;
  call = restClient(t.db, org.apiKey, { config: testConfig({ REFERLOOP_PUBLIC_URL: ORIGIN }) });
  other = restClient(t.db, (await createOrgWithApiKey(t.db)).apiKey);
  const created = await call("POST", "/projects", { body: { name: "App", appType: "Mobile", app: { name: "Acme" } } });
  projectId = created.json.uniqueId;
});
afterAll(() => t.drop());

const upload = (bytes: Uint8Array, headers: Record<string, string> = { "content-type": "image/png" }, client = call) =>
  client("PUT", `/projects/${projectId}/app/icon`, { rawBody: bytes, headers });
const served = (url: string, ifNoneMatch: string | null = null) => serveIcon(url.split("/icons/")[1]!, ifNoneMatch, iconStore(t.db, testConfig()));
const unchanged = async (before: { icons: number; iconUrl: string | null }) => {
  expect(await t.db.appIcon.count()).toBe(before.icons);
  expect((await t.db.project.findUniqueOrThrow({ where: { id: projectId } })).iconUrl).toBe(before.iconUrl);
};
const state = async () => ({ icons: await t.db.appIcon.count(), iconUrl: (await t.db.project.findUniqueOrThrow({ where: { id: projectId } })).iconUrl });

describe("PUT /projects/{projectId}/app/icon", () => {
  it("stores a PNG sent as the body, sets app.iconUrl to its content-addressed URL, and serves it with long cache headers", async () => {
    const image = await png();
    const res = await upload(image);
    expect(res.status, res.text).toBe(200);
    expect(res.json.app).toMatchObject({ name: "Acme", iconUrl: expect.stringMatching(new RegExp(`^${ORIGIN}/icons/[0-9a-f]{64}\\.png$`)) });
    expect((await call("GET", `/projects/${projectId}`)).json.app.iconUrl).toBe(res.json.app.iconUrl);

    const icon = await served(res.json.app.iconUrl);
    expect(icon.status).toBe(200);
    expect(Buffer.from(await icon.arrayBuffer()).equals(Buffer.from(image))).toBe(true);
    expect(icon.headers.get("content-type")).toBe("image/png");
    expect(icon.headers.get("cache-control")).toBe(IMMUTABLE);
    expect(icon.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(icon.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = icon.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await served(res.json.app.iconUrl, etag)).status).toBe(304);
    // The same bytes again: one stored icon, the same URL.
    expect((await upload(image)).json.app.iconUrl).toBe(res.json.app.iconUrl);
    expect(await t.db.appIcon.count()).toBe(1);
  });

  it("judges the type by the bytes, not the Content-Type: a JPEG sent as octet-stream is served as image/jpeg", async () => {
    const jpeg = new Uint8Array(await sharp({ create: { width: 48, height: 48, channels: 3, background: "#336699" } }).jpeg().toBuffer());
    const res = await upload(jpeg, { "content-type": "application/octet-stream" });
    expect(res.status, res.text).toBe(200);
    expect(res.json.app.iconUrl).toMatch(/\.jpg$/);
    expect((await served(res.json.app.iconUrl)).headers.get("content-type")).toBe("image/jpeg");
    // A URL naming another type than the stored one serves nothing.
    expect((await served(res.json.app.iconUrl.replace(/\.jpg$/, ".png"))).status).toBe(404);
  });

  it("refuses an icon over 10 MB with a 413 saying so, declared or streamed, and stores nothing", async () => {
    const before = await state();
    const big = new Uint8Array(MAX_ICON_BYTES + 1);
    big.set(await png());
    const declared: Record<string, string>[] = [{ "content-type": "image/png" }, { "content-type": "image/png", "content-length": String(big.length) }];
    for (const headers of declared) {
      const res = await upload(big, headers);
      expectProblem(res, 413);
      expect(res.json.detail).toBe("The icon is larger than 10 MB.");
    }
    await unchanged(before);
  });

  it("takes exactly 10 MB (the limit is inclusive): the content check then decides", async () => {
    const padded = new Uint8Array(MAX_ICON_BYTES);
    padded.set(await png(32, 32)); // a PNG with trailing bytes is still a PNG by its header
    expect((await upload(padded)).status).toBe(200);
  });

  it("refuses a renamed text file with a 400 naming the icon and the rule, and stores nothing", async () => {
    const before = await state();
    const res = await upload(new TextEncoder().encode("This is icon.png, honestly.\n"), { "content-type": "image/png" });
    expectProblem(res, 400, [["icon", "not_an_image"]]);
    expect(res.json.detail).toBe("icon: The icon must be a PNG, JPEG or WebP image.");
    expectProblem(await upload(await png(8, 8)), 400, [["icon", "bad_dimensions"]]);
    expectProblem(await upload(new Uint8Array(), {}), 400, [["icon", "not_an_image"]]);
    await unchanged(before);
  });

  it("refuses a multipart form with a 415 (the bytes are the body), a Web project with a 400, another organisation's with a 404", async () => {
    const form = new FormData();
    form.append("icon", new Blob([await png()]), "icon.png");
    const multipart = new Request("http://x", { method: "POST", body: form });
    const res = await call("PUT", `/projects/${projectId}/app/icon`, {
      rawBody: new Uint8Array(await multipart.arrayBuffer()),
      headers: { "content-type": multipart.headers.get("content-type")! },
    });
    expectProblem(res, 415);
    expect(res.json.detail).toMatch(/bytes as the body/);

    const web = await call("POST", "/projects", { body: { name: "Web", appType: "Web" } });
    expectProblem(await call("PUT", `/projects/${web.json.uniqueId}/app/icon`, { rawBody: await png(), headers: { "content-type": "image/png" } }), 400, [
      ["appType", "mobile_only"],
    ]);
    expectProblem(await upload(await png(), { "content-type": "image/png" }, other), 404);
    expectProblem(await upload(await png(), { "content-type": "image/png" }, (m, p, o) => call(m, p, { ...o, apiKey: null })), 401);
  });

  it("keeps JSON bodies to their own rules on the other endpoints", async () => {
    const res = await call("PUT", `/projects/${projectId}`, { rawBody: await png(), headers: { "content-type": "image/png" } });
    expectProblem(res, 415);
  });
});

describe("the dashboard's icon upload (tRPC, multipart form data)", () => {
  it("stores the icon through the same procedure", async () => {
    const user = await t.db.user.create({ data: { email: `icon-${Date.now()}@example.com`, passwordHash: "x" } });
    await t.db.membership.create({ data: { userId: user.id, organizationId: orgId, role: "owner" } });
    const session = await t.db.session.create({ data: { userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) } });
    const services = testServices(t.db, { config: testConfig({ REFERLOOP_PUBLIC_URL: ORIGIN }) });
    // The tRPC client the dashboard uses for non-JSON input, against the handler the route runs.
    const client = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: "http://localhost/api/trpc",
          fetch: (url, init) =>
            fetchRequestHandler({
              endpoint: "/api/trpc",
              req: new Request(url, init as RequestInit),
              router: appRouter,
              createContext: ({ req }) => createSessionContext(services, req.headers, { userId: user.id, sessionId: session.id }, orgId),
            }),
        }),
      ],
    });
    const image = await png(128, 128);
    const form = new FormData();
    form.append("projectId", projectId);
    form.append("icon", new File([image], "renamed.txt", { type: "text/plain" }));
    const project = await client.projects.setIcon.mutate(form);
    expect(project.app?.iconUrl).toMatch(new RegExp(`^${ORIGIN}/icons/[0-9a-f]{64}\\.png$`));

    const text = new FormData();
    text.append("projectId", projectId);
    text.append("icon", new File(["not an image"], "icon.png", { type: "image/png" }));
    await expect(client.projects.setIcon.mutate(text)).rejects.toMatchObject({ data: { code: "BAD_REQUEST" }, message: "The icon must be a PNG, JPEG or WebP image." });
  });
});
