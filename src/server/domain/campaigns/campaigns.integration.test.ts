import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultNewUserExperience, defaultReferrerExperience, updateCampaignBody } from "@/lib/schemas/campaigns";
import { readReferrerExperience } from "@/server/domain/campaigns/campaign-config";
import { getCampaign } from "@/server/domain/campaigns/get-campaign";
import { updateCampaign } from "@/server/domain/campaigns/update-campaign";
import { createTestDb, type TestDb } from "@/test/db";
import { domainError } from "@/test/expect";
import { createOrgWithProject } from "@/test/fixtures";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t?.drop());

describe("getCampaign", () => {
  it("returns the project's campaign with its defaults", async () => {
    const f = await createOrgWithProject(t.db);
    expect(await getCampaign(t.db, f.org.id, f.project.id)).toEqual({
      campaignId: f.campaign.id,
      projectId: f.project.id,
      referrerExperience: defaultReferrerExperience,
      newUserExperience: defaultNewUserExperience,
      attributionWindowDays: 30,
      matchWindowMinutes: 120,
      attributionModel: "first",
      rewardRules: { maxRewardsPerReferrer: {}, disposableEmail: "off", sameDevice: "off", holdDays: 0 },
      milestones: [],
      portal: { sections: { totals: true, friends: true, rewards: true, milestones: true }, friendNameAttribute: null },
      revokeOn: { refund: true, dispute: true, trialCancellation: true },
      updatedAt: f.campaign.updatedAt.toISOString(),
    });
  });

  it("is not_found for another organisation's project", async () => {
    const f = await createOrgWithProject(t.db);
    const other = await createOrgWithProject(t.db);
    expect((await domainError(getCampaign(t.db, other.org.id, f.project.id))).kind).toBe("not_found");
    expect((await domainError(updateCampaign(t.db, other.org.id, f.project.id, {}))).kind).toBe("not_found");
  });
});

