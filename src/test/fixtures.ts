import { testConfig } from "./config";
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import type { AppType } from "@/generated/prisma/enums";
import type { AppDetailsInput } from "@/lib/schemas/projects";
import { createProject } from "@/server/domain/projects/create-project";
import { randomAlphanumeric } from "@/server/domain/tokens";
import { selectAppUser } from "@/server/domain/app-users/to-app-user-dto";

/** An organisation with one project (Web unless told; with its campaign), for domain-level tests. */
export async function createOrgWithProject(db: Db, project: { referralRedirectLink?: string; appType?: AppType; app?: AppDetailsInput } = {}) {
  const org = await db.organization.create({
    data: { name: "Test org " + randomAlphanumeric(4), clientId: "cl_" + randomAlphanumeric(12) },
  });
  const created = await createProject(db, org.id, {
    name: "Test project",
    appType: project.appType ?? "Web",
    referralRedirectLink: project.referralRedirectLink ?? "https://app.example.com/join",
    app: project.app,
  }, testConfig().urlRules);
  return { org, project: created.project, campaign: created.project.campaign!, projectSecret: created.secret };
}

/** What createOrgWithProject returns, for the test files that keep one in a variable. */
export type OrgWithProject = Awaited<ReturnType<typeof createOrgWithProject>>;

/** A user's successfulReferrals as every answer reads it: their counter plus their credits not yet folded (referral-credits.ts). */
export async function countedReferrals(db: Db, appUserId: string): Promise<number | undefined> {
  return (await selectAppUser(db, Prisma.sql`u."id" = ${appUserId}`))?.successfulReferrals;
}
