import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/root";
import type { Meta } from "@/server/api/trpc/procedures";
import { cappedKeyRole, can, deniedReason, grantableKeyRoles, PERMISSION_NAMES, PERMISSIONS, type Permission, type Principal } from "./permissions";

/**
 * Procedures of the account itself (or public), acting for no organisation, and the client-library
 * endpoints (a project key, not a role, authorises them): no permission applies.
 */
const ACCOUNT_PROCEDURES = new Set(["organizations.create", "invitations.get", "invitations.accept"]);
const isAccountProcedure = (path: string) => path.startsWith("accounts.") || path.startsWith("sdk.") || ACCOUNT_PROCEDURES.has(path);

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>).map(([path, p]) => ({ path, meta: p._def.meta }));

describe("the permission table", () => {
  it("names a permission on every organisation procedure (a missing one would refuse everyone)", () => {
    const missing = procedures.filter((p) => !isAccountProcedure(p.path) && !p.meta?.permission).map((p) => p.path);
    expect(missing).toEqual([]);
    const misplaced = procedures.filter((p) => isAccountProcedure(p.path) && p.meta?.permission).map((p) => p.path);
    expect(misplaced).toEqual([]);
    for (const p of procedures) if (p.meta?.permission) expect(PERMISSIONS).toHaveProperty([p.meta.permission]);
  });

  it("lets read-only keys call exactly the REST operations that are GETs", () => {
    const rest = procedures.filter((p) => p.meta?.openapi && !p.meta.sdkCredential);
    expect(rest.length).toBeGreaterThan(20);
    for (const { path, meta } of rest) {
      expect(can("readOnly", meta!.permission!), `${meta!.openapi!.method} ${meta!.openapi!.path} (${path})`).toBe(meta!.openapi!.method === "GET");
    }
  });

  it("gives owners everything, viewers reads and delivery retries only", () => {
    const all = Object.keys(PERMISSIONS) as Permission[];
    expect(all.filter((p) => !can("owner", p))).toEqual([]);
    expect(all.filter((p) => can("viewer", p))).toEqual([
      "projects.read",
      "appUsers.read",
      "campaigns.read",
      "referrals.read",
      "reviews.read",
      "webhooks.read",
      "deliveries.retry",
      "inboundHooks.read",
      "apiKeys.read",
      "members.read",
    ]);
    expect(all.filter((p) => can("owner", p) && !can("member", p))).toEqual([
      "projects.delete",
      "projects.rotateSecret",
      "inboundHooks.rotateToken",
      "apiKeys.deleteAny",
      "members.invite",
      "members.changeRole",
      "members.remove",
      "organization.rename",
      "audit.read",
    ]);
    expect(can(null, "projects.read")).toBe(false);
  });

  it("says who may do what a control is disabled for", () => {
    expect(deniedReason("projects.delete")).toBe("Only owners can delete projects.");
    expect(deniedReason("webhooks.write")).toBe("Only owners and members can create, edit and delete webhooks.");
    expect(deniedReason("deliveries.retry")).toBe("Only owners, members and viewers can retry failed webhook deliveries.");
  });

  it("never lets a key outrank its creator", () => {
    expect(grantableKeyRoles("owner")).toEqual(["owner", "member", "readOnly"]);
    expect(grantableKeyRoles("member")).toEqual(["member", "readOnly"]);
    expect(grantableKeyRoles("viewer")).toEqual([]);
    expect(grantableKeyRoles(null)).toEqual([]);
    expect(cappedKeyRole("owner", "member")).toBe("member");
    expect(cappedKeyRole("member", "viewer")).toBe("readOnly");
    expect(cappedKeyRole("readOnly", "owner")).toBe("readOnly");
    expect(cappedKeyRole("member", "owner")).toBe("member");
  });

  it("is printed in docs/accounts.md as it is enforced", () => {
    const columns: Principal[] = ["owner", "member", "viewer", "readOnly"];
    const rows = PERMISSION_NAMES.map(
      (n) => `| \`${n}\` | ${PERMISSIONS[n].label} | ${columns.map((c) => (can(c, n) ? "✓" : "")).join(" | ")} |`,
    );
    const table = ["| Permission | Allows | Owner | Member | Viewer | Read-only key |", "|---|---|:-:|:-:|:-:|:-:|", ...rows].join("\n");
    expect(readFileSync("docs/accounts.md", "utf8")).toContain(table);
  });
});
