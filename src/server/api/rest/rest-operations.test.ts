import { describe, expect, it } from "vitest";
import { operationsAt, queryInput, REST_OPERATIONS } from "./rest-operations";

describe("REST operations", () => {
  it("finds a path's operations with its parameters as sent, and none for a path no operation has", () => {
    const found = operationsAt("/public/projects/p%2F1/users/by-user-id/team%2Fa");
    expect(found.map((f) => [f.operation.method, f.operation.procedure])).toEqual([["GET", expect.any(String)]]);
    expect(found[0]!.parameters).toEqual({ projectId: "p%2F1", clientProvidedId: "team%2Fa" });
    expect(operationsAt("/public/projects/p1/nothing-here")).toEqual([]);
    // A parameter is never empty.
    expect(operationsAt("/public/projects//users")).toEqual([]);
    expect(operationsAt("/public/projects/p1/users").map((f) => f.operation.method).sort()).toEqual(["GET", "POST"]);
  });

  it("finds every operation at its own template, with or without a trailing slash, and nothing a segment longer", () => {
    for (const operation of REST_OPERATIONS) {
      const path = operation.template.replace(/\{(\w+)\}/g, "x1");
      for (const variant of [path, `${path}/`]) expect(operationsAt(variant).map((f) => f.operation)).toContain(operation);
      expect(operationsAt(`${path}/extra`).map((f) => f.operation)).not.toContain(operation);
    }
  });

  it("reads each operation's kind, status, secrecy and input from its procedure", () => {
    const op = (method: string, template: string) => REST_OPERATIONS.find((o) => o.method === method && o.template === template)!;
    expect(op("POST", "/public/projects")).toMatchObject({ type: "mutation", status: 201, input: { none: false, listFields: ["allowedOrigins"] } });
    expect(op("GET", "/public/projects").input).toEqual({ none: true });
    expect(op("GET", "/public/projects/{projectId}/users")).toMatchObject({ type: "query", status: 200, secret: false, input: { none: false, listFields: [] } });
    expect(REST_OPERATIONS.some((o) => o.secret)).toBe(true);
  });

  it("gives a query's repeated names and list fields as lists, other names as values", () => {
    const query = new URLSearchParams("page=2&tag=a&tag=b&origin=https%3A%2F%2Fa.example");
    expect(queryInput(query, ["origin"])).toEqual({ page: "2", tag: ["a", "b"], origin: ["https://a.example"] });
  });
});
