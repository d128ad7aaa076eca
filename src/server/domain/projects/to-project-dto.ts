import type { Campaign, Project } from "@/generated/prisma/client";
import type { AppDetailsInput } from "@/lib/schemas/projects";

export const PROJECT_SECRET_WARNING =
  "Store this project secret now: it is shown only once. Keep it in your app's environment, not in source.";

export type AppDetails = { name: string | null; appStoreUrl: string | null; playStoreUrl: string | null; iconUrl: string | null };

/** Load projects with this include: the DTO names the project's campaign. */
export const withCampaign = { campaign: true } as const;

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
    publishableKey: p.publishableKey,
    allowedOrigins: p.allowedOrigins,
    identityVerification: p.identityVerification,
    app,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** The app-detail columns an input sets: `null` clears them all; an object changes the fields it names. */
export function appDetailsColumns(app: AppDetailsInput | null | undefined) {
  if (app === undefined) return {};
  return {
    appName: app === null ? null : app.name,
    appStoreUrl: app === null ? null : app.appStoreUrl,
    playStoreUrl: app === null ? null : app.playStoreUrl,
    iconUrl: app === null ? null : app.iconUrl,
  };
}
