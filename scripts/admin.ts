/**
 * Admin commands for automation, against the configured database (DATABASE_URL or the embedded one).
 *
 *   npm run admin -- bootstrap --email E --password P --org NAME
 *   npm run admin -- reencrypt-secrets
 *
 * bootstrap creates (or reuses) the account and the organisation it owns by that name, creates a
 * fresh API key, and prints one line of JSON: {"userId":...,"organizationId":...,"apiKey":...}.
 *
 * reencrypt-secrets, after an encryption key rotation (REFERLOOP_ENCRYPTION_KEY new,
 * REFERLOOP_ENCRYPTION_KEY_PREVIOUS old), rewrites every webhook secret with the current key and
 * prints one line of JSON counts: {"total":...,"reencrypted":...,"alreadyCurrent":...,"unreadable":...}.
 * Rerunning is safe. It exits 1 when some secret no configured key can read.
 */
import { parseArgs } from "node:util";
import { getDb } from "@/server/db/client";
import { newPasswordInput } from "@/server/domain/accounts/password-policy";
import { signUp } from "@/server/domain/accounts/sign-up";
import { verifyCredentials } from "@/server/domain/accounts/verify-credentials";
import { createApiKey } from "@/server/domain/api-keys/api-keys";
import { createOrganization } from "@/server/domain/organizations/create-organization";
import { reencryptWebhookSecrets } from "@/server/domain/webhooks/reencrypt-webhook-secrets";
import { checkRequiredSecrets } from "@/server/instance-secret";

const USAGE = "usage: npm run admin -- bootstrap --email E --password P --org NAME\n       npm run admin -- reencrypt-secrets";

async function bootstrap(email: string, password: string, orgName: string) {
  const db = await getDb();
  let user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (user && !(await verifyCredentials(db, email, password))) {
    throw new Error(`An account with e-mail ${email} exists and the password does not match.`);
  }
  let organizationId: string;
  if (!user) {
    const weak = (await newPasswordInput.safeParseAsync({ email, password })).error?.issues[0];
    if (weak) throw new Error(`The password ${weak.message}.`);
    const created = await signUp(db, { email, password, organizationName: orgName });
    user = created.user;
    organizationId = created.organization.id;
  } else {
    const userId = user.id;
    const owned = await db.membership.findFirst({
      where: { userId, role: "owner", organization: { name: orgName.trim() } },
      orderBy: { createdAt: "asc" },
    });
    organizationId = owned?.organizationId ?? (await db.$transaction((tx) => createOrganization(tx, userId, orgName))).id;
  }
  const key = await createApiKey(db, organizationId, { name: `bootstrap ${new Date().toISOString()}` });
  await db.$disconnect();
  return { userId: user.id, organizationId, apiKey: key.key };
}

async function reencryptSecrets() {
  const db = await getDb();
  const report = await reencryptWebhookSecrets(db);
  await db.$disconnect();
  process.stdout.write(JSON.stringify(report) + "\n");
  if (report.unreadable) throw new Error(`${report.unreadable} webhook secret(s) could not be decrypted with REFERLOOP_ENCRYPTION_KEY or REFERLOOP_ENCRYPTION_KEY_PREVIOUS.`);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: "string" }, password: { type: "string" }, org: { type: "string" } },
  });
  checkRequiredSecrets();
  if (command === "reencrypt-secrets" && !rest.length) return reencryptSecrets();
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
