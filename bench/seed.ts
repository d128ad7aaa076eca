/**
 * Bulk seeding in one SQL statement each: far faster than the domain functions, and deterministic
 * (values come from hashes of the row number, not random()), so runs are comparable.
 */
import type pg from "pg";
import { REFERRAL_CODE_LENGTH } from "@/server/domain/app-users/insert-app-user";

const CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const CODE_SPACE = BigInt(CODE_ALPHABET.length) ** BigInt(REFERRAL_CODE_LENGTH);
/** Odd and not a multiple of 31, so coprime with 62^6: n -> n * K + C (mod 62^6) is a bijection. */
const CODE_MULTIPLIER = 2654435761n;
const CODE_OFFSET = 12345678n;
/** Added to a row's number for the code it gets when its own is taken: beyond any seeded row's number. */
const CODE_RETRY_STRIDE = 1_000_000_000;

/** SQL for the unique 6-character referral code of row `n` (a scrambled base-62 rendering). */
const codeExpression = (n: string) => {
  const x = `((${n}::bigint * ${CODE_MULTIPLIER} + ${CODE_OFFSET}) % ${CODE_SPACE})`;
  return Array.from({ length: REFERRAL_CODE_LENGTH }, (_, k) => {
    const weight = BigInt(CODE_ALPHABET.length) ** BigInt(k);
    return `substr('${CODE_ALPHABET}', ((${x} / ${weight}) % ${CODE_ALPHABET.length})::int + 1, 1)`;
  }).join(" || ");
};

/** The code the seed gives row `n`, for searching by exact code. */
export function seededReferralCode(n: number): string {
  let x = (BigInt(n) * CODE_MULTIPLIER + CODE_OFFSET) % CODE_SPACE;
  let code = "";
  for (let k = 0; k < REFERRAL_CODE_LENGTH; k++) {
    code += CODE_ALPHABET[Number(x % BigInt(CODE_ALPHABET.length))];
    x /= BigInt(CODE_ALPHABET.length);
  }
  return code;
}

/**
 * Every tenth of the seeded users numbered `first`..`first + count - 1` referred by the row before it
 * (which must exist): a Completed tracking item and its reward, so that reading `referredBy` in the
 * list has referrers to find. The project must have its campaign.
 */
export async function seedReferredBy(client: pg.Client, projectId: string, count: number, first = 1) {
  await client.query(
    `WITH item AS (
       INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode", "status",
         "rewardClaimed", "rewardClaimedAt", "createdAt", "updatedAt")
       SELECT md5($1 || ':referred:' || n)::uuid::text, $1, c."id", ${seededAppUserIdSql("$1", "(n - 1)")}, ${seededAppUserIdSql("$1", "n")},
              ${codeExpression("(n - 1)")}, 'Completed', true, now(), now(), now()
       FROM generate_series($3::int, $3::int + $2::int - 1) AS n, "Campaign" c
       WHERE c."projectId" = $1 AND n % 10 = 0
       RETURNING "id", "referrerId", "refereeId", "rewardClaimedAt"
     )
     INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId", "eventName", "claimedAt")
     SELECT md5("id" || ':reward')::uuid::text, $1, "id", "referrerId", "refereeId", 'seeded', "rewardClaimedAt" FROM item`,
    [projectId, count, first],
  );
}

/** The client id the seed gives row `n`: `<prefix>000042` (at least 6 digits). */
export const seededClientId = (prefix: string, n: number) => `${prefix}${String(n).padStart(6, "0")}`;

/** The id the seed gives row `n` of a project (as the SQL computes it: md5 of "<projectId>:<n>" as a UUID). */
export const seededAppUserIdSql = (projectIdParam: string, n: string) => `md5(${projectIdParam} || ':' || ${n})::uuid::text`;

/** A deterministic number in [0, 1) for row `n` and stream `k`. */
const uniform = (k: number) => `((hashint4extended(n, ${k}) & 1073741823)::float8 / 1073741824)`;

/**
 * `count` app users in one project with realistic spread: created over the past year, 20% never
 * seen, 70% without referrals and a long tail up to ~200, successful <= given, a small attributes
 * object (seedReferredBy adds who referred whom).
 * Rows are numbered from `first`: ids, codes and client ids derive from the number, so ranges that
 * do not overlap can be seeded into one project. `inCreationOrder` writes the rows in the order of
 * their creation time, as an app that creates them over a year leaves its table; otherwise a row's
 * place in the table has nothing to do with its time, and reading in time order (an export) visits
 * a different page for nearly every row.
 */
