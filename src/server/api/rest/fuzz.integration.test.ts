import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/server/api/openapi/document";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { documentChecker } from "@/test/openapi-responses";
import { createOrgWithApiKey, restClient, type RestClient } from "@/test/rest";

/*
 * Schema-driven fuzzing of the REST surface: for every operation of the OpenAPI document, requests
 * built from its schemas and then broken one part at a time (path ids of this organisation, of another
 * one, and malformed; query values out of range, of the wrong type, in the wrong case; body fields with
 * edge values, wrong types, bad text; whole bodies that are not objects, not JSON or too large), as
 * two organisations. Every answer must be what the document says (no 5xx, problems as problem+json,
 * a declared status, a body that validates), and nothing of the other organisation may leak or change.
 *
 * Seeded and small by default (FUZZ_CASES cases per operation, FUZZ_SEED); FUZZ_RANDOM sets how many
 * seeded random values join each field's edge values. A bigger pass, every case and more random ones:
 *   FUZZ_CASES=100000 FUZZ_RANDOM=25 FUZZ_SEED=7 npx vitest run src/server/api/fuzz.integration.test.ts
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- schemas and bodies are walked as plain JSON */

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const CASES = Number(process.env.FUZZ_CASES ?? 28);
const RANDOM = Number(process.env.FUZZ_RANDOM ?? 3);
const doc = buildOpenApiDocument("http://localhost") as any;
const check = documentChecker(doc);

let t: TestDb;
type Org = { call: RestClient; ids: Record<string, string>; secrets: string[] };
let mine: Org;
let theirs: Org;
let theirsBefore: string;

/** An organisation with a project holding one of everything, over REST like any client. */
async function organisation(label: string): Promise<Org> {
  const { apiKey } = await createOrgWithApiKey(t.db);
  // Unlimited: the fuzzer sends far more than a minute's quota, and a 429 would hide the answer.
  const call = restClient(t.db, apiKey, { config: testConfig({ RATE_LIMIT_API_KEY_PER_MINUTE: "0" }) });
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, { body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.json;
  };
  const project = await ok("POST", "/projects", { name: `${label} shop`, referralRedirectLink: "https://shop.example.com/join" });
  const projectId = project.uniqueId;
  const referrer = await ok("POST", `/projects/${projectId}/users`, { clientProvidedId: `${label}-referrer`, attributes: { name: label } });
  const track = await ok("POST", `/projects/${projectId}/referrals/track`, { referralCode: referrer.referralCode, refereeId: `${label}-referee` });
  const hook = await ok("POST", `/projects/${projectId}/webhooks/${project.campaignId}`, { name: `${label} hook`, url: "https://hooks.example.com/x" });
  return {
    call,
    ids: {
      projectId,
      campaignId: project.campaignId,
      uniqueId: referrer.uniqueId,
      clientProvidedId: referrer.clientProvidedId,
      referralTrackingId: track.referralTrackingId,
      webhookId: hook.id,
      logId: hook.id, // no attempt exists yet: any id of theirs names no log of ours
      referralCode: referrer.referralCode,
      referrerId: referrer.clientProvidedId,
      refereeId: `${label}-referee`,
    },
    secrets: [project.projectSecret, hook.secret],
  };
}

/** Everything another organisation's requests must never change. */
const snapshotOf = async (org: Org) =>
  JSON.stringify(await t.db.project.findMany({ where: { id: org.ids.projectId }, include: { appUsers: true, trackings: true, webhooks: true, campaign: true } }));

beforeAll(async () => {
  t = await createTestDb();
  mine = await organisation("mine");
  theirs = await organisation("theirs");
  theirsBefore = await snapshotOf(theirs);
});
afterAll(() => t?.drop());

/** Percent-encoding that also sends an unpaired surrogate, as the (invalid) UTF-8 a careless client would. */
const encode = (value: string) =>
  Array.from(value, (ch) => (/\p{Cs}/u.test(ch) ? "%ED%A0%80" : encodeURIComponent(ch))).join("");

const resolve = (schema: any): any => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").pop()]) : (schema ?? {}));
const sample = <T>(arb: fc.Arbitrary<T>, n: number, seed: number) => fc.sample(arb, { seed, numRuns: n });

const BAD_TEXT = ["", " ", "\u0000", "a\u0000b", "\ud800", "x\udfff", "😀", "é", "%00", "%ZZ", "../..", "null", "<script>", "'; DROP TABLE x; --"];

