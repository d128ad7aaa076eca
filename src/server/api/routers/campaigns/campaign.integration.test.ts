import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { type RestClient, restClientForNewOrg, type RestResponse } from "@/test/rest";

/*
 * The campaign configuration over HTTP: defaults, partial updates that merge, validation problems
 * that name every violated field by its dotted path, and no change after a bad or foreign request.
 */

let t: TestDb;
let call: RestClient;
let other: RestClient;
let foreignProjectId: string;

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  other = await restClientForNewOrg(t.db);
  foreignProjectId = (await other("POST", "/projects", { body: { name: "Theirs" } })).json.uniqueId;
});
afterAll(() => t?.drop());

const DEFAULT_REFERRER = {
  triggerButton: { buttonType: "floating", buttonPosition: "bottom-right" },
  modal: {
    componentType: "modal",
    modalTitle: "Invite friends",
    modalDescription: "Share your link. When a friend joins and gets started, you both get rewarded.",
  },
  theme: { themeColor: "#4F46E5", backgroundColor: "#FFFFFF", tintColor: "#000000", tintAlpha: 0.4 },
};
const DEFAULT_NEW_USER = { promoText: "", promoPosition: "top-center", referrerNameAttribute: "name" };

/** A fresh project; returns its id and the campaign id the project create answered with. */
async function newProject(name = "Campaign") {
  const res = await call("POST", "/projects", { body: { name } });
  expect(res.status).toBe(201);
  return { projectId: res.json.uniqueId as string, campaignId: res.json.campaignId as string };
}
const campaignPath = (projectId: string) => `/projects/${projectId}/campaign`;
const put = (projectId: string, body: unknown) => call("PUT", campaignPath(projectId), { body });

/** A problem+json answer with this status (a looser check than the shared one in @/test/rest: no title, no fields). */
function expectProblem(res: RestResponse, status: number) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.json).toMatchObject({ status, type: expect.stringMatching(/^urn:referloop:problem:/) });
}

/** The stored row, field for field (updatedAt included, so a no-op write would show too). */
const stored = async (projectId: string) => JSON.stringify(await t.db.campaign.findUniqueOrThrow({ where: { projectId } }));

describe("GET /campaign", () => {
  it("answers the defaults for a new project", async () => {
    const { projectId, campaignId } = await newProject();
    const res = await call("GET", campaignPath(projectId));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      campaignId,
      projectId,
      referrerExperience: DEFAULT_REFERRER,
      newUserExperience: DEFAULT_NEW_USER,
      attributionWindowDays: 30,
      matchWindowMinutes: 120,
      attributionModel: "first",
      rewardRules: { maxRewardsPerReferrer: {}, disposableEmail: "off", sameDevice: "off", holdDays: 0 },
      milestones: [],
      portal: { sections: { totals: true, friends: true, rewards: true, milestones: true }, friendNameAttribute: null },
      revokeOn: { refund: true, dispute: true, trialCancellation: true },
      updatedAt: expect.any(String),
    });
  });

  it("sets the attribution model (any case) and refuses other values", async () => {
    const { projectId } = await newProject();
    expect((await put(projectId, { AttributionModel: "Last" })).json.attributionModel).toBe("last");
    expect((await call("GET", campaignPath(projectId))).json.attributionModel).toBe("last");
    const refused = await put(projectId, { attributionModel: "middle" });
    expectProblem(refused, 400);
    expect(refused.json.errors).toContainEqual(expect.objectContaining({ field: "attributionModel" }));
  });

  it("creates the defaults when the project has no campaign row", async () => {
    const { projectId } = await newProject();
    await t.db.campaign.delete({ where: { projectId } });
    const res = await call("GET", campaignPath(projectId));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ referrerExperience: DEFAULT_REFERRER, newUserExperience: DEFAULT_NEW_USER });
    expect(await t.db.campaign.count({ where: { projectId } })).toBe(1);
  });

  it("answers 401 without an API key and 404 for an unknown project", async () => {
    const { projectId } = await newProject();
    expectProblem(await call("GET", campaignPath(projectId), { apiKey: null }), 401);
    expectProblem(await call("GET", campaignPath("00000000-0000-0000-0000-000000000000")), 404);
  });
});

