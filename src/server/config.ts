import path from "node:path";
import { z } from "zod";
import { trustedProxiesSchema, type TrustedProxies } from "@/server/domain/attribution/client-ip";

/**
 * The one reader of the environment: every setting is parsed and checked here, once, and the rest of
 * the app receives typed values (tests build a Config with loadConfig instead of changing the
 * environment). Everything has an embedded default, so a fresh checkout runs with no configuration.
 */

/** What a webhook or redirect URL may be: https only, and public addresses only (webhooks). */
export type UrlRules = { httpsOnly: boolean; publicOnly: boolean };

export type Config = {
  /**
   * Production mode tightens URL rules (https only, no private webhook targets). It follows NODE_ENV
   * unless REFERLOOP_ENV says otherwise, so a production build can be tested locally.
   */
  productionMode: boolean;
  /** PostgreSQL; unset means the embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** Folder of the embedded database and generated secrets. */
  dataDir: string;
  /** NEXTAUTH_SECRET; unset means generated into the data folder (refused where secrets are required). */
  authSecret: string | undefined;
  /** REFERLOOP_ENCRYPTION_KEY (webhook secrets at rest); unset means generated into the data folder. */
  encryptionKey: string | undefined;
  /** REFERLOOP_ENCRYPTION_KEY_PREVIOUS: the key before a rotation, which still decrypts and never encrypts. */
  previousEncryptionKey: string | undefined;
  /**
   * Production on PostgreSQL must be given its secrets: a generated one would differ per instance and
   * per disk, so other instances could not read sessions or decrypt webhook secrets. NODE_ENV, not
   * REFERLOOP_ENV, decides: relaxed URL rules do not make a deployment single-instance.
   */
  secretsRequired: boolean;
  /** `next dev`: the dashboard's CSP allows what the dev server needs (eval, inline styles). */
  devServer: boolean;
  /** Production mode sends the session cookie with `Secure` (and the `__Secure-` name prefix). */
  secureCookies: boolean;
  /** SMTP_URL (`smtp://user:pass@host:587`, `smtps://...`): e-mail goes through it; unset writes files to `<dataDir>/mail`. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the From of outgoing e-mail. */
  mailFrom: string;
  /** The one-line REST access log. */
  accessLog: boolean;
  urlRules: UrlRules;
  deliveries: {
    /** First retry delay; doubles per attempt, with jitter. */
    retryBaseMs: number;
    /** How often the embedded worker looks for other instances' due deliveries. */
    pollIntervalMs: number;
  };
  /** Deliveries go through Inngest (dev server, or cloud/self-hosted with both keys). */
  inngestEnabled: boolean;
  /**
   * The origin this app is reached at by the public (referral landing pages, uploaded icons):
   * REFERLOOP_PUBLIC_URL, else NEXTAUTH_URL's origin; unset means each request's own origin.
   */
  publicUrl: string | undefined;
  /**
   * REFERLOOP_TRUSTED_PROXIES: the reverse proxies whose `X-Forwarded-For` hops are believed when a
   * click's client address is read. Empty (the default): the TCP peer is the client.
   */
  trustedProxies: TrustedProxies;
};

const flag = z.enum(["true", "false", "1", "0"], { error: "must be true or false" }).transform((v) => v === "true" || v === "1");
const wholeMs = (min: number) =>
  z.coerce.number({ error: "must be a number of milliseconds" }).int({ error: "must be a whole number" }).min(min, { error: `must be at least ${min}` });

/** An http(s) URL, kept as its origin (scheme, host, port): what links and icon URLs are built on. */
const origin = z
  .string()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), { error: "must be an http(s) URL" })
  .transform((v) => new URL(v).origin);