/** Edge values for a schema: its boundaries, wrong types, bad text, and a few seeded random values. */
function edgeValues(raw: any, seed: number): unknown[] {
  const schema = resolve(raw.anyOf?.find((s: any) => s.type !== "null") ?? raw);
  const values: unknown[] = [null, [], {}, true, 0, -1, 1.5, 1e308, "", " "];
  if (schema.type === "string" || schema.enum) {
    values.push(...BAD_TEXT);
    if (schema.maxLength) values.push("x".repeat(schema.maxLength), "x".repeat(schema.maxLength + 1), "é".repeat(schema.maxLength + 1));
    for (const value of schema.enum ?? []) values.push(value, String(value).toUpperCase(), `${value} `);
    // Valid ISO 8601 but outside what the database stores (year 0000 once answered 500), and offsets across the bounds.
    if (schema.format === "date-time") values.push("0000-01-01T00:00:00Z", "0000-02-29T12:00:00+01:00", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59.999-00:01", "10000-01-01T00:00:00Z", "2026-02-30T00:00:00Z");
    if (schema.format === "uri") values.push("https://", "ftp://x.example", "https://user:pw@x.example", "https://x.example/?q=1#f", "http://127.0.0.1:1/");
    values.push(...sample(fc.string({ unit: "binary", maxLength: 40 }), RANDOM, seed));
  }
  if (schema.type === "integer" || schema.type === "number") {
    for (const bound of [schema.minimum, schema.maximum]) if (typeof bound === "number") values.push(bound, bound - 1, bound + 1);
    values.push("1", "abc", 2 ** 31, 2 ** 53 + 1, -0);
  }
  if (schema.type === "boolean") values.push("true", "false", 1, "yes");
  if (schema.type === "object" || schema.additionalProperties) {
    values.push({ "\u0000": "x" }, Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])), { k: 1 }, { "": "x" });
  }
  if (schema.type === "array") values.push(["not a url"], Array.from({ length: 60 }, () => "https://x.example"), [null]);
  values.push(...sample(fc.jsonValue({ maxDepth: 3 }), RANDOM, seed + 1));
  return values;
}

type Case = { method: string; path: string; query?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> };

/** The cases for one operation: a valid request, then one part broken at a time. */
function casesFor(method: string, template: string, op: any, seed: number): Case[] {
  const params: any[] = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === "path");
  const queryParams = params.filter((p) => p.in === "query");
  const own = (org: Org) => Object.fromEntries(pathParams.map((p) => [p.name, org.ids[p.name] ?? "unknown"]));
  const fill = (values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name) => encode(values[name] ?? "x"));
  const media = op.requestBody?.content["application/json"];
  const example = media ? structuredClone(media.example) : undefined;
  const base: Case = { method: method.toUpperCase(), path: fill(own(mine)), ...(media ? { body: withOwnIds(example) } : {}) };
  const cases: Case[] = [base, { ...base, path: fill(own(theirs)) }, { ...base, headers: { accept: "text/plain" } }];

  for (const p of pathParams) {
    for (const value of ["", " ", "a".repeat(101), "00000000-0000-0000-0000-000000000000", "%00", "%ED%A0%80", "%2F..%2F", "😀", theirs.ids[p.name] ?? "x"]) {
      const raw = template.replace(/\{(\w+)\}/g, (_, name) => (name === p.name ? (value.startsWith("%") ? value : encode(value)) : encode(mine.ids[name] ?? "x")));
      cases.push({ ...base, path: raw });
    }
  }
  for (const p of queryParams) {
    const pascal = p.name.charAt(0).toUpperCase() + p.name.slice(1);
    for (const [i, value] of edgeValues(p.schema, seed).entries()) {
      if (value !== null && typeof value === "object") continue;
      cases.push({ ...base, query: `${i % 2 ? pascal : p.name}=${encode(String(value))}` });
    }
    cases.push({ ...base, query: `${p.name}=1&${p.name}=2` }, { ...base, query: `${p.name}=%00` });
  }
  if (media) {
    const schema = resolve(media.schema);
    for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
      for (const value of edgeValues(property, seed)) cases.push({ ...base, body: { ...(base.body as object), [name]: value } });
      const nested = resolve(property);
      for (const [inner, innerSchema] of Object.entries<any>(nested.properties ?? {})) {
        for (const value of edgeValues(innerSchema, seed).slice(0, 12)) cases.push({ ...base, body: { ...(base.body as object), [name]: { [inner]: value } } });
      }
    }
    const json = { "content-type": "application/json" };
    cases.push(
      { ...base, body: undefined },
      { ...base, body: [] },
      { ...base, body: "text" },
      { ...base, body: null },
      { ...base, body: 42 },
      { ...base, body: {} },
      { ...base, rawBody: "{", headers: json },
      { ...base, rawBody: "\u0000", headers: json },
      { ...base, rawBody: `{"a":${"[".repeat(50_000)}${"]".repeat(50_000)}}`, headers: json },
      { ...base, rawBody: JSON.stringify({ ...(base.body as object), pad: "x".repeat(300 * 1024) }), headers: json },
      { ...base, rawBody: JSON.stringify(base.body), headers: { "content-type": "text/plain" } },
      { ...base, rawBody: JSON.stringify(base.body), headers: { "content-type": "application/vnd.referloop+json; charset=utf-8" } },
      { ...base, headers: { "idempotency-key": "k".repeat(300) } },
      { ...base, headers: { "idempotency-key": " " } },
      ...sample(fc.jsonValue({ maxDepth: 4 }), RANDOM, seed + 2).map((body) => ({ ...base, body })),
      ...sample(fc.dictionary(fc.constantFrom(...Object.keys(schema.properties ?? { x: 1 })), fc.jsonValue({ maxDepth: 2 })), RANDOM * 3, seed + 3).map((body) => ({ ...base, body })),
    );
  }
  for (const other of ["PATCH", "HEAD", "OPTIONS"]) cases.push({ ...base, method: other });
  return cases;
}

