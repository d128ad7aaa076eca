import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { queryWithSettings } from "@/server/db/prepared-statements";

/** A delivery whose next attempt was just claimed, with what sending it needs of its webhook. */
export type ClaimedAttempt = {
  id: string;
  projectId: string;
  webhookId: string;
  eventName: string;
  /** The catalogue's type (WEBHOOK_EVENT_TYPES) or `referloop.test`: sent in a header, and picks how the body is made. */
  eventType: string;
  /** Null once purged (only a finished delivery is purged, and a purged one cannot be retried). */
  payload: unknown;
  /** A test event (no tracking item): sent with `X-Service-Test: true`, once. */
  test: boolean;
  /** The number this attempt got (the delivery's attempt count, raised by the claim). */
  attemptNumber: number;
  /** `previousSecretEncrypted`: the secret before a rotation, while its overlap lasts (deliveries carry its signature too). */
  webhook: { url: string; secretEncrypted: string; previousSecretEncrypted: string | null; enabled: boolean };
};

/**
 * A worker's lease for the first attempts of deliveries a reward claim writes (the embedded worker's,
 * when it has a slot free): the rows are written already claimed, attempt 1 under `workerId` until
 * `until`, and that worker sends them at once. The claim statement, and a second version of every
 * row, are saved; if the worker dies first, the lease runs out and another worker takes the delivery
 * as after any claim (its attempt 1 logged as lost).
 */
export type DeliveryLease = { workerId: string; until: Date };

type Row = Omit<ClaimedAttempt, "webhook"> & ClaimedAttempt["webhook"];

const toClaimed = ({ url, secretEncrypted, previousSecretEncrypted, enabled, ...delivery }: Row): ClaimedAttempt => ({
  ...delivery,
  webhook: { url, secretEncrypted, previousSecretEncrypted, enabled },
});

/**
 * Claims the next attempt of the rows `where` selects: lease, attempt number and the webhook's state in
 * one statement. Conditions on the claimed row belong in `where` (on `d`), where PostgreSQL checks them
 * again after waiting for a concurrent claim's lock; a subquery's would not be.
 */
const claimUpdate = (workerId: string, leasedUntil: Date, now: Date, where: Prisma.Sql) => Prisma.sql`
  UPDATE "Delivery" d
  SET "attemptCount" = d."attemptCount" + 1, "leasedUntil" = ${leasedUntil}, "leasedBy" = ${workerId}, "updatedAt" = ${now}
  FROM "Webhook" w
  WHERE ${where} AND w."id" = d."webhookId"
  RETURNING d."id", d."projectId", d."webhookId", d."eventName", d."eventType", d."payload", d."trackingId" IS NULL AS "test", d."attemptCount" AS "attemptNumber",
    w."url", w."secretEncrypted", CASE WHEN w."previousSecretExpiresAt" > now() THEN w."previousSecretEncrypted" END AS "previousSecretEncrypted", w."enabled"`;

/**
 * Claims the next attempt of up to `limit` due Pending deliveries for `workerId`. SKIP LOCKED lets
 * several workers on one PostgreSQL claim disjoint rows without waiting on each other; the lease keeps
 * a row away from other workers after the statement commits, until it passes (a dead worker's rows are
 * then taken over, their lost attempt still counted). Times come from this process's clock, like the
 * nextAttemptAt it wrote.
 *
 * Fair between webhooks: no webhook gets more than `perWebhook` attempts in flight in this worker
 * (`inFlight` counts what it already has), and webhooks at that cap are not even looked at, so one
 * slow receiver with a long queue cannot take every slot (or every candidate) from the others.
 */
export async function claimDueAttempts(db: Db, input: DueClaimInput): Promise<ClaimedAttempt[]> {
  return (await queryWithSettings<Row>(db, DUE_CLAIM_SETTINGS, dueAttemptsClaim(input))).map(toClaimed);
}

type DueClaimInput = { workerId: string; limit: number; leaseMs: number; dueBefore: Date; perWebhook: number; inFlight: ReadonlyMap<string, number> };

/** In force for the due claim alone (see dueAttemptsClaim). */
export const DUE_CLAIM_SETTINGS = "SET LOCAL enable_bitmapscan = off";

