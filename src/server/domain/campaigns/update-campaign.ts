import type { z } from "zod";
import type { Db } from "@/server/db/client";
import {
  attributionWindowDaysSchema,
  mergeNewUserExperience,
  mergeReferrerExperience,
  newUserExperiencePatchSchema,
  readNewUserExperience,
  readReferrerExperience,
  referrerExperiencePatchSchema,
  type NewUserExperiencePatch,
  type ReferrerExperiencePatch,
} from "@/server/domain/campaigns/campaign-config";
import { ensureCampaign } from "@/server/domain/campaigns/ensure-campaign";
import { toCampaignDto, type CampaignDto } from "@/server/domain/campaigns/to-campaign-dto";
import { DomainError } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export type UpdateCampaignInput = {
  referrerExperience?: ReferrerExperiencePatch | null;
  newUserExperience?: NewUserExperiencePatch | null;
  attributionWindowDays?: number | null;
};

/**
 * Merges the sent fields into the configuration (creating it if missing); whatever is not sent stays.
 * The row is locked for the read-merge-write, so two concurrent partial updates both take effect.
 */
export async function updateCampaign(
  db: Db,
  organizationId: string,
  projectId: string,
  input: UpdateCampaignInput,
): Promise<CampaignDto> {
  const referrerPatch = parseOrThrow(referrerExperiencePatchSchema, input.referrerExperience ?? {}, "referrerExperience");
  const newUserPatch = parseOrThrow(newUserExperiencePatchSchema, input.newUserExperience ?? {}, "newUserExperience");
  const windowDays =
    input.attributionWindowDays == null
      ? undefined
      : parseOrThrow(attributionWindowDaysSchema, input.attributionWindowDays, "attributionWindowDays");
  const project = await getOwnedProject(db, organizationId, projectId);
  const campaign = await db.$transaction(async (tx) => {
    const { id } = await ensureCampaign(tx, project.id);
    await tx.$queryRaw`SELECT 1 FROM "Campaign" WHERE "id" = ${id} FOR UPDATE`;
    const current = await tx.campaign.findUniqueOrThrow({ where: { id } });
    return tx.campaign.update({
      where: { id },
      data: {
        referrerExperience: mergeReferrerExperience(readReferrerExperience(current.referrerExperience), referrerPatch),
        newUserExperience: mergeNewUserExperience(readNewUserExperience(current.newUserExperience), newUserPatch),
        ...(windowDays === undefined ? {} : { attributionWindowDays: windowDays }),
      },
    });
  });
  return toCampaignDto(campaign);
}

/** Zod issues become one `invalid` error naming every failing field by its dotted path. */
function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, field: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    field: [field, ...issue.path.map(String)].join("."),
    rule: issue.code,
    message: issue.message,
  }));
  throw new DomainError("invalid", `Invalid ${field}: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}.`, issues);
}
