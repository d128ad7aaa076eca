/**
 * The per-request cost of revocable sessions: what building a dashboard request's context reads from
 * the database, before (the user's memberships) and now (the session row checked and the memberships
 * loaded in one statement; lastSeenAt written at most once a minute by that statement).
 *
 *   npx tsx bench/session-check.ts        (DATABASE_ADMIN_URL or the local PostgreSQL)
 *
 * Runs the two in alternation on one connection pool, single-flight, and prints latency per request.
 * Both are one round trip; the difference is what PostgreSQL does inside it.
 */
import { openPostgres } from "@/server/db/client";
import { loadSessionAccess } from "@/server/domain/sessions/load-session-access";
import { sessionExpiry } from "@/server/domain/sessions/session-lifetime";
import { createMigratedDatabase, dropDatabase } from "./postgres";
import { summarize } from "./stats";

const DATABASE = `referloop_bench_sessions_${process.pid}`;
const USERS = 2_000;
const ROUNDS = 5_000;
const WARM_UP = 500;

const url = await createMigratedDatabase(DATABASE);
const db = openPostgres(url);
try {
  // Users in three organisations each, with two sessions each: a table of realistic shape.
  const orgs = await Promise.all(Array.from({ length: 50 }, (_, i) => db.organization.create({ data: { name: `Org ${i}`, clientId: `cl_bench_${i}` } })));
  const now = new Date();
  const users: { userId: string; sessionId: string }[] = [];
  for (let i = 0; i < USERS; i++) {
    const user = await db.user.create({ data: { email: `u${i}@bench.example`, passwordHash: "x" } });
    await db.membership.createMany({ data: [0, 1, 2].map((k) => ({ userId: user.id, organizationId: orgs[(i + k * 7) % orgs.length]!.id, role: "member" as const })) });
    const [session] = await db.session.createManyAndReturn({
      data: [0, 1].map(() => ({ userId: user.id, userAgent: "bench", lastSeenAt: now, expiresAt: sessionExpiry(now) })),
    });
    users.push({ userId: user.id, sessionId: session!.id });
  }
  await db.$executeRawUnsafe("ANALYZE");

  const before = (userId: string) => db.membership.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
  const after = (userId: string, sessionId: string, at: Date) => loadSessionAccess(db, userId, sessionId, at);
  const samples = { before: [] as number[], after: [] as number[], afterTouching: [] as number[] };
  const time = async (fn: () => Promise<unknown>) => {
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };
  for (let round = 0; round < WARM_UP + ROUNDS; round++) {
    const { userId, sessionId } = users[round % users.length]!;
    const b = await time(() => before(userId));
    // Within the minute: no write (the common case).
    const a = await time(() => after(userId, sessionId, now));
    // Past the minute: the statement also writes lastSeenAt (once a minute per session at most).
    const touching = await time(() => after(userId, sessionId, new Date(now.getTime() + (round + 1) * 61_000)));
    if (round < WARM_UP) continue;
    samples.before.push(b);
    samples.after.push(a);
    samples.afterTouching.push(touching);
  }
  const row = (label: string, ms: number[]) => {
    const s = summarize(ms);
    return `${label.padEnd(44)} p50 ${(s.p50 * 1000).toFixed(0).padStart(5)} µs   p95 ${(s.p95 * 1000).toFixed(0).padStart(5)} µs   mean ${(s.mean * 1000).toFixed(0).padStart(5)} µs`;
  };
  console.log(`${ROUNDS} requests each, ${USERS} users with 3 memberships and 2 sessions, one connection at a time`);
  console.log(row("before: memberships only", samples.before));
  console.log(row("now: session check + memberships (no write)", samples.after));
  console.log(row("now, when lastSeenAt is written (1/min)", samples.afterTouching));
} finally {
  await db.$disconnect();
  await dropDatabase(DATABASE);
}
