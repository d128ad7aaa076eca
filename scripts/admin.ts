/**
 * Admin commands for automation, against the configured database (DATABASE_URL or the embedded one).
 *
 *   npm run admin -- bootstrap --email E --password P --org NAME
 *   npm run admin -- reencrypt-secrets
 *   npm run admin -- rate-limits --org ORGANISATION_ID [--api N|default] [--sdk N|default]
 *   npm run admin -- copy-icons-to-bucket [--remove-from-database]
 *
 * bootstrap creates (or reuses) the account and the organisation it owns by that name, creates a
 * fresh API key, and prints one line of JSON: {"userId":...,"organizationId":...,"apiKey":...}.
 *
 * reencrypt-secrets, after an encryption key rotation (REFERLOOP_ENCRYPTION_KEY new,
 * REFERLOOP_ENCRYPTION_KEY_PREVIOUS old), rewrites every webhook secret and project secret with the current key and
 * prints one line of JSON counts: {"total":...,"reencrypted":...,"alreadyCurrent":...,"unreadable":...}.
 * Rerunning is safe. It exits 1 when some secret no configured key can read.
 *
 * rate-limits shows, or with --api / --sdk sets, an organisation's own request quotas per minute (per
 * API key, and per project key and client IP on the client-library endpoints): a whole number, 0 for
 * no limit, or `default` for the server-wide setting. An operator's decision, not the organisation's,
 * so it is not in the dashboard. Instances pick a change up within a minute. Prints one line of JSON:
 * {"organizationId":...,"apiPerMinute":...,"sdkPerMinute":...} (null: the server's default).
 *
 * copy-icons-to-bucket, once ICON_BUCKET_URL and its credentials are set, copies the app icons kept in
 * the database into the bucket, each verified by reading it back; --remove-from-database then deletes
 * each verified row. Rerunning is safe. Prints {"total":...,"copied":...,"removedFromDatabase":...}.
 */
import { parseArgs } from "node:util";
import { emailSchema, organizationNameSchema, quotaPerMinuteSchema, signUpBody } from "@/lib/schemas/accounts";
import { getConfigOrExit } from "@/server/config";
import { getDb } from "@/server/db/client";
import { signUp } from "@/server/domain/accounts/sign-up";
import { verifyCredentials } from "@/server/domain/accounts/verify-credentials";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";
import { createOrganization } from "@/server/domain/organizations/create-organization";
import { getOrganizationRateLimits, setOrganizationRateLimits } from "@/server/domain/organizations/organization-rate-limits";
import { reencryptSecrets as reencryptStoredSecrets } from "@/server/domain/webhooks/reencrypt-secrets";
import { copyIconsToBucket as copyStoredIcons } from "@/server/domain/icons/copy-icons-to-bucket";
import { bucketIconStore } from "@/server/domain/icons/icon-store";

const USAGE = [
  "usage: npm run admin -- bootstrap --email E --password P --org NAME",
  "       npm run admin -- reencrypt-secrets",
  "       npm run admin -- rate-limits --org ORGANISATION_ID [--api N|default] [--sdk N|default]",
  "       npm run admin -- copy-icons-to-bucket [--remove-from-database]",
].join("\n");

/** The same rules as the dashboard's forms: a new account gets the sign-up rules (password policy included). */
async function bootstrap(rawEmail: string, password: string, rawOrg: string) {
  const email = emailSchema.parse(rawEmail);
  const orgName = organizationNameSchema.parse(rawOrg);
  const db = await getDb();
  let user = await db.user.findUnique({ where: { email } });
  if (user && !(await verifyCredentials(db, email, password))) {
    throw new Error(`An account with e-mail ${email} exists and the password does not match.`);
  }
  let organizationId: string;
  if (!user) {
    const input = await signUpBody.safeParseAsync({ email, password, organizationName: orgName });
    if (!input.success) throw new Error(input.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; "));
    const created = await signUp(db, input.data);
    user = created.user;
    organizationId = created.organization.id;
  } else {
    const userId = user.id;
    const owned = await db.membership.findFirst({
      where: { userId, role: "owner", organization: { name: orgName } },
      orderBy: { createdAt: "asc" },
    });
    organizationId = owned?.organizationId ?? (await createOrganization(db, userId, orgName)).id;
  }
  // An owner key recorded as the account's own: removing the account from the organisation revokes it.
  const key = await createApiKey(db, organizationId, { name: `bootstrap ${new Date().toISOString()}`, role: "owner" }, { userId: user.id, email: user.email });
  await db.$disconnect();
  return { userId: user.id, organizationId, apiKey: key.key };
}

async function reencryptSecrets() {
  const db = await getDb();
  const report = await reencryptStoredSecrets(db);
  await db.$disconnect();
  process.stdout.write(JSON.stringify(report) + "\n");
  if (report.unreadable) throw new Error(`${report.unreadable} secret(s) could not be decrypted with REFERLOOP_ENCRYPTION_KEY or REFERLOOP_ENCRYPTION_KEY_PREVIOUS.`);
}

async function rateLimits(organizationId: string, api: string | undefined, sdk: string | undefined) {
  const parse = (flag: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const parsed = quotaPerMinuteSchema.safeParse(value);
    if (!parsed.success) throw new Error(`--${flag} ${parsed.error.issues[0]?.message ?? "is not valid"} (got ${JSON.stringify(value)})`);
    return parsed.data;
  };
  const changes = { apiPerMinute: parse("api", api), sdkPerMinute: parse("sdk", sdk) };
  const db = await getDb();
  const limits =
    changes.apiPerMinute === undefined && changes.sdkPerMinute === undefined
      ? await getOrganizationRateLimits(db, organizationId, { mustExist: true })
      : await setOrganizationRateLimits(db, organizationId, changes);
  await db.$disconnect();
  process.stdout.write(JSON.stringify({ organizationId, ...limits }) + "\n");
}

async function copyIconsToBucket(removeFromDatabase: boolean) {
  const { iconBucket } = getConfigOrExit();
  if (!iconBucket) throw new Error("ICON_BUCKET_URL is not set: there is no bucket to copy the icons to.");
  const db = await getDb();
  try {
    process.stdout.write(JSON.stringify(await copyStoredIcons(db, bucketIconStore(iconBucket), { removeFromDatabase })) + "\n");
  } finally {
    await db.$disconnect();
  }
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      org: { type: "string" },
      api: { type: "string" },
      sdk: { type: "string" },
      "remove-from-database": { type: "boolean" },
    },
  });
  getConfigOrExit();
  if (command === "reencrypt-secrets" && !rest.length) return reencryptSecrets();
  if (command === "copy-icons-to-bucket" && rest.every((arg) => arg === "--remove-from-database")) {
    return copyIconsToBucket(values["remove-from-database"] ?? false);
  }
  if (command === "rate-limits" && values.org && !values.email && !values.password) return rateLimits(values.org, values.api, values.sdk);
  if (command !== "bootstrap" || !values.email || !values.password || !values.org) {
    console.error(USAGE);
    process.exit(2);
  }
  const result = await bootstrap(values.email, values.password, values.org);
  process.stdout.write(JSON.stringify(result) + "\n");
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`admin: ${error.message}`);
    process.exit(1);
  },
);
