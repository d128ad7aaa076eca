import { Prisma, type AppType } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

/** The steps of going live, in order; each is read from the data it stands for. */
export const ONBOARDING_STEPS = ["project", "redirectLink", "client", "referral", "webhookDelivered", "reward"] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export type OnboardingProject = { id: string; name: string; appType: AppType };

export type Onboarding = {
  /** The project the checklist follows: the one furthest along (the oldest of equals); null before the first. */
  project: OnboardingProject | null;
  steps: Record<OnboardingStep, boolean>;
  completed: number;
  total: number;
};

type Row = OnboardingProject & Omit<Record<OnboardingStep, boolean>, "project">;

/** More than an organisation sets up by hand; the checklist looks at its oldest ones. */
const MAX_PROJECTS = 100;

/**
 * The organisation's onboarding checklist, ticked from real data:
 * - project: it has one;
 * - redirectLink: the project's referral redirect link is set;
 * - client: the widget (Web) or the mobile client (Mobile) is installed, i.e. the project's keys have
 *   reached a client-library endpoint once (Project.firstSdkCallAt, see recordFirstSdkCall);
 * - referral: a referral was tracked;
 * - webhookDelivered: a webhook delivery succeeded (a test event counts: the receiver works);
 * - reward: a reward was granted.
 * Each is an EXISTS on an index that starts with the project id, so it stays cheap on big projects.
 * With `projectId`, that project's checklist (its overview shows it); without, the organisation's
 * project furthest along.
 */
export async function getOnboarding(db: Db, organizationId: string, projectId?: string): Promise<Onboarding> {
  const only = projectId ? Prisma.sql`AND p."id" = ${(await getOwnedProject(db, organizationId, projectId)).id}` : Prisma.empty;
  const rows = await db.$queryRaw<Row[]>`
    SELECT p."id", p."name", p."appType"::text AS "appType",
      (p."referralRedirectLink" IS NOT NULL AND p."referralRedirectLink" <> '') AS "redirectLink",
      (p."firstSdkCallAt" IS NOT NULL) AS "client",
      EXISTS (SELECT FROM "ReferralTracking" t WHERE t."projectId" = p."id") AS "referral",
      EXISTS (SELECT FROM "Delivery" d WHERE d."projectId" = p."id" AND d."status" = 'Succeeded') AS "webhookDelivered",
      EXISTS (SELECT FROM "RewardHistory" r WHERE r."projectId" = p."id") AS "reward"
    FROM "Project" p
    WHERE p."organizationId" = ${organizationId} ${only}
    ORDER BY p."createdAt" ASC, p."id" ASC
    LIMIT ${MAX_PROJECTS}`;
  const stepsOf = (row: Row | undefined): Record<OnboardingStep, boolean> => ({
    project: row !== undefined,
    redirectLink: row?.redirectLink ?? false,
    client: row?.client ?? false,
    referral: row?.referral ?? false,
    webhookDelivered: row?.webhookDelivered ?? false,
    reward: row?.reward ?? false,
  });
  const count = (steps: Record<OnboardingStep, boolean>) => ONBOARDING_STEPS.filter((s) => steps[s]).length;
  let best: Row | undefined;
  for (const row of rows) if (!best || count(stepsOf(row)) > count(stepsOf(best))) best = row;
  const steps = stepsOf(best);
  return {
    project: best ? { id: best.id, name: best.name, appType: best.appType } : null,
    steps,
    completed: count(steps),
    total: ONBOARDING_STEPS.length,
  };
}
