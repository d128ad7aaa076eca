import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";

const doc = buildOpenApiDocument("http://localhost:3000") as any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("OpenAPI document", () => {
  it("passes an OpenAPI 3.1 validator", async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("declares OpenAPI 3.1.1 and version v1", () => {
    expect(doc.openapi).toBe("3.1.1");
    expect(doc.info.version).toBe("v1");
    expect(doc.servers[0].url).toBe("http://localhost:3000/api/v1");
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("gives every operation its real success status and problem errors", () => {
    const projects = doc.paths["/public/projects"];
    expect(Object.keys(projects.post.responses)).toContain("201");
    expect(projects.post.responses["200"]).toBeUndefined();
    expect(projects.post.responses["201"].content["application/json"].schema.$ref).toBe("#/components/schemas/ProjectCreatedDto");
    expect(projects.get.responses["200"].content["application/json"].schema.items.$ref).toBe("#/components/schemas/ProjectDto");
    const del = doc.paths["/public/projects/{projectId}"].delete;
    expect(del.responses["200"].content).toBeUndefined();
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) { // eslint-disable-line @typescript-eslint/no-explicit-any
      for (const [method, op] of Object.entries<any>(item)) { // eslint-disable-line @typescript-eslint/no-explicit-any
        expect(op.responses["400"].content["application/problem+json"].schema.$ref, `${method} ${path}`).toBe("#/components/schemas/Problem");
        expect(op.responses["401"], `${method} ${path}`).toBeDefined();
        if (path.includes("{")) expect(op.responses["404"], `${method} ${path}`).toBeDefined();
        // Every API-key operation names the key roles that may call it; read-only keys exactly the GETs.
        if (path.startsWith("/sdk/")) continue;
        expect(op.responses["403"], `${method} ${path}`).toBeDefined();
        expect(op.description, `${method} ${path}`).toMatch(/Permission `[\w.]+` \(.+\): keys with the role `owner`/);
        expect(op.description.includes("`readOnly`"), `${method} ${path}`).toBe(method === "get");
        expect(op.security, `${method} ${path}`).toBeDefined();
      }
    }
    expect(Object.keys(doc.components.schemas).some((n) => n.startsWith("error."))).toBe(false);
  });

  it("documents the client-library operations with their own credentials and tag", () => {
    expect(doc.components.securitySchemes.ProjectKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Service-ProjectSecret" });
    expect(doc.components.securitySchemes.ProjectSecret).toMatchObject({ type: "apiKey", in: "header", name: "x-project-secret-key" });
    const sdk = Object.keys(doc.paths).filter((p) => p.startsWith("/sdk/"));
    expect(sdk.sort()).toEqual(["/sdk/init-app-user", "/sdk/new-user-experience", "/sdk/track-referral", "/sdk/track-reward-event"]);
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
});
