import type { Db } from "@/server/db/client";

/** Projects whose first client-library call this process has already written (or seen written). */
const recorded = new Set<string>();

/**
 * Notes the first time a project's keys reach a client-library endpoint (the widget's or the mobile
 * client's init-app-user, track-referral or new-user-experience): the onboarding checklist's "widget
 * installed" step reads it. One conditional update per project and process, so the hot path pays
 * nothing after the first call.
 */
export async function recordFirstSdkCall(db: Db, projectId: string, now = new Date()): Promise<void> {
  if (recorded.has(projectId)) return;
  await db.$executeRaw`UPDATE "Project" SET "firstSdkCallAt" = ${now} WHERE "id" = ${projectId} AND "firstSdkCallAt" IS NULL`;
  recorded.add(projectId);
}