/** The statement of claimDueAttempts, to be run with DUE_CLAIM_SETTINGS (a test reads its plan). */
export function dueAttemptsClaim(input: DueClaimInput, now = new Date()): Prisma.Sql {
  const busy = [...input.inFlight].filter(([, n]) => n > 0);
  const saturated = busy.filter(([, n]) => n >= input.perWebhook).map(([id]) => id);
  // Candidates are ranked without locks and only the picked rows are locked (SKIP LOCKED): locking every
  // candidate wrote a row lock into up to four times as many rows as were claimed. A row another
  // worker's claim took meanwhile is skipped (locked) or filtered (its lease, checked again on the row
  // as it now stands), so that worker claims fewer this round and more on its next.
  const due = Prisma.sql`"status" = 'Pending' AND "nextAttemptAt" <= ${input.dueBefore} AND ("leasedUntil" IS NULL OR "leasedUntil" < ${now})`;
  // The chosen rows are locked by id: their status is compared as text, which no index answers. When
  // the statistics say no row is Pending (a program whose deliveries all succeeded, until autovacuum
  // analyses a burst), the planner otherwise walked every Pending row and compared each with the chosen
  // ones: 14.7 ms per claim of 16 rows on average with 50,000 due, and bench:http's drain fell from
  // 2,000 to 156 deliveries/s.
  const dueRow = Prisma.sql`"status"::text = 'Pending' AND "nextAttemptAt" <= ${input.dueBefore} AND ("leasedUntil" IS NULL OR "leasedUntil" < ${now})`;
  const picked = Prisma.sql`d."id" IN (
    WITH candidates AS (
      SELECT "id", "webhookId", "nextAttemptAt" FROM "Delivery"
      WHERE ${due} AND NOT ("webhookId" = ANY(${saturated}::text[]))
      ORDER BY "nextAttemptAt"
      LIMIT ${input.limit * 4}
    ), ranked AS (
      SELECT c."id", c."nextAttemptAt",
        ROW_NUMBER() OVER (PARTITION BY c."webhookId" ORDER BY c."nextAttemptAt") + COALESCE(b."n", 0) AS "slot"
      FROM candidates c
      LEFT JOIN unnest(${busy.map(([id]) => id)}::text[], ${busy.map(([, n]) => n)}::int[]) AS b("webhookId", "n")
        ON b."webhookId" = c."webhookId"
    ), chosen AS (
      SELECT "id" FROM ranked WHERE "slot" <= ${input.perWebhook} ORDER BY "nextAttemptAt" LIMIT ${input.limit}
    )
    SELECT "id" FROM "Delivery" WHERE "id" IN (SELECT "id" FROM chosen) AND ${dueRow} FOR UPDATE SKIP LOCKED
  )`;
  // A burst of rewards makes the planner's row count for Pending stale until autovacuum analyzes the
  // table (up to a minute): it then expects a few rows and reads every Pending row through a bitmap
  // scan to sort them, 40 to 60 ms per claim with 50,000 due, where a walk of the due index
  // ("Delivery_due_idx") stops after the limit. Bitmap scans are off for this statement alone. For the
  // same reason it is not prepared(): a generic plan, kept from while the backlog was small, took 10 to
  // 97 s per claim with 50,000 due (src/server/db/prepared-statements.ts).
  return claimUpdate(input.workerId, new Date(now.getTime() + input.leaseMs), now, picked);
}

/**
 * Claims the next attempt of one delivery (the Inngest function's way in): a compare-and-set on the
 * attempt count read first, so of callers racing for one attempt exactly one wins, and while another
 * worker's lease holds, none. Only a due attempt is claimed: a duplicate event arriving during a
 * backoff must not send the next attempt early. `skipped` says why nothing was claimed; `not_due`
 * comes with the delivery's next attempt time, as this process's clock (`now`) measures it.
 */
export async function claimAttempt(
  db: Db,
  input: { deliveryId: string; workerId: string; leaseMs: number; now?: Date },
): Promise<{ claimed: ClaimedAttempt } | { skipped: "not_found" | "not_pending" | "claimed_elsewhere" } | { skipped: "not_due"; nextAttemptAt: Date }> {
  // findUnique, not a statement of our own: Prisma answers the callers of one tick with one query, so
  // callers racing for an attempt all read its count before any of them claims it.
  const delivery = await db.delivery.findUnique({
    where: { id: input.deliveryId },
    select: { status: true, attemptCount: true, webhookId: true, nextAttemptAt: true },
  });
  if (!delivery) return { skipped: "not_found" };
  if (delivery.status !== "Pending") return { skipped: "not_pending" };
  const now = input.now ?? new Date();
  if (delivery.nextAttemptAt > now) return { skipped: "not_due", nextAttemptAt: delivery.nextAttemptAt };
  const where = Prisma.sql`d."id" = ${input.deliveryId} AND d."status" = 'Pending' AND d."attemptCount" = ${delivery.attemptCount}
    AND d."nextAttemptAt" <= ${now} AND (d."leasedUntil" IS NULL OR d."leasedUntil" < ${now} OR d."leasedBy" = ${input.workerId})`;
  const [row] = await db.$queryRaw<Row[]>(claimUpdate(input.workerId, new Date(now.getTime() + input.leaseMs), now, where));
  if (row) return { claimed: toClaimed(row) };
  // The claim joins the webhook: a delivery whose webhook is gone (a claim wrote it during the webhook's
  // deletion) is never claimed, and is as good as deleted until the purge job deletes it
  // (purgeOrphanDeliveries). Asked only here, off the path of a claim that succeeds.
  const webhook = await db.webhook.findUnique({ where: { id: delivery.webhookId }, select: { id: true } });
  return { skipped: webhook ? "claimed_elsewhere" : "not_found" };
}

/**
 * Hands back what a stopping worker holds and never sent (first attempts a claim wrote under its lease
 * and handed to it as it stopped): due at once, with the attempt they were claimed for uncounted, so
 * the next worker sends them as that attempt rather than logging it lost after the lease runs out.
 * Called once the worker has recorded every attempt it sent (those rows are no longer leased).
 */
export async function releaseLeases(db: Db, workerId: string): Promise<number> {
  const now = new Date();
  return db.$executeRaw`
    UPDATE "Delivery" SET "attemptCount" = "attemptCount" - 1, "leasedUntil" = NULL, "leasedBy" = NULL, "nextAttemptAt" = ${now}, "updatedAt" = ${now}
    WHERE "status" = 'Pending' AND "leasedBy" = ${workerId} AND "leasedUntil" >= ${now}`;
}

/** Due Pending deliveries no worker holds: the backlog a scrape of /metrics reports. */
export async function countDueDeliveries(db: Db): Promise<number> {
  const now = new Date();
  const [row] = await db.$queryRaw<[{ due: number }]>`
    SELECT count(*)::int AS "due" FROM "Delivery"
    WHERE "status" = 'Pending' AND "nextAttemptAt" <= ${now} AND ("leasedUntil" IS NULL OR "leasedUntil" < ${now})`;
  return row.due;
}
