import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemberRole } from "@/generated/prisma/enums";
import { signUp } from "@/server/domain/accounts/sign-up";
import { createTestDb, type TestDb } from "@/test/db";
import { uniqueName } from "@/test/names";
import { restClient } from "@/test/rest";
import { callerFor, signInForTest } from "@/test/sessions";

/*
 * Issue 34, item 1: a member creating API keys while an owner removes them, or lowers their role.
 * Membership serialises the two (lockMembership, createApiKey): whatever the interleaving, the removal
 * succeeds and no key of the member works afterwards, and after a demotion no key of theirs acts above
 * the new role. Each key is tried over the REST path, as the server authenticates it. Many rounds, each
 * with many creations in flight against the one change.
 */

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.drop());

const PASSWORD = "correct horse";
const ROUNDS = 8;
const CREATIONS = 8;

async function person(role: MemberRole | null, organizationId?: string) {
  const email = `${uniqueName("race")}@example.com`.toLowerCase();
  const { user, organization } = await signUp(t.db, { email, password: PASSWORD, organizationName: `Org of ${email}`, name: null });
  if (organizationId && role) await t.db.membership.create({ data: { userId: user.id, organizationId, role } });
  const session = await signInForTest(t.db, email, PASSWORD);
  return { userId: user.id, organizationId: organizationId ?? organization.id, session };
}

/** An owner and, in their organisation, someone of `role`, each with a dashboard session. */
async function pair(role: MemberRole) {
  const owner = await person(null);
  const other = await person(role, owner.organizationId);
  return {
    ...owner,
    asOwner: await callerFor(t.db, owner.session, owner.organizationId),
    target: other,
    asTarget: await callerFor(t.db, other.session, owner.organizationId),
  };
}

/** What a key may do over REST: read (GET /projects) and write (POST /projects, a member's operation). */
async function powers(key: string) {
  const call = restClient(t.db, key);
  const read = await call("GET", "/projects");
  const write = await call("POST", "/projects", { body: { name: "Made by a stale key", referralRedirectLink: "https://shop.example.com/join" } });
  return { read: read.status, write: write.status };
}

/** `count` key creations of `role` by the caller, all in flight at once: the keys that were made. */
function createMany(as: Awaited<ReturnType<typeof callerFor>>, role: "owner" | "member", count: number) {
  return Array.from({ length: count }, (_, i) =>
    as.apiKeys.create({ name: `racing ${i}`, role }).then(
      (k) => k.key,
      (error: { code?: string }) => {
        // Refused is fine (the member was gone, or lowered, by then); nothing else is.
        expect(error.code).toBe("FORBIDDEN");
        return null;
      },
    ),
  );
}

describe("API key creation racing a member's removal or role change", () => {
  it("a removal always succeeds and revokes every key the member created, also those created meanwhile", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { asOwner, target, organizationId } = await pair("member");
      const shown = (await asOwner.organizations.removalPreview({ userId: target.userId })).apiKeys.map((k) => k.id);
      const asTarget = await callerFor(t.db, target.session, organizationId);
      const creations = createMany(asTarget, "member", CREATIONS);
      // The removal goes in among the creations.
      const removal = asOwner.organizations.removeMember({ userId: target.userId, revokeApiKeyIds: shown });
      const [removed, ...keys] = await Promise.all([removal, ...creations]);
      const made = keys.filter((k): k is string => k !== null);

      expect(await t.db.membership.count({ where: { organizationId, userId: target.userId } })).toBe(0);
      expect(await t.db.apiKey.count({ where: { organizationId, createdById: target.userId } })).toBe(0);
      // Every key revoked before the removal answered is in its answer, and those not shown are named.
      expect(removed.unconfirmedApiKeys.map((k) => k.id).sort()).toEqual([...removed.revokedApiKeyIds].sort());
      for (const key of made) expect(await powers(key)).toEqual({ read: 401, write: 401 });
    }
  });

  it("a demotion lowers every key of the member, also those created meanwhile (member to viewer)", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { asOwner, target, organizationId } = await pair("member");
      const asTarget = await callerFor(t.db, target.session, organizationId);
      const creations = createMany(asTarget, "member", CREATIONS);
      const demotion = asOwner.organizations.changeRole({ userId: target.userId, role: "viewer" });
      const [, ...keys] = await Promise.all([demotion, ...creations]);
      const made = keys.filter((k): k is string => k !== null);

      const stored = await t.db.apiKey.findMany({ where: { organizationId, createdById: target.userId }, select: { role: true } });
      expect(stored.length).toBe(made.length);
      expect(stored.every((k) => k.role === "readOnly")).toBe(true);
      for (const key of made) expect(await powers(key)).toEqual({ read: 200, write: 403 });
    }
  });

  it("a demotion lowers every key of the owner, also those created meanwhile (owner to member)", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // Two owners: the one demoted keeps creating owner keys.
      const { asOwner, target, organizationId } = await pair("owner");
      const asTarget = await callerFor(t.db, target.session, organizationId);
      const creations = createMany(asTarget, "owner", CREATIONS);
      const demotion = asOwner.organizations.changeRole({ userId: target.userId, role: "member" });
      const [, ...keys] = await Promise.all([demotion, ...creations]);
      const made = keys.filter((k): k is string => k !== null);

      const stored = await t.db.apiKey.findMany({ where: { organizationId, createdById: target.userId }, select: { role: true } });
      expect(stored.length).toBe(made.length);
      expect(stored.every((k) => k.role === "member")).toBe(true);
      // An owner's operation (rotating the inbound hook token needs a project: deleting one is simpler) is refused.
      for (const key of made) {
        const call = restClient(t.db, key);
        const project = await call("POST", "/projects", { body: { name: "Doomed", referralRedirectLink: "https://shop.example.com/join" } });
        expect(project.status, project.text).toBe(201);
        expect((await call("DELETE", `/projects/${project.json.uniqueId}`)).status).toBe(403);
      }
    }
  });

  it("two owners removing (or demoting) each other at once: one wins, the other is refused, never a deadlock", async () => {
    for (let round = 0; round < 4; round++) {
      const { asOwner, asTarget, userId, target, organizationId } = await pair("owner");
      const demote = round % 2 === 1;
      const outcomes = await Promise.allSettled(
        demote
          ? [asOwner.organizations.changeRole({ userId: target.userId, role: "member" }), asTarget.organizations.changeRole({ userId, role: "member" })]
          : [asOwner.organizations.removeMember({ userId: target.userId, revokeApiKeyIds: [] }), asTarget.organizations.removeMember({ userId, revokeApiKeyIds: [] })],
      );
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: "CONFLICT" });
      expect(await t.db.membership.count({ where: { organizationId, role: "owner" } })).toBe(1);
    }
  });
});
