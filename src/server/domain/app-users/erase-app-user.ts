import { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { shareCredits } from "@/server/domain/referrals/referral-credits";

/** What stands where an erased user's client id was, in stored delivery bodies and activity text. */
export const ERASED_MARK = "[erased]";

export type ErasedAppUser = { id: string; failedReferrals: number; redactedDeliveries: number; redactedInboundEvents: number };

type Tx = Prisma.TransactionClient;

/**
 * Erases an app user at their request (GDPR Art. 17 and the like), inside the caller's transaction:
 * - the user row goes, and with it their attributes, referral code (so their link no longer
 *   resolves), counters, timeline and where their client was seen; the client id is free again;
 * - tracking items and reward history that named them stay, with their status and the other party's
 *   counters, the erased party null and (on tracking items) marked erased;
 * - a Pending item of theirs becomes Failed (`user_erased`): as the referee's, nobody can complete it
 *   any more; as the referrer's, nobody would be credited. Its review, if held, goes;
 * - stored delivery bodies of their referrals, and their attempts' response excerpts, have the client
 *   id replaced (and the deliveries' key of them is nulled), and so do the other parties' timeline
 *   entries that named them;
 * - tracking items they referred keep their status, with the referral code replaced;
 * - inbound provider events (Stripe, RevenueCat) that named them as the referee have the id replaced;
 * - landing-page clicks attributed to them (address, device), and clicks on their link, are deleted;
 * - stored answers of idempotent requests that name them (their creation, with their attributes) are
 *   deleted: the same request with the same Idempotency-Key then acts as new instead of replaying
 *   the erased user (a placeholder answering a problem would have to keep the request's hash, made of
 *   their data, for a day);
 * - the audit log's details that name them (a bulk retry's `search`) have the value replaced. The
 *   erasure's own entry (and an export's) keep their uniqueId, a random id nothing links to them any more.
 * Nothing is sent to webhooks: no event exists for it, and the outbox is not touched.
 */
export async function eraseAppUser(tx: Tx, organizationId: string, projectId: string, uniqueId: string, now = new Date()): Promise<ErasedAppUser> {
  const project = await getOwnedProject(tx, organizationId, projectId);
  const [user] = await tx.$queryRaw<{ id: string; clientProvidedId: string; referralCode: string }[]>`
    SELECT "id", "clientProvidedId", "referralCode" FROM "AppUser" WHERE "id" = ${uniqueId} AND "projectId" = ${project.id} FOR UPDATE`;
  if (!user) throw notFound("App user");
  const theirs = Prisma.sql`SELECT "id" FROM "ReferralTracking" WHERE "referrerId" = ${user.id} OR "refereeId" = ${user.id}`;

  const failed = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "ReferralTracking" SET "status" = 'Failed', "failureReason" = 'user_erased', "updatedAt" = ${now}
    WHERE "id" IN (${theirs}) AND "status" = 'Pending'
    RETURNING "id"`;
  if (failed.length > 0) await tx.rewardReview.deleteMany({ where: { trackingId: { in: failed.map((f) => f.id) } } });
  await tx.$executeRaw`
    UPDATE "ReferralTracking" SET "referrerErased" = ("referrerId" IS NOT DISTINCT FROM ${user.id}) OR "referrerErased",
      "refereeErased" = ("refereeId" IS NOT DISTINCT FROM ${user.id}) OR "refereeErased",
      "referralCode" = CASE WHEN "referrerId" IS NOT DISTINCT FROM ${user.id} THEN ${ERASED_MARK} ELSE "referralCode" END
    WHERE "id" IN (${theirs})`;

  const redactedDeliveries = await redactDeliveries(tx, project.id, theirs, user.clientProvidedId);
  // The deliveries' own keys of the parties (Delivery.referrerId, no foreign key) go as the items' do.
  await tx.$executeRaw`
    UPDATE "Delivery" SET "referrerId" = NULLIF("referrerId", ${user.id}), "refereeId" = NULLIF("refereeId", ${user.id})
    WHERE "projectId" = ${project.id} AND "trackingId" IN (${theirs}) AND ${user.id} IN ("referrerId", "refereeId")`;
  await redactCounterpartActivity(tx, project.id, user.id, user.clientProvidedId);
  const redactedInboundEvents = await tx.$executeRaw`
    UPDATE "InboundEvent" SET "refereeId" = ${ERASED_MARK} WHERE "projectId" = ${project.id} AND "refereeId" = ${user.clientProvidedId}`;
  await tx.linkClick.deleteMany({ where: { projectId: project.id, OR: [{ matchedAppUserId: user.id }, { referralCode: user.referralCode }] } });
  const names = [user.id, user.clientProvidedId, user.referralCode];
  await deleteIdempotentAnswers(tx, organizationId, names);
  await redactAuditDetails(tx, organizationId, names);
  // The timeline and the reward history name the user without a foreign key (the reward's statement
  // would lock the user's row), so what ON DELETE did is done here: the user's entries go, and the
  // rewards stay with the user nulled.
  await tx.$executeRaw`DELETE FROM "Activity" WHERE "appUserId" = ${user.id}`;
  await tx.$executeRaw`
    UPDATE "RewardHistory" SET "referrerId" = NULLIF("referrerId", ${user.id}), "refereeId" = NULLIF("refereeId", ${user.id})
    WHERE "referrerId" = ${user.id} OR "refereeId" = ${user.id}`;
  // Their rewards' credits not yet folded go with their counters (after a fold in progress).
  await shareCredits(tx);
  await tx.$executeRaw`DELETE FROM "ReferralCredit" WHERE "appUserId" = ${user.id}`;
  // Cascades to counters and sightings; tracking items keep their rows (SET NULL).
  await tx.appUser.delete({ where: { id: user.id } });
  return { id: user.id, failedReferrals: failed.length, redactedDeliveries, redactedInboundEvents };
}

/** Stored answers (JSON) with one of `names` as a string value: the user's creation, a tracking of them, ... */
async function deleteIdempotentAnswers(tx: Tx, organizationId: string, names: string[]): Promise<void> {
  const named = names.map((name) => Prisma.sql`strpos("body", ${JSON.stringify(name)}) > 0`);
  await tx.$executeRaw`DELETE FROM "IdempotencyRecord" WHERE "organizationId" = ${organizationId} AND (${Prisma.join(named, " OR ")})`;
}

/** Audit details (a bulk retry's filter) naming the user: each such string becomes ERASED_MARK. */
async function redactAuditDetails(tx: Tx, organizationId: string, names: string[]): Promise<void> {
  const named = names.map((name) => Prisma.sql`strpos(lower("details"::text), ${JSON.stringify(name).slice(1, -1).toLowerCase()}) > 0`);
  const entries = await tx.$queryRaw<{ id: string; details: Prisma.JsonValue }[]>`
    SELECT "id", "details" FROM "AuditEntry" WHERE "organizationId" = ${organizationId} AND "details" IS NOT NULL AND (${Prisma.join(named, " OR ")})`;
  const lowered = names.map((name) => name.toLowerCase());
  // Equal to a name (any case, trimmed); or containing one long enough not to be found in any text by chance.
  const mentions = (text: string) => lowered.some((name) => text.trim().toLowerCase() === name || (name.length >= 6 && text.toLowerCase().includes(name)));
  const redact = (value: Prisma.JsonValue): Prisma.JsonValue => {
    if (typeof value === "string") return mentions(value) ? ERASED_MARK : value;
    if (Array.isArray(value)) return value.map(redact);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v ?? null)]));
    return value;
  };
  for (const entry of entries) {
    const details = redact(entry.details);
    if (JSON.stringify(details) !== JSON.stringify(entry.details)) await tx.auditEntry.update({ where: { id: entry.id }, data: { details: details as Prisma.InputJsonValue } });
  }
}

/** Every top-level field of a stored body that is the client id (referrerId, refereeId) becomes ERASED_MARK. */
async function redactDeliveries(tx: Tx, projectId: string, theirs: Prisma.Sql, clientId: string): Promise<number> {
  const id = Prisma.sql`to_jsonb(${clientId}::text)`;
  const deliveries = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "Delivery" d SET "payload" = (
      SELECT jsonb_object_agg(e.key, CASE WHEN e.value = ${id} THEN to_jsonb(${ERASED_MARK}::text) ELSE e.value END)
      FROM jsonb_each(d."payload") e)
    WHERE d."projectId" = ${projectId} AND d."trackingId" IN (${theirs}) AND jsonb_typeof(d."payload") = 'object'
      AND EXISTS (SELECT FROM jsonb_each(d."payload") e WHERE e.value = ${id})
    RETURNING d."id"`;
  // A receiver may echo the body: the excerpts kept of its answers lose the id too.
  await tx.$executeRaw`
    UPDATE "DeliveryAttempt" SET "responseExcerpt" = replace("responseExcerpt", ${clientId}, ${ERASED_MARK})
    WHERE "deliveryId" IN (SELECT "id" FROM "Delivery" WHERE "projectId" = ${projectId} AND "trackingId" IN (${theirs}))
      AND strpos("responseExcerpt", ${clientId}) > 0`;
  return deliveries.length;
}

/**
 * The other parties' timeline entries name the user ("ada earned a reward: bob completed ..."). The id
 * is replaced where it stands as a word (after a start, space, quote or bracket; before an end, space
 * or punctuation), so a short id such as "1" does not take digits out of other words.
 */
async function redactCounterpartActivity(tx: Tx, projectId: string, userId: string, clientId: string): Promise<void> {
  const pattern = `(^|[[:space:]"(])${clientId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=[[:space:].,:;)"]|$)`;
  await tx.$executeRaw`
    UPDATE "Activity" SET "description" = regexp_replace("description", ${pattern}, ${`\\1${ERASED_MARK}`}, 'g')
    WHERE "projectId" = ${projectId} AND strpos("description", ${clientId}) > 0
      AND "appUserId" IN (
        SELECT "referrerId" FROM "ReferralTracking" WHERE "refereeId" = ${userId}
        UNION SELECT "refereeId" FROM "ReferralTracking" WHERE "referrerId" = ${userId})`;
}
