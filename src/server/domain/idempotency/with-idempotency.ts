import type { Db } from "@/server/db/client";
import { conflict, DomainError, invalidField } from "@/server/domain/errors";

/** How long a stored response can be replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claimed key counts as in progress. A request that crashed mid-way frees its key after
 * this, instead of blocking it for the whole day.
 */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** `status` of a claimed key whose response is not stored yet. */
const IN_PROGRESS = 0;

export type IdempotencyRequest = {
  organizationId: string;
  /** The client's Idempotency-Key header. */
  key: string;
  /** Method and path, e.g. "POST /api/v1/public/projects/p1/referrals/reward". */
  scope: string;
  /** See hashRequest. */
  requestHash: string;
};

export type StoredResponse = { status: number; body: unknown };

/**
 * Runs `run` once per (organisation, key) and replays its response to retries for 24 hours. The key
 * is claimed by inserting a placeholder row before running, so concurrent first calls cannot both
 * run: the unique index lets one in, the other gets a 409 while the first is in flight.
 * Reusing a key for another request (different scope or body) is a 422. Only returned responses are
 * stored: if `run` throws, the claim is released and a retry runs again.
 */
export async function withIdempotency(
  db: Db,
  request: IdempotencyRequest,
  run: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  if (request.key === "" || request.key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw invalidField("Idempotency-Key", "length", `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`);
  }
  // A key freed between our claim attempt and our read (released or expired) can be claimed again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimId = await claimKey(db, request);
    if (claimId) return { ...(await runAndStore(db, claimId, run)), replayed: false };
    const stored = await storedResponse(db, request);
    if (stored) return { ...stored, replayed: true };
  }
  throw inProgress();
}

async function runAndStore(db: Db, claimId: string, run: () => Promise<StoredResponse>): Promise<StoredResponse> {
  let response: StoredResponse;
  try {
    response = await run();
  } catch (error) {
    await db.idempotencyRecord.deleteMany({ where: { id: claimId } });
    throw error;
  }
  // By id: if the lease ran out and another request took the key over, this finds nothing.
  await db.idempotencyRecord.updateMany({
    where: { id: claimId },
    data: {
      status: response.status,
      body: response.body === undefined ? "" : JSON.stringify(response.body),
      expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
    },
  });
  return response;
}

/** The placeholder's id if this call claimed the key; null if a live record holds it. */
async function claimKey(db: Db, request: IdempotencyRequest): Promise<string | null> {
  const { organizationId, key, scope, requestHash } = request;
  const now = new Date();
  await db.idempotencyRecord.deleteMany({ where: { organizationId, key, expiresAt: { lte: now } } });
  const [claimed] = await db.idempotencyRecord.createManyAndReturn({
    data: [
      {
        organizationId,
        key,
        scope,
        requestHash,
        status: IN_PROGRESS,
        body: "",
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      },
    ],
    skipDuplicates: true,
    select: { id: true },
  });
  return claimed?.id ?? null;
}

/** The stored response; null if no live record holds the key any more. */
async function storedResponse(db: Db, request: IdempotencyRequest): Promise<StoredResponse | null> {
  const record = await db.idempotencyRecord.findUnique({
    where: { organizationId_key: { organizationId: request.organizationId, key: request.key } },
  });
  if (!record || record.expiresAt <= new Date()) return null;
  if (record.scope !== request.scope || record.requestHash !== request.requestHash) {
    throw new DomainError(
      "unprocessable",
      "This Idempotency-Key was already used for a different request; use a new key for a new request.",
      [{ field: "Idempotency-Key", rule: "reused", message: "key already used with another method, path or body" }],
    );
  }
  if (record.status === IN_PROGRESS) throw inProgress();
  return { status: record.status, body: record.body === "" ? undefined : JSON.parse(record.body) };
}

const inProgress = () =>
  conflict("A request with this Idempotency-Key is in progress; retry after it completes.");
