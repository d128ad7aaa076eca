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
 * with the member's backends creating keys in loops (which used to make every removal answer 409)
 * against the one change.
 */

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.drop());

const PASSWORD = "correct horse";
const ROUNDS = 6;
/** Creation loops in flight against each change. */
const LOOPS = 4;

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

/**
 * `loops` members' backends each creating `role` keys in a loop, as fast as answers come, until one is
 * refused (the member was removed or lowered by then): the keys that were made.
 */
async function createInLoops(as: Awaited<ReturnType<typeof callerFor>>, role: "owner" | "member", loops: number) {
  const made: string[] = [];
  await Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      for (let i = 0; i < 200; i++) {
        try {
          made.push((await as.apiKeys.create({ name: `racing ${loop}.${i}`, role })).key);
        } catch (error) {
          // Refused is the end (the member was gone, or lowered, by then); nothing else may happen.
          expect(error).toMatchObject({ code: "FORBIDDEN" });
          return;
        }
      }
      throw new Error("the member kept creating keys: the change never reached them");
    }),
  );
  return made;
}

/** The change goes in among the creations, a little later each round, so the rounds interleave differently. */
const after = (round: number) => new Promise((resolve) => setTimeout(resolve, (round % 4) * 15));

describe("API key creation racing a member's removal or role change", () => {
  it("a removal always succeeds and revokes every key the member created, also those created meanwhile", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { asOwner, target, organizationId } = await pair("member");
      const shown = (await asOwner.organizations.removalPreview({ userId: target.userId })).apiKeys.map((k) => k.id);
      const asTarget = await callerFor(t.db, target.session, organizationId);
      const creations = createInLoops(asTarget, "member", LOOPS);
      const removal = after(round).then(() => asOwner.organizations.removeMember({ userId: target.userId, revokeApiKeyIds: shown }));
      const [removed, made] = await Promise.all([removal, creations]);

      expect(await t.db.membership.count({ where: { organizationId, userId: target.userId } })).toBe(0);
      expect(await t.db.apiKey.count({ where: { organizationId, createdById: target.userId } })).toBe(0);
      // Every key revoked before the removal answered is in its answer, and those not shown are named.
      expect(removed.unconfirmedApiKeys.map((k) => k.id).sort()).toEqual([...removed.revokedApiKeyIds].sort());
      for (const key of made) expect(await powers(key)).toEqual({ read: 401, write: 401 });
    }
  }, 300_000);

  it("a demotion lowers every key of the member, also those created meanwhile (member to viewer)", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { asOwner, target, organizationId } = await pair("member");
      const asTarget = await callerFor(t.db, target.session, organizationId);
      const creations = createInLoops(asTarget, "member", LOOPS);
      const demotion = after(round).then(() => asOwner.organizations.changeRole({ userId: target.userId, role: "viewer" }));
      const [, made] = await Promise.all([demotion, creations]);

      const stored = await t.db.apiKey.findMany({ where: { organizationId, createdById: target.userId }, select: { role: true } });
      expect(stored.length).toBe(made.length);
      expect(stored.every((k) => k.role === "readOnly")).toBe(true);
      for (const key of made) expect(await powers(key)).toEqual({ read: 200, write: 403 });
    }
  }, 300_000);

  it("a demotion lowers every key of the owner, also those created meanwhile (owner to member)", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // Two owners: the one demoted keeps creating owner keys.
      const { asOwner, target, organizationId } = await pair("owner");
      const project = await asOwner.projects.create({ name: "Kept", appType: "Web" });
      const asTarget = await callerFor(t.db, target.session, organizationId);
      const creations = createInLoops(asTarget, "owner", LOOPS);
      const demotion = after(round).then(() => asOwner.organizations.changeRole({ userId: target.userId, role: "member" }));
      const [, made] = await Promise.all([demotion, creations]);

      const stored = await t.db.apiKey.findMany({ where: { organizationId, createdById: target.userId }, select: { role: true } });
      expect(stored.length).toBe(made.length);
      expect(stored.every((k) => k.role === "member")).toBe(true);
      // An owner's operation (deleting a project) is refused to every one of them; reading still works.
      for (const key of made) {
        const call = restClient(t.db, key);
        expect((await call("DELETE", `/projects/${project.uniqueId}`)).status).toBe(403);
        expect((await call("GET", `/projects/${project.uniqueId}`)).status).toBe(200);
      }
    }
  }, 300_000);

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
      // The loser is no owner any more once it holds the locks.
      expect(refused.reason).toMatchObject({ code: "FORBIDDEN" });
      expect(await t.db.membership.count({ where: { organizationId, role: "owner" } })).toBe(1);
    }
  });

  it("an owner demoted while their request was on its way removes and demotes no one", async () => {
    const { asOwner, asTarget, target, organizationId } = await pair("owner");
    const third = await person("member", organizationId);
    // asTarget's request context says owner; the demotion commits before its change runs.
    await asOwner.organizations.changeRole({ userId: target.userId, role: "member" });
    await expect(asTarget.organizations.removeMember({ userId: third.userId, revokeApiKeyIds: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asTarget.organizations.changeRole({ userId: third.userId, role: "owner" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await t.db.membership.findFirstOrThrow({ where: { organizationId, userId: third.userId } })).toMatchObject({ role: "member" });
  });
});
