import type { Db } from "@/server/db/client";
import { ensureCampaign } from "@/server/domain/campaigns/ensure-campaign";
import { toCampaignDto, type CampaignDto } from "@/server/domain/campaigns/to-campaign-dto";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export async function getCampaign(db: Db, organizationId: string, projectId: string): Promise<CampaignDto> {
  const project = await getOwnedProject(db, organizationId, projectId);
  return toCampaignDto(await ensureCampaign(db, project.id));
}
