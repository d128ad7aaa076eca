import type { UrlRules } from "@/server/config";
import type { Db } from "@/server/db/client";
import type { AppType, Campaign, Project } from "@/generated/prisma/client";
import { invalidField, notFound } from "@/server/domain/errors";
import { hashToken, newToken } from "@/server/domain/tokens";
import { getOwnedProject } from "./get-owned-project";
import { requireHttps } from "./require-https";

export const PROJECT_SECRET_WARNING =
  "Store this project secret now: it is shown only once. Keep it in your app's environment, not in source.";

export type AppDetails = { name: string | null; appStoreUrl: string | null; playStoreUrl: string | null; iconUrl: string | null };

export function toProjectDto(p: Project & { campaign: Campaign | null }) {
  const app: AppDetails | null =
    p.appType === "Mobile"
      ? { name: p.appName, appStoreUrl: p.appStoreUrl, playStoreUrl: p.playStoreUrl, iconUrl: p.iconUrl }
      : null;
  return {
    uniqueId: p.id,
    name: p.name,
    description: p.description,
    appType: p.appType,
    referralRedirectLink: p.referralRedirectLink,
    campaignId: p.campaign?.id ?? null,
    projectSecretHint: `${p.secretPrefix}…`,
    allowedOrigins: p.allowedOrigins,
    app,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export async function listProjects(db: Db, organizationId: string) {
  const projects = await db.project.findMany({
    where: { organizationId },
    include: { campaign: true },
    orderBy: { createdAt: "asc" },
  });
  return projects.map(toProjectDto);
}

export async function getProject(db: Db, organizationId: string, projectId: string) {
  await getOwnedProject(db, organizationId, projectId);
  return toProjectDto(await db.project.findUniqueOrThrow({ where: { id: projectId }, include: { campaign: true } }));
}

export type UpdateProjectInput = {
  name?: string;
  description?: string | null;
  appType?: AppType;
  referralRedirectLink?: string | null;
  allowedOrigins?: string[];
  app?: Partial<AppDetails> | null;
};

export async function updateProject(db: Db, organizationId: string, projectId: string, input: UpdateProjectInput, rules: UrlRules) {
  const project = await getOwnedProject(db, organizationId, projectId);
  if (input.appType !== undefined && input.appType !== project.appType) {
    throw invalidField("appType", "immutable", `appType is set at creation and cannot change (this project is ${project.appType}).`);
  }
  requireHttps(input, rules);
  const updated = await db.project.update({
    where: { id: projectId },
    data: {
      name: input.name,
      description: input.description,
      referralRedirectLink: input.referralRedirectLink,
      allowedOrigins: input.allowedOrigins,
      ...appDetailsData(input.app),
    },
    include: { campaign: true },
  });
  return toProjectDto(updated);
}

/** `null` clears the app details; an object changes the fields it names. */
export function appDetailsData(app: Partial<AppDetails> | null | undefined) {
  if (app === undefined) return {};
  return {
    appName: app === null ? null : app.name,
    appStoreUrl: app === null ? null : app.appStoreUrl,
    playStoreUrl: app === null ? null : app.playStoreUrl,
    iconUrl: app === null ? null : app.iconUrl,
  };
}

/** Deletes the project; every row of its data goes with it by cascade. */
export async function deleteProject(db: Db, organizationId: string, projectId: string) {
  const { count } = await db.project.deleteMany({ where: { id: projectId, organizationId } });
  if (!count) throw notFound("Project");
}

/** A new `sk_` secret; the old one stops working at once. */
export async function rotateProjectSecret(db: Db, organizationId: string, projectId: string) {
  await getOwnedProject(db, organizationId, projectId);
  const secret = newToken("sk_");
  await db.project.update({
    where: { id: projectId },
    data: { secretHash: hashToken(secret), secretPrefix: secret.slice(0, 7) },
  });
  return { projectSecret: secret, warning: PROJECT_SECRET_WARNING };
}
