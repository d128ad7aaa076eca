import { invalidField } from "@/server/domain/errors";

/**
 * A project's `app.iconUrl` is only ever the icon it uploaded (set by setProjectIcon): a write may keep
 * it as it is or clear it, never point it elsewhere, so the hosted landing page shows no image (and
 * sends nobody anywhere) a tenant chose outside the service. `current` is null on creation: no icon yet.
 */
export function requireUploadedIcon(app: { iconUrl?: string | null } | null | undefined, current: string | null): void {
  const iconUrl = app?.iconUrl;
  if (iconUrl === undefined || iconUrl === null || iconUrl === current) return;
  throw invalidField(
    "app.iconUrl",
    "uploaded_icon",
    "app.iconUrl can only be the icon this project uploaded: upload one with PUT /projects/{projectId}/app/icon (or send null to remove it).",
  );
}