const environment = z.object({
  NODE_ENV: z.string().optional(),
  REFERLOOP_ENV: z.enum(["production", "development"], { error: "must be production or development" }).optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, { error: "must be a postgresql:// URL" }).optional(),
  REFERLOOP_DATA_DIR: z.string().default(".data"),
  NEXTAUTH_SECRET: z.string().optional(),
  NEXTAUTH_URL: origin.optional(),
  REFERLOOP_PUBLIC_URL: origin.optional(),
  REFERLOOP_TRUSTED_PROXIES: trustedProxiesSchema,
  REFERLOOP_ENCRYPTION_KEY: z.string().optional(),
  REFERLOOP_ENCRYPTION_KEY_PREVIOUS: z.string().optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, { error: "must be an smtp:// or smtps:// URL" }).optional(),
  MAIL_FROM: z.string().default("Referloop <no-reply@localhost>"),
  REFERLOOP_ACCESS_LOG: flag.default(true),
  WEBHOOK_ALLOW_PRIVATE_URLS: flag.default(false),
  WEBHOOK_RETRY_BASE_MS: wholeMs(0).default(5_000),
  WEBHOOK_POLL_INTERVAL_MS: wholeMs(1).default(2_000),
  // The Inngest SDK reads these itself; here they only decide which scheduler runs.
  INNGEST_DEV: z.string().optional(),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
});

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses a whole environment; an empty variable counts as unset. Throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = environment.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message} (got ${JSON.stringify(present[String(i.path[0])])})`));
  }
  const e = parsed.data;
  const secretsRequired = Boolean(e.DATABASE_URL) && e.NODE_ENV === "production";
  const missing = ["NEXTAUTH_SECRET", "REFERLOOP_ENCRYPTION_KEY"].filter((name) => secretsRequired && !present[name]);
  if (missing.length) {
    throw new ConfigError([
      `Set ${missing.join(" and ")} before starting in production on PostgreSQL: every instance needs the same ` +
        `${missing.length > 1 ? "values" : "value"}, so ${missing.length > 1 ? "they are" : "it is"} not generated. ` +
        `Make ${missing.length > 1 ? "each" : "one"} with: openssl rand -base64 32`,
    ]);
  }
  const productionMode = e.REFERLOOP_ENV ? e.REFERLOOP_ENV === "production" : e.NODE_ENV === "production";
  const inngestDev = e.INNGEST_DEV !== undefined && !["0", "false"].includes(e.INNGEST_DEV.toLowerCase());
  return {
    productionMode,
    databaseUrl: e.DATABASE_URL,
    // turbopackIgnore: a runtime folder, not a build input (else the whole project is traced).
    dataDir: path.resolve(/* turbopackIgnore: true */ e.REFERLOOP_DATA_DIR),
    authSecret: e.NEXTAUTH_SECRET,
    encryptionKey: e.REFERLOOP_ENCRYPTION_KEY,
    previousEncryptionKey: e.REFERLOOP_ENCRYPTION_KEY_PREVIOUS,
    secretsRequired,
    devServer: e.NODE_ENV === "development",
    secureCookies: productionMode,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    accessLog: e.REFERLOOP_ACCESS_LOG,
    urlRules: { httpsOnly: productionMode, publicOnly: productionMode && !e.WEBHOOK_ALLOW_PRIVATE_URLS },
    deliveries: { retryBaseMs: e.WEBHOOK_RETRY_BASE_MS, pollIntervalMs: e.WEBHOOK_POLL_INTERVAL_MS },
    inngestEnabled: inngestDev || Boolean(e.INNGEST_EVENT_KEY && e.INNGEST_SIGNING_KEY),
    publicUrl: e.REFERLOOP_PUBLIC_URL ?? e.NEXTAUTH_URL,
    trustedProxies: e.REFERLOOP_TRUSTED_PROXIES,
  };
}

let current: Config | undefined;

/** This process's configuration, parsed on first use (instrumentation asks first, so a bad variable stops the start). */
export function getConfig(): Config {
  return (current ??= loadConfig());
}

/**
 * For the start of a process (server, worker, admin command): a bad configuration ends it with the
 * message. Exit rather than throw: Next.js logs a failing instrumentation hook and serves on regardless.
 */
export function getConfigOrExit(): Config {
  try {
    return getConfig();
  } catch (error) {
    console.error(`[referloop] ${(error as Error).message}`);
    process.exit(1);
  }
}