describe("updateCampaign", () => {
  it("merges field by field and leaves the other section unchanged", async () => {
    const f = await createOrgWithProject(t.db);
    const afterReferrer = await updateCampaign(t.db, f.org.id, f.project.id, {
      referrerExperience: { theme: { themeColor: "#112233" }, modal: { modalTitle: "Bring a friend" } },
    });
    expect(afterReferrer.referrerExperience).toEqual({
      triggerButton: defaultReferrerExperience.triggerButton,
      modal: { ...defaultReferrerExperience.modal, modalTitle: "Bring a friend" },
      theme: { ...defaultReferrerExperience.theme, themeColor: "#112233" },
    });
    expect(afterReferrer.newUserExperience).toEqual(defaultNewUserExperience);

    const afterNewUser = await updateCampaign(t.db, f.org.id, f.project.id, {
      newUserExperience: { promoText: "20% off your first order" },
    });
    expect(afterNewUser.referrerExperience).toEqual(afterReferrer.referrerExperience);
    expect(afterNewUser.newUserExperience).toEqual({ ...defaultNewUserExperience, promoText: "20% off your first order" });
    expect(await getCampaign(t.db, f.org.id, f.project.id)).toEqual(afterNewUser);
  });

  it("treats undefined fields as not sent", async () => {
    const f = await createOrgWithProject(t.db);
    await updateCampaign(t.db, f.org.id, f.project.id, { newUserExperience: { promoText: "Hi" } });
    const after = await updateCampaign(t.db, f.org.id, f.project.id, {
      newUserExperience: { promoText: undefined, promoPosition: "bottom-left" },
    });
    expect(after.newUserExperience).toEqual({ promoText: "Hi", promoPosition: "bottom-left", referrerNameAttribute: "name" });
  });

  it("creates the configuration when the project has none", async () => {
    const f = await createOrgWithProject(t.db);
    await t.db.campaign.delete({ where: { id: f.campaign.id } });
    const created = await updateCampaign(t.db, f.org.id, f.project.id, {
      newUserExperience: { promoPosition: "bottom-center" },
    });
    expect(created.campaignId).not.toBe(f.campaign.id);
    expect(created.referrerExperience).toEqual(defaultReferrerExperience);
    expect(created.newUserExperience.promoPosition).toBe("bottom-center");
    expect(await t.db.campaign.count({ where: { projectId: f.project.id } })).toBe(1);
  });

  it("sets the attribution window within 1..365 days", async () => {
    const f = await createOrgWithProject(t.db);
    expect((await updateCampaign(t.db, f.org.id, f.project.id, { attributionWindowDays: 90 })).attributionWindowDays).toBe(90);
    for (const days of [0, 366, 1.5]) {
      expect(updateCampaignBody.safeParse({ attributionWindowDays: days }).error?.issues[0]?.path).toEqual(["attributionWindowDays"]);
    }
  });

  it("sets the install match window within 1 minute..24 hours, leaving the rest as it is", async () => {
    const f = await createOrgWithProject(t.db);
    const updated = await updateCampaign(t.db, f.org.id, f.project.id, { matchWindowMinutes: 1440 });
    expect(updated).toMatchObject({ matchWindowMinutes: 1440, attributionWindowDays: 30 });
    expect((await updateCampaign(t.db, f.org.id, f.project.id, { attributionWindowDays: 7 })).matchWindowMinutes).toBe(1440);
    for (const minutes of [0, 1441, 2.5, "60"]) {
      expect(updateCampaignBody.safeParse({ matchWindowMinutes: minutes }).error?.issues[0]?.path).toEqual(["matchWindowMinutes"]);
    }
  });

  it.each([
    [{ referrerExperience: { theme: { themeColor: "blue" } } }, "referrerExperience.theme.themeColor"],
    [{ referrerExperience: { theme: { tintAlpha: 1.5 } } }, "referrerExperience.theme.tintAlpha"],
    [{ referrerExperience: { triggerButton: { buttonType: "round" } } }, "referrerExperience.triggerButton.buttonType"],
    [{ referrerExperience: { modal: { modalTitle: "x".repeat(201) } } }, "referrerExperience.modal.modalTitle"],
    [{ referrerExperience: { modal: { modalDescription: "x".repeat(501) } } }, "referrerExperience.modal.modalDescription"],
    [{ newUserExperience: { promoText: "x".repeat(501) } }, "newUserExperience.promoText"],
    [{ newUserExperience: { promoPosition: "middle" } }, "newUserExperience.promoPosition"],
  ])("the update schema rejects %j naming %s", (input, field) => {
    const issues = updateCampaignBody.safeParse(input).error?.issues ?? [];
    expect(issues.map((i) => i.path.join("."))).toContain(field);
  });

  it("accepts the boundary values", async () => {
    const f = await createOrgWithProject(t.db);
    const after = await updateCampaign(t.db, f.org.id, f.project.id, {
      referrerExperience: { modal: { modalTitle: "x".repeat(200), modalDescription: "" }, theme: { tintAlpha: 0 } },
      newUserExperience: { promoText: "y".repeat(500) },
    });
    expect(after.referrerExperience.modal.modalTitle).toHaveLength(200);
    expect(after.referrerExperience.theme.tintAlpha).toBe(0);
  });

  it("keeps both of two concurrent partial updates", async () => {
    const f = await createOrgWithProject(t.db);
    const updates = Array.from({ length: 6 }, (_, i) =>
      i % 2
        ? updateCampaign(t.db, f.org.id, f.project.id, { referrerExperience: { theme: { themeColor: "#00000" + i } } })
        : updateCampaign(t.db, f.org.id, f.project.id, { newUserExperience: { promoText: `promo ${i}` } }),
    );
    await Promise.all(updates);
    const final = await getCampaign(t.db, f.org.id, f.project.id);
    expect(final.referrerExperience.theme.themeColor).not.toBe(defaultReferrerExperience.theme.themeColor);
    expect(final.newUserExperience.promoText).toMatch(/^promo /);
  });

  it("reads stored JSON defensively: missing fields get defaults, an invalid section falls back", async () => {
    expect(readReferrerExperience({ theme: { themeColor: "#ABCDEF" } })).toEqual({
      ...defaultReferrerExperience,
      theme: { ...defaultReferrerExperience.theme, themeColor: "#ABCDEF" },
    });
    expect(readReferrerExperience({ modal: { componentType: "popover" }, triggerButton: "x" })).toEqual(
      defaultReferrerExperience,
    );
    expect(readReferrerExperience(null)).toEqual(defaultReferrerExperience);
  });
});
