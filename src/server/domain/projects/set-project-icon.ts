import { createHash } from "node:crypto";
import { checkIcon } from "@/lib/sniff-image";
import type { Db } from "@/server/db/client";
import { DomainError, invalidField } from "@/server/domain/errors";
import { iconPath } from "@/server/domain/icons/icon-path";
import type { IconStore } from "@/server/domain/icons/icon-store";
import { getOwnedProject } from "./get-owned-project";
import { toProjectDto, withCampaign } from "./to-project-dto";

/**
 * Uploads a Mobile project's app icon and points its `app.iconUrl` at it. The bytes decide what it is
 * (PNG, JPEG or WebP, by content; never by name or declared type), at most MAX_ICON_BYTES (a 413), a
 * readable header with sane pixel sides (a 400 naming the rule). Stored content-addressed and served
 * from `{publicOrigin}/icons/{sha256}.{ext}`.
 */
export async function setProjectIcon(
  db: Db,
  organizationId: string,
  projectId: string,
  bytes: Uint8Array,
  publicOrigin: string,
  store: IconStore,
) {
  const project = await getOwnedProject(db, organizationId, projectId);
  if (project.appType !== "Mobile") {
    throw invalidField("appType", "mobile_only", `App icons belong to Mobile projects' app details; this project is ${project.appType}.`);
  }
  const check = checkIcon(bytes);
  if (!check.ok) {
    if (check.problem === "too_large") throw new DomainError("too_large", check.message, [{ field: "icon", rule: check.problem, message: check.message }]);
    throw invalidField("icon", check.problem, check.message);
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  await store.save({ sha256, contentType: check.type, bytes, width: check.width, height: check.height });
  const updated = await db.project.update({
    where: { id: project.id },
    data: { iconUrl: `${publicOrigin}${iconPath(sha256, check.type)}` },
    include: withCampaign,
  });
  return toProjectDto(updated);
}