/** The example body with this organisation's ids where the example names the story's ids. */
function withOwnIds(example: any): unknown {
  if (!example || typeof example !== "object") return example;
  const out = { ...example };
  for (const key of ["referralTrackingId", "referralCode", "referrerId", "refereeId"]) if (key in out) out[key] = mine.ids[key];
  return out;
}

/** Seeded shuffle, so a small run still reaches every kind of case across seeds. */
function pick<T>(items: T[], n: number, seed: number): T[] {
  const [first, ...rest] = items;
  const order = sample(fc.shuffledSubarray(rest, { minLength: Math.min(rest.length, n - 1), maxLength: Math.min(rest.length, n - 1) }), 1, seed)[0] ?? [];
  return [first!, ...order];
}

describe("fuzzing every operation of the document, as two organisations", () => {
  const operations = Object.entries<Record<string, any>>(doc.paths).flatMap(([template, item]) =>
    Object.entries<any>(item).map(([method, op]) => ({ method, template, op })),
  );
  // Destructive operations on this organisation's own resources last, so the rest still finds them.
  const destructive = (method: string) => method === "delete";
  const ordered = [...operations.filter((o) => !destructive(o.method)), ...operations.filter((o) => destructive(o.method))];

  it(`answers every request as the document says (seed ${SEED}, ${CASES} cases per operation)`, { timeout: 600_000 }, async () => {
    const contradictions: string[] = [];
    const leaks: string[] = [];
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const [index, { method, template, op }] of ordered.entries()) {
      const seed = SEED + index;
      for (const c of pick(casesFor(method, template, op, seed), CASES, seed)) {
        const url = `/api/v1${c.path}${c.query ? `?${c.query}` : ""}`;
        const bodiless = c.method === "GET" || c.method === "HEAD";
        const res = await mine.call(c.method, url, {
          ...(bodiless ? {} : c.rawBody !== undefined ? { rawBody: c.rawBody } : c.body !== undefined ? { body: c.body } : {}),
          headers: c.headers,
        });
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const found = check({ method: c.method, url: `http://localhost${url}`, status: res.status, headers: res.headers, text: res.text });
        contradictions.push(...found.map((f) => `${f}  <- ${JSON.stringify(c).slice(0, 300)}`));
        if (res.status < 300) {
          for (const secret of theirs.secrets) if (res.text.includes(secret)) leaks.push(`${c.method} ${url}: another organisation's secret`);
          for (const id of ["projectId", "uniqueId", "webhookId", "clientProvidedId"]) {
            if (res.text.includes(theirs.ids[id]!)) leaks.push(`${c.method} ${url}: another organisation's ${id}`);
          }
        }
      }
    }
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(", ");
    console.info(`[fuzz] ${sent} requests over ${operations.length} operations, seed ${SEED} (${byStatus})`);
    expect(contradictions).toEqual([]);
    expect(leaks).toEqual([]);
    expect(await snapshotOf(theirs)).toBe(theirsBefore);
    expect(sent).toBeGreaterThan(operations.length * Math.min(CASES, 20));
  });
});