export async function seedAppUsers(
  client: pg.Client,
  projectId: string,
  count: number,
  clientIdPrefix: string,
  first = 1,
  { inCreationOrder = false, contact = false } = {},
) {
  const numbered = `generate_series($2::int, $2::int + $3::int - 1) AS n`;
  // The app draws its users' codes at random, and one may be the code a seeded row would get (a
  // backlog seeded after the tracking runs hit one in about fifty full runs): such a row takes the
  // code of a number no seeded row has, as the app draws again.
  let seeded = 0;
  for (let attempt = 0; seeded < count; attempt++) {
    if (attempt === 3) throw new Error(`Seeded ${seeded} of ${count} app users: their ids or client ids are taken`);
    const { rowCount } = await client.query(
      `INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "attributes", "firstSeenAt",
         "lastSeenAt", "totalReferralsReceived", "createdAt", "updatedAt")
       SELECT ${seededAppUserIdSql("$1", "n")}, $1, $4 || lpad(n::text, GREATEST(6, length(n::text)), '0'), ${codeExpression(`(n + ${attempt * CODE_RETRY_STRIDE})`)},
              jsonb_build_object('plan', (ARRAY['free', 'pro', 'team'])[1 + n % 3]) ${contact ? `|| ${contactAttributesSql}` : ""},
              created, CASE WHEN ${uniform(2)} < 0.2 THEN NULL ELSE created + ${uniform(3)} * (now() - created) END,
              CASE WHEN ${uniform(4)} < 0.3 THEN 1 ELSE 0 END, created, created
       FROM ${numbered}, LATERAL (SELECT now() - ${uniform(1)} * interval '365 days' AS created) AS c
       ${attempt ? `WHERE NOT EXISTS (SELECT FROM "AppUser" u WHERE u."id" = ${seededAppUserIdSql("$1", "n")})` : ""}
       ${inCreationOrder ? "ORDER BY c.created" : ""}
       ON CONFLICT DO NOTHING`,
      [projectId, first, count, clientIdPrefix],
    );
    seeded += rowCount ?? 0;
  }
  // The counters: AppUser's trigger made them zero unless triggers are off (seedManyAppUsers); either way this sets them.
  await client.query(
    `INSERT INTO "AppUserCounters" ("appUserId", "projectId", "totalReferralsGiven", "successfulReferrals")
     SELECT ${seededAppUserIdSql("$1", "n")}, $1, given, floor(given * ${uniform(5)})::int
     FROM ${numbered}, LATERAL (SELECT CASE WHEN ${uniform(6)} < 0.7 THEN 0 ELSE floor(exp(${uniform(7)} * 5.3))::int END AS given) AS v
     ${inCreationOrder ? `ORDER BY ${uniform(1)} DESC` : ""}
     ON CONFLICT ("appUserId") DO UPDATE SET "totalReferralsGiven" = EXCLUDED."totalReferralsGiven",
       "successfulReferrals" = EXCLUDED."successfulReferrals"
     WHERE EXCLUDED."totalReferralsGiven" > 0`,
    [projectId, first, count],
  );
}

/** First and last names the contact attributes draw from (row n: FIRST_NAMES[n % 40], LAST_NAMES[(n / 40) % 40]). */
export const FIRST_NAMES = ["Olivia", "Liam", "Emma", "Noah", "Amelia", "Oliver", "Ava", "Elijah", "Sophia", "Lucas", "Mia", "Levi", "Isabella", "Mateo", "Evelyn", "Asher", "Harper", "James", "Luna", "Leo", "Camila", "Grayson", "Sofia", "Ezra", "Eleanor", "Luca", "Elizabeth", "Ethan", "Violet", "Aiden", "Scarlett", "Wyatt", "Emily", "Sebastian", "Hazel", "Jack", "Lily", "Hudson", "Gianna", "Daniel"];
export const LAST_NAMES = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores"];

/** Row n's `email` and `name` attributes: `Olivia Smith`, `olivia.smith.<n>@example.com` (unique by n). */
const contactAttributesSql = `jsonb_build_object(
  'name', (ARRAY['${FIRST_NAMES.join("','")}'])[1 + n % 40] || ' ' || (ARRAY['${LAST_NAMES.join("','")}'])[1 + (n / 40) % 40],
  'email', lower((ARRAY['${FIRST_NAMES.join("','")}'])[1 + n % 40] || '.' || (ARRAY['${LAST_NAMES.join("','")}'])[1 + (n / 40) % 40]) || '.' || n || '@example.com')`;

/** Row n's e-mail attribute as the seed writes it. */
export const seededEmail = (n: number) => `${FIRST_NAMES[n % 40]}.${LAST_NAMES[Math.floor(n / 40) % 40]}.${n}@example.com`.toLowerCase();
export const seededName = (n: number) => `${FIRST_NAMES[n % 40]} ${LAST_NAMES[Math.floor(n / 40) % 40]}`;

/**
 * `fill` in one transaction with the secondary indexes of `tables` dropped, then built again from their
 * own definitions (pg_get_indexdef: exactly what the migrations created), and, when the user may, without
 * per-row triggers (foreign keys, AppUser's counters row: the seed writes what they would). Millions of
 * rows take seconds this way instead of minutes through the live indexes. The rows must be valid: a
 * unique index rebuilt over duplicates fails the whole seed.
 */
export async function withIndexesRebuilt<T>(client: pg.Client, tables: readonly string[], fill: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
       WHERE i.schemaname = current_schema() AND i.tablename = ANY($1::text[])
         AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conname = i.indexname AND c.conrelid = format('%I.%I', i.schemaname, i.tablename)::regclass)`,
      [tables],
    );
    const { rows: [role] } = await client.query<{ rolsuper: boolean }>("SELECT rolsuper FROM pg_roles WHERE rolname = current_user");
    await client.query("SET LOCAL maintenance_work_mem = '512MB'");
    if (role?.rolsuper) await client.query("SET LOCAL session_replication_role = replica");
    // Otherwise the triggers run; deferred ones (RewardHistory's raise of the referrer's count) with
    // their statement, so that a count the seed writes afterwards is not raised again at the commit.
    else await client.query("SET CONSTRAINTS ALL IMMEDIATE");
    for (const index of indexes) await client.query(`DROP INDEX "${index.name.replaceAll('"', '""')}"`);
    const result = await fill();
    for (const index of indexes) await client.query(index.definition);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}
