import { Prisma } from "@/generated/prisma/client";
import { normalizeIp } from "@/lib/ip-address";
import type { Db } from "@/server/db/client";
import type { InstallFingerprint } from "@/server/domain/attribution/build-fingerprint";
import { formatScreenSize } from "@/server/domain/attribution/screen-size";

/*
 * Where an app user's client was seen from, for the same-device rule (sameDevice). What counts as the
 * same device, and why:
 * - the same client address (the TCP peer, or behind trusted proxies the forwarded client; IPv6
 *   normalised): the strong signal of one person making accounts on one machine or connection. Two
 *   people behind one address (a household, an office, a carrier's NAT) also match: that is why the
 *   rule has `review` as well as `block`;
 * - the same device fingerprint of a mobile client, only when complete (OS, OS version, screen,
 *   timezone and locale): a partial one matches too many phones of one model to mean anything.
 * A referee and their referrer match when such a signal of one was seen within 24 hours of the same
 * signal of the other. Sightings are recorded only while the project's campaign has the rule on, so
 * no addresses are collected for a rule nobody uses; erasing the user deletes them.
 */

export const SAME_DEVICE_WINDOW_HOURS = 24;

export type Signal = { kind: "ip" | "device"; value: string };

/** A complete device fingerprint as one comparable value, or null. */
export function deviceKey(f: Pick<InstallFingerprint, "os" | "osVersion" | "screen" | "timezone" | "locale">): string | null {
  if (!f.os || !f.osVersion || !f.screen || !f.timezone || !f.locale) return null;
  return [f.os, f.osVersion, formatScreenSize(f.screen), f.timezone, f.locale].join("|");
}

export function signalsOf(ip: string | null, device: string | null): Signal[] {
  const address = normalizeIp(ip);
  return [...(address ? [{ kind: "ip" as const, value: address }] : []), ...(device ? [{ kind: "device" as const, value: device }] : [])];
}

/** Records the signals of one sighting: a row per user and signal, its first and last time. */
export async function recordSightings(db: Db, projectId: string, appUserId: string, signals: Signal[], at: Date): Promise<void> {
  if (signals.length === 0) return;
  const rows = signals.map((s) => Prisma.sql`(gen_random_uuid()::text, ${projectId}, ${appUserId}, ${s.kind}, ${s.value}, ${at}, ${at})`);
  await db.$executeRaw`
    INSERT INTO "AppUserSighting" ("id", "projectId", "appUserId", "kind", "value", "firstSeenAt", "lastSeenAt")
    VALUES ${Prisma.join(rows)}
    ON CONFLICT ("appUserId", "kind", "value") DO UPDATE SET "lastSeenAt" = GREATEST("AppUserSighting"."lastSeenAt", EXCLUDED."lastSeenAt")`;
}

/**
 * Whether the referee was seen from an address or complete device fingerprint their referrer was seen
 * from within 24 hours of it: the referee's sightings (init-app-user) and the landing-page clicks
 * attributed to them, against the referrer's sightings.
 */
export async function sharesDevice(db: Pick<Prisma.TransactionClient, "$queryRaw">, referrerId: string, refereeId: string): Promise<boolean> {
  const window = Prisma.sql`make_interval(hours => ${SAME_DEVICE_WINDOW_HOURS})`;
  const [row] = await db.$queryRaw<{ shared: boolean }[]>`
    WITH referee AS (
      SELECT "kind", "value", "firstSeenAt", "lastSeenAt" FROM "AppUserSighting" WHERE "appUserId" = ${refereeId}
      UNION ALL
      SELECT 'ip', "ipAddress", "createdAt", "createdAt" FROM "LinkClick" WHERE "matchedAppUserId" = ${refereeId} AND "ipAddress" IS NOT NULL
      UNION ALL
      SELECT 'device', concat_ws('|', "os", "osVersion", "screenSize", "timezone", "locale"), "createdAt", "createdAt" FROM "LinkClick"
      WHERE "matchedAppUserId" = ${refereeId} AND "os" IS NOT NULL AND "osVersion" IS NOT NULL AND "screenSize" IS NOT NULL
        AND "timezone" IS NOT NULL AND "locale" IS NOT NULL
    )
    SELECT EXISTS (
      SELECT FROM referee e JOIN "AppUserSighting" r ON r."appUserId" = ${referrerId} AND r."kind" = e."kind" AND r."value" = e."value"
      WHERE r."lastSeenAt" >= e."firstSeenAt" - ${window} AND r."firstSeenAt" <= e."lastSeenAt" + ${window}
    ) AS "shared"`;
  return row?.shared ?? false;
}
