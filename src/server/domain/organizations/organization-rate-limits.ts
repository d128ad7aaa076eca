import type { Db } from "@/server/db/client";
import { notFound } from "@/server/domain/errors";

/** An organisation's own request quotas per minute; null keeps the server-wide default, 0 means no limit. */
export type OrganizationRateLimits = { apiPerMinute: number | null; sdkPerMinute: number | null };

/** An unknown organisation has no quotas of its own (null), or with `mustExist` is not found. */
export async function getOrganizationRateLimits(db: Db, organizationId: string, { mustExist = false } = {}): Promise<OrganizationRateLimits> {
  const row = await db.organization.findUnique({
    where: { id: organizationId },
    select: { apiRateLimitPerMinute: true, sdkRateLimitPerMinute: true },
  });
  if (!row && mustExist) throw notFound("Organisation");
  return { apiPerMinute: row?.apiRateLimitPerMinute ?? null, sdkPerMinute: row?.sdkRateLimitPerMinute ?? null };
}

/** Sets the quotas given (undefined leaves one as it is). An operator's action: see `npm run admin -- rate-limits`. */
export async function setOrganizationRateLimits(
  db: Db,
  organizationId: string,
  limits: Partial<OrganizationRateLimits>,
): Promise<OrganizationRateLimits> {
  const { count } = await db.organization.updateMany({
    where: { id: organizationId },
    data: { apiRateLimitPerMinute: limits.apiPerMinute, sdkRateLimitPerMinute: limits.sdkPerMinute },
  });
  if (!count) throw notFound("Organisation");
  return getOrganizationRateLimits(db, organizationId);
}
