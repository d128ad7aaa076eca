import { z } from "zod";
import { projectIdInput } from "@/lib/schemas/common";
import { checkRange, leaderboardQuery, statsRangeShape } from "@/lib/schemas/stats";

export { leaderboardSchema, projectStatsSchema } from "@/lib/schemas/stats";

export const projectStatsInput = z.object({ ...projectIdInput, ...statsRangeShape }).superRefine(checkRange);
export const leaderboardInput = leaderboardQuery.safeExtend(projectIdInput);
