import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { PROBLEM_TYPES, problemType, type ProblemSlug } from "@/server/http/problem";
import { buildOpenApiDocument } from "./document";

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is walked as plain JSON */
const doc = buildOpenApiDocument("http://localhost:3000") as any;
const operations = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
  Object.entries<any>(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, path, method, op })),
);
const schemaOf = (name: string) => doc.components.schemas[name];

/** ajv over the document's components, the way a client validating against it would. */
function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
  // One compile per distinct schema: the same one recurs in each JSON media type and response (compiling
  // all of them again took this test past its 30 s on a busy VM).
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema: unknown) => {
    const source = JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/');
    let validate = compiled.get(source);
    if (!validate) compiled.set(source, (validate = ajv.compile(JSON.parse(source))));
    return validate;
  };
}

describe("OpenAPI document", () => {
  it("passes an OpenAPI 3.1 validator", async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("declares OpenAPI 3.1.1, version v1, and its tags with descriptions", () => {
    expect(doc.openapi).toBe("3.1.1");
    expect(doc.info.version).toBe("v1");
    expect(doc.servers[0].url).toBe("http://localhost:3000/api/v1");
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "http", scheme: "bearer" });
    const tags = doc.tags.map((t: any) => t.name);
    for (const tag of doc.tags) expect(tag.description.length, tag.name).toBeGreaterThan(20);
    for (const { name, op } of operations) for (const tag of op.tags) expect(tags, name).toContain(tag);
  });

  it("gives every operation a summary, a description, its real success status and every problem it can answer", () => {
    const projects = doc.paths["/public/projects"];
    expect(Object.keys(projects.post.responses)).toContain("201");
    expect(projects.post.responses["200"]).toBeUndefined();
    expect(projects.post.responses["201"].content["application/json"].schema.$ref).toBe("#/components/schemas/ProjectCreatedDto");
    expect(doc.paths["/public/projects/{projectId}"].delete.responses["200"].content).toBeUndefined();
    for (const { name, path, op } of operations) {
      expect(op.summary, name).toBeTruthy();
      expect(op.description, name).toBeTruthy();
      const statuses = Object.keys(op.responses);
      for (const status of ["400", "401", "429", "500"]) {
        expect(op.responses[status]?.content["application/problem+json"].schema.$ref, `${name} ${status}`).toBe("#/components/schemas/Problem");
      }
      // Every API-key operation names the key roles that may call it; read-only keys exactly the GETs.
      if (!path.startsWith("/sdk/")) {
        expect(op.responses["403"], name).toBeDefined();
        expect(op.description, name).toMatch(/Permission `[\w.]+` \(.+\): keys with the role `owner`/);
        expect(op.description.includes("`readOnly`"), name).toBe(name.startsWith("GET "));
      }
      if (path.includes("{")) expect(statuses, name).toContain("404");
      if (op.requestBody) expect(statuses, name).toEqual(expect.arrayContaining(["413", "415"]));
      if (op.parameters?.some((p: any) => p.name === "Idempotency-Key")) expect(statuses, name).toEqual(expect.arrayContaining(["409", "422"]));
      expect(op.responses["429"].headers["Retry-After"], name).toBeDefined();
      expect(op.security, name).toBeDefined();
    }
    expect(Object.keys(doc.components.schemas).some((n) => n.startsWith("error."))).toBe(false);
  });

  it("documents the client-library operations with their own credentials and tag", () => {
    expect(doc.components.securitySchemes.ProjectKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Service-ProjectSecret" });
    expect(doc.components.securitySchemes.ProjectSecret).toMatchObject({ type: "apiKey", in: "header", name: "x-project-secret-key" });
    const sdk = Object.keys(doc.paths).filter((p) => p.startsWith("/sdk/"));
    expect(sdk.sort()).toEqual(["/sdk/init-app-user", "/sdk/new-user-experience", "/sdk/referral-summary", "/sdk/track-referral", "/sdk/track-reward-event"]);
    for (const path of sdk) {
      const op = doc.paths[path].post;
      expect(op.tags).toEqual(["Client library"]);
      expect(op.security).toEqual([{ [path === "/sdk/track-reward-event" ? "ProjectSecret" : "ProjectKey"]: [] }]);
      expect(op.responses["401"].description).toMatch(/origin|browser/);
    }
    expect(doc.paths["/sdk/track-referral"].post.responses["404"]).toBeDefined();
    expect(doc.paths["/public/projects"].get.security).toEqual([{ ApiKey: [] }]);
    expect(doc.paths["/public/projects/{projectId}/rotate-publishable-key"].post).toBeDefined();
    expect(doc.info.description).toContain("## Client library");
  });

  it("describes the icon upload's body as the image's bytes, with its own 413 and 415", () => {
    const upload = doc.paths["/public/projects/{projectId}/app/icon"].put;
    expect(Object.keys(upload.requestBody.content)).toEqual(["image/png", "image/jpeg", "image/webp"]);
    expect(upload.requestBody.content["image/png"].schema).toEqual({ type: "string", contentMediaType: "image/png" });
    expect(upload.responses["413"].description).toMatch(/larger than 10 MB/);
    expect(upload.responses["415"].description).toMatch(/multipart/);
  });

  it("names every request body and offers it in each JSON media type the API accepts, with an example", () => {
    // The icon upload's body is the image itself (its own test above).
    for (const { name, op } of operations.filter(({ op }) => op.requestBody && !op.requestBody.content["image/png"])) {
      // A rotation's body may be left out (its one field has a default), and a single denial's (its note is optional).
      expect(op.requestBody.required, name).toBe(!/(rotate-secret|reviews\/\{trackingId\}\/deny)$/.test(name));
      expect(Object.keys(op.requestBody.content), name).toEqual(["application/json", "text/json", "application/*+json"]);
      for (const media of Object.values<any>(op.requestBody.content)) {
        expect(media.schema.$ref, name).toMatch(/^#\/components\/schemas\/\w+Request$/);
        expect(media.example, name).toBeDefined();
      }
    }
    expect(schemaOf("CreateProjectRequest").required).toEqual(["name"]);
  });

  it("has a request example (body or parameter) and a response example for every operation", () => {
    for (const { name, op } of operations) {
      const requestExample = op.requestBody || op.parameters?.some((p: any) => p.example !== undefined);
      // Listing projects takes no input at all: there is nothing to show.
      if (name !== "GET /public/projects") expect(requestExample, name).toBeTruthy();
      const responseExamples = Object.values<any>(op.responses).flatMap((r) => Object.values<any>(r.content ?? {})).filter((m) => m.example ?? m.examples);
      expect(responseExamples.length, name).toBeGreaterThan(1);
      const success = Object.entries<any>(op.responses).find(([status]) => status.startsWith("2"))![1];
      // JSON, or a file (text/csv exports): either way with an example.
      const media = success.content?.["application/json"] ?? success.content?.["text/csv"];
      if (success.content) expect(media?.example ?? media?.examples, name).toBeDefined();
    }
    // A denial answers a denial, not the shared reward answer's samples (a granted reward).
    const deny = operations.find(({ name }) => name === "POST /public/projects/{projectId}/reviews/{trackingId}/deny")!.op;
    expect(deny.responses["200"].content["application/json"].example).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "denied_in_review" });
  });

  it("declares what the server enforces: enums, booleans, formats, lengths, patterns and the attributes limit", () => {
    const listUsers = doc.paths["/public/projects/{projectId}/users"].get.parameters;
    const param = (name: string) => listUsers.find((p: any) => p.name === name).schema;
    expect(param("sortBy").enum).toEqual(["createdAt", "firstSeenAt", "lastSeenAt", "clientProvidedId", "successfulReferrals", "totalReferralsGiven"]);
    expect(param("sortOrder").enum).toEqual(["asc", "desc"]);
    expect(param("hasReferrals")).toMatchObject({ type: "boolean" });
    expect(param("hasReferrals").enum).toBeUndefined();
    expect(param("pageSize")).toMatchObject({ minimum: 1, maximum: 100 });
    // The attribute filter's bounds, on the list and on its export.
    const exportParams = doc.paths["/public/projects/{projectId}/exports/app-users.csv"].get.parameters;
    for (const params of [listUsers, exportParams]) {
      const bounds = (name: string) => params.find((p: any) => p.name === name);
      expect(bounds("attributeKey")).toMatchObject({ in: "query", schema: { type: "string", minLength: 1, maxLength: 100 } });
      expect(bounds("attributeValue")).toMatchObject({ in: "query", schema: { type: "string", maxLength: 1000 } });
      expect([bounds("attributeKey").required, bounds("attributeValue").required]).toEqual([undefined, undefined]);
    }
    const referralParams = doc.paths["/public/projects/{projectId}/users/{uniqueId}/referrals"].get.parameters;
    expect(referralParams.find((p: any) => p.name === "status").schema.enum).toEqual(["Pending", "Completed", "Failed", "Revoked"]);
    expect(referralParams.find((p: any) => p.name === "direction").schema.enum).toEqual(["given", "received"]);
    expect(schemaOf("RewardRequest").properties.environment.enum).toEqual(["Sandbox", "Production"]);
    expect(schemaOf("CreateWebhookRequest").properties.environment.enum).toEqual(["Sandbox", "Production", "Both"]);
    expect(schemaOf("UpdateCampaignRequest").properties.attributionModel.enum).toEqual(["first", "last"]);
    expect(schemaOf("CreateAppUserRequest").properties.attributes).toMatchObject({ maxProperties: 50, propertyNames: { minLength: 1, maxLength: 100 } });
    expect(schemaOf("CreateAppUserRequest").properties.clientProvidedId).toMatchObject({ minLength: 1, maxLength: 255, pattern: "\\S" });
    expect(schemaOf("CreateWebhookRequest").properties.secret).toMatchObject({ minLength: expect.any(Number), maxLength: expect.any(Number), pattern: expect.any(String) });
    expect(schemaOf("CreateWebhookRequest").properties.url).toMatchObject({ format: "uri", maxLength: 2048 });
    expect(schemaOf("ProjectDto").properties.uniqueId.format).toBe("uuid");
    expect(schemaOf("ProjectDto").properties.createdAt.format).toBe("date-time");
    expect(schemaOf("ReferralLinkDto").properties.referralLink.format).toBe("uri");
    expect(schemaOf("AppUserDto").properties.referralCode.pattern).toBe("^[A-Za-z0-9]{6}$");
    expect(schemaOf("RewardResponse").properties.reason.enum).toContain("not_first_arrival");
  });

  it("lists the catalogue of problem types", () => {
    expect(schemaOf("Problem").properties.type.oneOf.map((t: any) => t.const)).toEqual(
      Object.keys(PROBLEM_TYPES).map((slug) => problemType(slug as ProblemSlug)),
    );
    for (const slug of Object.keys(PROBLEM_TYPES)) expect(doc.info.description).toContain(problemType(slug as ProblemSlug));
  });

  it("describes the reward delivery as a webhook: body schema and headers", () => {
    const delivery = doc.webhooks.rewardDelivery.post;
    expect(delivery.requestBody.content["application/json"].schema.$ref).toBe("#/components/schemas/RewardDelivery");
    expect(schemaOf("RewardDelivery").required).toEqual(["event", "referrerId", "refereeId", "rewardClaimedAt", "trackingId", "rewardStatus", "projectId", "projectName", "campaignId"]);
    expect(delivery.parameters.map((p: any) => p.name)).toEqual([
      "Authorization",
      "X-Service-Delivery-Id",
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
      "X-Service-Signature",
      "X-Service-Event-Type",
    ]);
  });

  it("describes each event of the catalogue as a webhook, its type in the header and its body's schema", () => {
    for (const [key, type, component] of [
      ["rewardDelivery", "reward.granted", "RewardDelivery"],
      ["rewardRevoked", "reward.revoked", "RewardRevokedDelivery"],
      ["rewardHeld", "reward.held", "RewardHeldDelivery"],
      ["referralTracked", "referral.tracked", "ReferralTrackedDelivery"],
    ]) {
      const op = doc.webhooks[key!].post;
      expect(op.requestBody.content["application/json"].schema.$ref).toBe(`#/components/schemas/${component}`);
      expect(op.parameters.find((p: any) => p.name === "X-Service-Event-Type").schema.const).toBe(type);
      if (key !== "rewardDelivery") expect(schemaOf(component!).properties.type.const).toBe(type);
    }
    expect(schemaOf("WebhookDto").properties.events.items.enum).toEqual(["reward.granted", "reward.revoked", "reward.held", "referral.tracked", "milestone.reached"]);
  });

  it("has examples that validate against their own schemas", () => {
    const compile = validator();
    const checked: string[] = [];
    const check = (where: string, schema: unknown, example: unknown) => {
      const validate = compile(schema);
      expect(validate(example), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
      checked.push(where);
    };
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
      for (const example of schema.examples ?? []) check(`components.schemas.${name}`, schema, example);
    }
    const media = (where: string, content: Record<string, any> = {}) => {
      for (const [type, m] of Object.entries<any>(content)) {
        for (const example of [m.example, ...Object.values<any>(m.examples ?? {}).map((e) => e.value)].filter((e) => e !== undefined)) {
          check(`${where} ${type}`, m.schema, example);
        }
      }
    };
    for (const { name, op } of [...operations, ...Object.entries<any>(doc.webhooks).map(([key, w]) => ({ name: `webhook ${key}`, op: w.post }))]) {
      media(`${name} request`, op.requestBody?.content);
      for (const [status, response] of Object.entries<any>(op.responses)) media(`${name} ${status}`, response.content);
      for (const p of op.parameters ?? []) if (p.example !== undefined) check(`${name} ${p.name}`, p.schema, p.example);
    }
    expect(checked.length).toBeGreaterThan(200);
  });
});
