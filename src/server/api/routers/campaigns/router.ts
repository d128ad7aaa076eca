import { router } from "@/server/api/trpc/procedures";
import { getCampaignProcedure } from "./get-campaign";
import { updateCampaignProcedure } from "./update-campaign";

export const campaignsRouter = router({ get: getCampaignProcedure, update: updateCampaignProcedure });
