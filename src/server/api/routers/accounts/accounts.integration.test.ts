import type { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemFromError } from "@/server/api/problem";
import { createSessionContext } from "@/server/api/context";
import { createCaller } from "@/server/api/root";
import { verifyCredentials } from "@/server/domain/accounts/verify-credentials";
import { testServices } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.drop());

const anonymous = async () => createCaller(await createSessionContext(testServices(t.db), new Headers(), null, null));
const as = async (userId: string, organizationId: string | null = null) =>
  createCaller(await createSessionContext(testServices(t.db), new Headers(), userId, organizationId));

async function signUp(email: string, organizationName = "Org of " + email) {
  return (await anonymous()).accounts.signUp({ email, password: "correct horse", organizationName });
}

describe("accounts and organisations", () => {
  it("signs up an owner of a new organisation, with a memory-hard password hash", async () => {
    const { userId, organizationId } = await signUp("Ada@Example.com");
    const user = await t.db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.email).toBe("ada@example.com");
    expect(user.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(user.passwordHash).not.toContain("correct horse");
    const me = await (await as(userId)).accounts.me();
    expect(me).toMatchObject({ activeOrganizationId: organizationId, role: "owner" });
    expect(await verifyCredentials(t.db, "ADA@example.com", "correct horse")).toMatchObject({ id: userId });
    expect(await verifyCredentials(t.db, "ada@example.com", "wrong horse")).toBeNull();
    expect(await verifyCredentials(t.db, "nobody@example.com", "correct horse")).toBeNull();
  });

  it("refuses a second account with the same e-mail, and bad sign-up input", async () => {
    await signUp("dup@example.com");
    await expect(signUp("DUP@example.com")).rejects.toMatchObject({ code: "CONFLICT" });
    const caller = await anonymous();
    await expect(caller.accounts.signUp({ email: "not-an-email", password: "correct horse", organizationName: "X" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.accounts.signUp({ email: "short@example.com", password: "short", organizationName: "X" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await t.db.user.count({ where: { email: "short@example.com" } })).toBe(0);
    // The password rules of the one policy, each reported on the password field.
    for (const [email, password, message] of [
      ["spaces@example.com", " ".repeat(12), "must not be only spaces"],
      ["common@example.com", "Password123", "is one of the most common passwords: choose one that is harder to guess"],
      ["alexander.hamilton@example.com", "Alexander.Hamilton", "must not be your e-mail address or the part before the @"],
    ]) {
      const refused = caller.accounts.signUp({ email: email!, password: password!, organizationName: "X" });
      await expect(refused).rejects.toMatchObject({ code: "BAD_REQUEST" });
      const problem = problemFromError((await refused.catch((e: unknown) => e)) as TRPCError);
      expect(problem.errors).toEqual([{ field: "password", rule: "custom", message }]);
      expect(await t.db.user.count({ where: { email: email! } })).toBe(0);
    }
  });

  it("lets an owner add an existing account and remove members, but never the last owner", async () => {
    const owner = await signUp("owner@example.com");
    const member = await signUp("member@example.com");
    const ownerCaller = await as(owner.userId);
    await expect(ownerCaller.organizations.addMember({ email: "ghost@example.com", role: "member" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await ownerCaller.organizations.addMember({ email: "MEMBER@example.com", role: "member" });
    await expect(ownerCaller.organizations.addMember({ email: "member@example.com", role: "member" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await ownerCaller.organizations.members()).map((m) => [m.email, m.role])).toEqual([
      ["owner@example.com", "owner"],
      ["member@example.com", "member"],
    ]);

    // The member acts in the owner's organisation once they pick it, but cannot manage members.
    const memberCaller = await as(member.userId, owner.organizationId);
    expect((await memberCaller.accounts.me()).activeOrganizationId).toBe(owner.organizationId);
    await expect(memberCaller.organizations.removeMember({ userId: owner.userId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(ownerCaller.organizations.removeMember({ userId: owner.userId })).rejects.toMatchObject({ code: "CONFLICT" });
    await ownerCaller.organizations.removeMember({ userId: member.userId });

    // A pick the user no longer belongs to falls back to their own organisation.
    expect((await (await as(member.userId, owner.organizationId)).accounts.me()).activeOrganizationId).toBe(member.organizationId);
  });

  it("lets a user belong to several organisations and switch between them", async () => {
    const { userId, organizationId } = await signUp("multi@example.com");
    const second = await (await as(userId)).organizations.create({ name: "Second" });
    const inSecond = await as(userId, second.id);
    await inSecond.projects.create({ name: "Only in second", appType: "Web" });
    expect((await inSecond.projects.list()).map((p) => p.name)).toEqual(["Only in second"]);
    expect(await (await as(userId, organizationId)).projects.list()).toEqual([]);
    expect((await inSecond.accounts.me()).organizations.map((o) => o.name)).toEqual(["Org of multi@example.com", "Second"]);
  });

  it("does not accept a session for a deleted account", async () => {
    const { userId } = await signUp("gone@example.com");
    await t.db.user.delete({ where: { id: userId } });
    await expect((await as(userId)).accounts.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