describe("PUT /campaign", () => {
  it("changes only ReferrerExperience when only it is sent, and only NewUserExperience when only it is sent", async () => {
    const { projectId } = await newProject();
    const newUser = await put(projectId, { NewUserExperience: { promoText: "Welcome!", promoPosition: "bottom-left" } });
    expect(newUser.status).toBe(200);
    expect(newUser.headers.get("content-type")).toMatch(/^application\/json/);
    expect(newUser.json).toMatchObject({ referrerExperience: DEFAULT_REFERRER, newUserExperience: { promoText: "Welcome!", promoPosition: "bottom-left" } });

    const referrer = await put(projectId, {
      ReferrerExperience: {
        triggerButton: { buttonType: "edge", buttonPosition: "top-left" },
        modal: { componentType: "drawer", modalTitle: "Share", modalDescription: "Tell friends" },
        theme: { themeColor: "#112233", backgroundColor: "#abcdef", tintColor: "#000001", tintAlpha: 0 },
      },
    });
    expect(referrer.status).toBe(200);
    const changedReferrer = {
      triggerButton: { buttonType: "edge", buttonPosition: "top-left" },
      modal: { componentType: "drawer", modalTitle: "Share", modalDescription: "Tell friends" },
      theme: { themeColor: "#112233", backgroundColor: "#abcdef", tintColor: "#000001", tintAlpha: 0 },
    };
    expect(referrer.json.referrerExperience).toEqual(changedReferrer);
    expect(referrer.json.newUserExperience).toEqual({ ...DEFAULT_NEW_USER, promoText: "Welcome!", promoPosition: "bottom-left" });

    const again = await put(projectId, { newUserExperience: { promoText: "Hi" } });
    expect(again.json.referrerExperience).toEqual(changedReferrer);
    expect(again.json.newUserExperience).toEqual({ ...DEFAULT_NEW_USER, promoText: "Hi", promoPosition: "bottom-left" });

    // What a later GET answers is what was stored.
    const got = await call("GET", campaignPath(projectId));
    expect(got.json).toMatchObject({ referrerExperience: changedReferrer, newUserExperience: { promoText: "Hi", promoPosition: "bottom-left" } });
  });

  it("sets the install match window (MatchWindowMinutes, 1 to 1440) and keeps it across other updates", async () => {
    const { projectId } = await newProject();
    expect((await put(projectId, { MatchWindowMinutes: 30 })).json).toMatchObject({ matchWindowMinutes: 30, attributionWindowDays: 30 });
    expect((await put(projectId, { NewUserExperience: { promoText: "Hi" } })).json.matchWindowMinutes).toBe(30);
    expect((await call("GET", campaignPath(projectId))).json.matchWindowMinutes).toBe(30);
  });

  it("merges a partial section field by field and leaves the other sections alone", async () => {
    const { projectId } = await newProject();
    const res = await put(projectId, { ReferrerExperience: { theme: { tintAlpha: 1 }, modal: { modalTitle: "Only the title" } } });
    expect(res.status).toBe(200);
    expect(res.json.referrerExperience).toEqual({
      triggerButton: DEFAULT_REFERRER.triggerButton,
      modal: { ...DEFAULT_REFERRER.modal, modalTitle: "Only the title" },
      theme: { ...DEFAULT_REFERRER.theme, tintAlpha: 1 },
    });
    expect(res.json.newUserExperience).toEqual(DEFAULT_NEW_USER);
    const next = await put(projectId, { ReferrerExperience: { triggerButton: { buttonType: "none" } } });
    expect(next.json.referrerExperience).toEqual({
      triggerButton: { buttonType: "none", buttonPosition: "bottom-right" },
      modal: { ...DEFAULT_REFERRER.modal, modalTitle: "Only the title" },
      theme: { ...DEFAULT_REFERRER.theme, tintAlpha: 1 },
    });
  });

  it("accepts an empty body and empty sections without changing the configuration", async () => {
    const { projectId } = await newProject();
    await put(projectId, { NewUserExperience: { promoText: "Kept" } });
    for (const body of [{}, { ReferrerExperience: {} }, { NewUserExperience: {} }, { ReferrerExperience: { theme: {} } }]) {
      const res = await put(projectId, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.json).toMatchObject({ referrerExperience: DEFAULT_REFERRER, newUserExperience: { ...DEFAULT_NEW_USER, promoText: "Kept" } });
    }
  });

  it("accepts the boundary values: 200/500/500 characters, tintAlpha 0 and 1, every enum value", async () => {
    const { projectId } = await newProject();
    const res = await put(projectId, {
      ReferrerExperience: { modal: { modalTitle: "t".repeat(200), modalDescription: "d".repeat(500) }, theme: { tintAlpha: 0 } },
      NewUserExperience: { promoText: "p".repeat(500) },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.referrerExperience.modal.modalTitle).toHaveLength(200);
    expect(res.json.newUserExperience.promoText).toHaveLength(500);
    expect((await put(projectId, { ReferrerExperience: { theme: { tintAlpha: 1 } } })).json.referrerExperience.theme.tintAlpha).toBe(1);
    for (const buttonType of ["floating", "edge", "none"]) expect((await put(projectId, { ReferrerExperience: { triggerButton: { buttonType } } })).status).toBe(200);
    for (const buttonPosition of ["bottom-right", "bottom-left", "top-right", "top-left"]) {
      expect((await put(projectId, { ReferrerExperience: { triggerButton: { buttonPosition } } })).json.referrerExperience.triggerButton.buttonPosition).toBe(buttonPosition);
    }
    for (const promoPosition of ["top-left", "top-center", "top-right", "bottom-left", "bottom-center", "bottom-right"]) {
      expect((await put(projectId, { NewUserExperience: { promoPosition } })).json.newUserExperience.promoPosition).toBe(promoPosition);
    }
  });

  it("creates the configuration when none exists", async () => {
    const { projectId } = await newProject();
    await t.db.campaign.delete({ where: { projectId } });
    const res = await put(projectId, { NewUserExperience: { promoText: "Fresh" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ referrerExperience: DEFAULT_REFERRER, newUserExperience: { promoText: "Fresh", promoPosition: "top-center" } });
    expect(await t.db.campaign.count({ where: { projectId } })).toBe(1);
  });
});

describe("PUT /campaign refuses bad values with a 400 naming each field, and stores nothing", () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await newProject("Validation")).projectId;
    const setUp = await put(projectId, { NewUserExperience: { promoText: "Before" }, ReferrerExperience: { modal: { modalTitle: "Before" } } });
    expect(setUp.status).toBe(200);
  });

  const R = "referrerExperience";
  const N = "newUserExperience";
  const cases: [string, unknown, string, string][] = [
    ["themeColor #FFF", { ReferrerExperience: { theme: { themeColor: "#FFF" } } }, `${R}.theme.themeColor`, "invalid_format"],
    ["backgroundColor red", { ReferrerExperience: { theme: { backgroundColor: "red" } } }, `${R}.theme.backgroundColor`, "invalid_format"],
    ["tintColor #GGGGGG", { ReferrerExperience: { theme: { tintColor: "#GGGGGG" } } }, `${R}.theme.tintColor`, "invalid_format"],
    ["themeColor without #", { ReferrerExperience: { theme: { themeColor: "4F46E5" } } }, `${R}.theme.themeColor`, "invalid_format"],
    ["themeColor #RRGGBBAA", { ReferrerExperience: { theme: { themeColor: "#4F46E5FF" } } }, `${R}.theme.themeColor`, "invalid_format"],
    ["tintAlpha 1.5", { ReferrerExperience: { theme: { tintAlpha: 1.5 } } }, `${R}.theme.tintAlpha`, "too_big"],
    ["tintAlpha -0.1", { ReferrerExperience: { theme: { tintAlpha: -0.1 } } }, `${R}.theme.tintAlpha`, "too_small"],
    ['tintAlpha "0.5" (a string)', { ReferrerExperience: { theme: { tintAlpha: "0.5" } } }, `${R}.theme.tintAlpha`, "invalid_type"],
    ["tintAlpha true", { ReferrerExperience: { theme: { tintAlpha: true } } }, `${R}.theme.tintAlpha`, "invalid_type"],
    ["tintAlpha null", { ReferrerExperience: { theme: { tintAlpha: null } } }, `${R}.theme.tintAlpha`, "invalid_type"],
    ["modalTitle of 201 characters", { ReferrerExperience: { modal: { modalTitle: "t".repeat(201) } } }, `${R}.modal.modalTitle`, "too_big"],
    ["modalTitle of the wrong type", { ReferrerExperience: { modal: { modalTitle: 5 } } }, `${R}.modal.modalTitle`, "invalid_type"],
    ["modalDescription of 501 characters", { ReferrerExperience: { modal: { modalDescription: "d".repeat(501) } } }, `${R}.modal.modalDescription`, "too_big"],
    ["promoText of 501 characters", { NewUserExperience: { promoText: "p".repeat(501) } }, `${N}.promoText`, "too_big"],
    ["buttonType sticky", { ReferrerExperience: { triggerButton: { buttonType: "sticky" } } }, `${R}.triggerButton.buttonType`, "invalid_value"],
    ["buttonType in the wrong case", { ReferrerExperience: { triggerButton: { buttonType: "Floating" } } }, `${R}.triggerButton.buttonType`, "invalid_value"],
    ["buttonPosition middle", { ReferrerExperience: { triggerButton: { buttonPosition: "middle" } } }, `${R}.triggerButton.buttonPosition`, "invalid_value"],
    ["componentType sheet", { ReferrerExperience: { modal: { componentType: "sheet" } } }, `${R}.modal.componentType`, "invalid_value"],
    ["promoPosition center", { NewUserExperience: { promoPosition: "center" } }, `${N}.promoPosition`, "invalid_value"],
    ["a section that is a string", { ReferrerExperience: "modal" }, R, "invalid_type"],
    ["a sub-section that is an array", { ReferrerExperience: { theme: [] } }, `${R}.theme`, "invalid_type"],
    ["NewUserExperience that is a number", { NewUserExperience: 1 }, N, "invalid_type"],
    ["attributionWindowDays 0", { attributionWindowDays: 0 }, "attributionWindowDays", "too_small"],
    ["attributionWindowDays 366", { AttributionWindowDays: 366 }, "attributionWindowDays", "too_big"],
    ['attributionWindowDays "5" (a string)', { attributionWindowDays: "5" }, "attributionWindowDays", "invalid_type"],
    ["attributionWindowDays 1.5", { attributionWindowDays: 1.5 }, "attributionWindowDays", "invalid_type"],
    ["matchWindowMinutes 0", { matchWindowMinutes: 0 }, "matchWindowMinutes", "too_small"],
    ["matchWindowMinutes 1441 (over 24 hours)", { MatchWindowMinutes: 1441 }, "matchWindowMinutes", "too_big"],
    ["matchWindowMinutes 2.5", { matchWindowMinutes: 2.5 }, "matchWindowMinutes", "invalid_type"],
  ];
  it.each(cases)("%s", async (_label, body, field, rule) => {
    const before = await stored(projectId);
    const res = await put(projectId, body);
    expectProblem(res, 400);
    expect(res.json.type).toBe("urn:referloop:problem:validation");
    expect(res.json.instance).toBe(`/api/v1/public${campaignPath(projectId)}`);
    expect(res.json.errors).toEqual([expect.objectContaining({ field, rule, message: expect.any(String) })]);
    expect(res.json.detail).toContain(field);
    expect(await stored(projectId)).toBe(before);
  });

  it("reports every violated field at once, and applies none of the valid fields sent with them", async () => {
    const before = await stored(projectId);
    const res = await put(projectId, {
      ReferrerExperience: {
        triggerButton: { buttonType: "sticky", buttonPosition: "top-left" },
        modal: { componentType: "sheet", modalTitle: "t".repeat(201), modalDescription: "d".repeat(501) },
        theme: { themeColor: "#FFF", backgroundColor: "red", tintColor: "#GGGGGG", tintAlpha: "0.5" },
      },
      NewUserExperience: { promoText: "p".repeat(501), promoPosition: "middle" },
    });
    expectProblem(res, 400);
    const fields = res.json.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(
      [
        "referrerExperience.triggerButton.buttonType",
        "referrerExperience.modal.componentType",
        "referrerExperience.modal.modalTitle",
        "referrerExperience.modal.modalDescription",
        "referrerExperience.theme.themeColor",
        "referrerExperience.theme.backgroundColor",
        "referrerExperience.theme.tintColor",
        "referrerExperience.theme.tintAlpha",
        "newUserExperience.promoText",
        "newUserExperience.promoPosition",
      ].sort(),
    );
    for (const e of res.json.errors) expect(e).toMatchObject({ rule: expect.any(String), message: expect.any(String) });
    expect(await stored(projectId)).toBe(before);
    const got = await call("GET", campaignPath(projectId));
    expect(got.json.referrerExperience.triggerButton.buttonPosition).toBe("bottom-right");
    expect(got.json.referrerExperience.modal.modalTitle).toBe("Before");
    expect(got.json.newUserExperience.promoText).toBe("Before");
  });

  it("refuses a valid section sent with an invalid one, changing neither", async () => {
    const before = await stored(projectId);
    const res = await put(projectId, { NewUserExperience: { promoText: "Changed" }, ReferrerExperience: { theme: { tintAlpha: 2 } } });
    expectProblem(res, 400);
    expect(res.json.errors).toEqual([expect.objectContaining({ field: "referrerExperience.theme.tintAlpha" })]);
    expect(await stored(projectId)).toBe(before);
  });

  it("names an unknown or PascalCase nested field instead of ignoring it", async () => {
    const before = await stored(projectId);
    const res = await put(projectId, { ReferrerExperience: { Theme: { TintAlpha: 0.2 } }, NewUserExperience: { promoTxt: "typo" } });
    expectProblem(res, 400);
    const fields = res.json.errors.map((e: { field: string; rule: string }) => [e.field, e.rule]);
    expect(fields).toContainEqual(["referrerExperience", "unrecognized_keys"]);
    expect(fields).toContainEqual(["newUserExperience", "unrecognized_keys"]);
    expect(res.json.detail).toMatch(/Theme/);
    expect(await stored(projectId)).toBe(before);
  });

  it("answers 400 for malformed JSON and a non-object body, 415 for another media type", async () => {
    const before = await stored(projectId);
    const headers = { "content-type": "application/json" };
    expectProblem(await call("PUT", campaignPath(projectId), { rawBody: '{"NewUserExperience": {', headers }), 400);
    expectProblem(await call("PUT", campaignPath(projectId), { rawBody: "[]", headers }), 400);
    expectProblem(await call("PUT", campaignPath(projectId), { rawBody: "promoText=x", headers: { "content-type": "text/plain" } }), 415);
    expect(await stored(projectId)).toBe(before);
  });
});

describe("another organisation's campaign is not found, and nothing changes", () => {
  it("answers 404 to GET and PUT with another organisation's project id", async () => {
    const before = await stored(foreignProjectId);
    const got = await call("GET", campaignPath(foreignProjectId));
    expectProblem(got, 404);
    expect(got.json.type).toBe("urn:referloop:problem:not-found");
    const absent = await call("GET", campaignPath("00000000-0000-0000-0000-000000000000"));
    expect(absent.json.detail).toBe(got.json.detail);
    expectProblem(await put(foreignProjectId, { NewUserExperience: { promoText: "Hijacked" } }), 404);
    // A bad body gets the same answer for a foreign project as for an absent one (no probing).
    const bad = await put(foreignProjectId, { NewUserExperience: { promoText: 5 } });
    const badAbsent = await put("00000000-0000-0000-0000-000000000000", { NewUserExperience: { promoText: 5 } });
    expect(bad.status).toBe(badAbsent.status);
    expect(bad.json.detail).toBe(badAbsent.json.detail);
    expect(await stored(foreignProjectId)).toBe(before);
    expect((await other("GET", campaignPath(foreignProjectId))).json.newUserExperience).toEqual(DEFAULT_NEW_USER);
  });
});
