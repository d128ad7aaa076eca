import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { trustedProxiesSchema, type TrustedProxies } from "@/server/http/client-ip";

/**
 * The one reader of the environment: every setting is parsed and checked here, once, and the rest of
 * the app receives typed values (tests build a Config with loadConfig instead of changing the
 * environment). Everything has an embedded default, so a fresh checkout runs with no configuration.
 */

/**
 * What a webhook or redirect URL may be: https only (unless REFERLOOP_ALLOW_HTTP_URLS), and for
 * webhooks public addresses only (unless WEBHOOK_ALLOW_PRIVATE_URLS). The cloud metadata and
 * link-local ranges are refused whatever is set (private-address.ts).
 */
export type UrlRules = { httpsOnly: boolean; publicOnly: boolean };

/*
 * Every guard is on by default and relaxed only by its own named setting, whatever NODE_ENV says: a
 * production build run for staging or a demo is as reachable as production. `npm run dev` turns the
 * conveniences of a developer's machine on explicitly (scripts/dev.env), and each relaxation in force
 * is announced at start (relaxations below).
 */
export type Config = {
  /** PostgreSQL; unset means the embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** DATABASE_POOL_SIZE: connections each process keeps to PostgreSQL (databasePoolSize). */
  databasePoolSize: number;
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
   * per disk, so other instances could not read sessions or decrypt webhook secrets. NODE_ENV decides:
   * relaxed guards do not make a deployment single-instance.
   */
  secretsRequired: boolean;
  /** `next dev`: the dashboard's CSP allows what the dev server needs (eval, inline styles). */
  devServer: boolean;
  /** The session cookie is `Secure` (with the `__Secure-` name prefix); REFERLOOP_ALLOW_INSECURE_COOKIES turns it off. */
  secureCookies: boolean;
  /** Dashboard pages send HSTS and `upgrade-insecure-requests`; REFERLOOP_DISABLE_HSTS turns both off. */
  hsts: boolean;
  /** REFERLOOP_DEV_MAILBOX: /dev/mail lists the e-mail written to the data folder, to loopback clients only. */
  devMailbox: boolean;
  /**
   * REFERLOOP_ALLOW_HOST_LINKS: without a configured public URL, e-mailed links (password reset among
   * them) may be built on the request's Host header, which a caller can forge. Off: they are refused.
   */
  hostLinks: boolean;
  /** SMTP_URL (`smtp://user:pass@host:587`, `smtps://...`): e-mail goes through it; unset writes files to `<dataDir>/mail`. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the From of outgoing e-mail. */
  mailFrom: string;
  /** One log line per request (REFERLOOP_ACCESS_LOG). */
  accessLog: boolean;
  /** LOG_LEVEL: the least severe level written. */
  logLevel: LogLevel;
  /** The front door (src/server.ts): where it listens, how many processes share the port, how long a shutdown waits. */
  server: {
    port: number;
    hostname: string;
    /** REFERLOOP_WORKERS: server processes sharing the port (the embedded database, which one process owns, runs one). */
    processes: number;
    /** SHUTDOWN_TIMEOUT_MS: how long SIGTERM waits for requests in flight before closing their connections. */
    shutdownTimeoutMs: number;
  };
  /** METRICS_TOKEN: /metrics answers a bearer of this token; unset, /metrics is not served. */
  metricsToken: string | undefined;
  urlRules: UrlRules;
  deliveries: {
    /** First retry delay; doubles per attempt, with jitter. */
    retryBaseMs: number;
    /** How often the embedded worker looks for other instances' due deliveries. */
    pollIntervalMs: number;
    /** WEBHOOK_BODY_RETENTION_DAYS: how long finished deliveries keep their request and response bodies. */
    bodyRetentionDays: number;
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
   * client's address is read (per-IP limits, landing-page clicks, the address of sessions and audit
   * entries; see requestClientIp). Empty (the default): the TCP peer is the client.
   */
  trustedProxies: TrustedProxies;
  /** REDIS_URL: rate-limit counters shared by every instance; unset keeps them in this process. */
  redisUrl: string | undefined;
  /** REDIS_KEY_PREFIX: namespaces Referloop's keys in a shared Redis. */
  redisKeyPrefix: string;
  /** Server-wide rate limits; 0 switches one off. Organisations may have their own API and SDK quotas. */
  rateLimits: RateLimitSettings;
  /** ICON_BUCKET_*: uploaded app icons go to this S3-compatible bucket; unset keeps them in the database. */
  iconBucket: IconBucket | undefined;
};

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** An S3-compatible bucket, addressed path-style (`{endpoint}/{bucket}/{key}`), signed with AWS Signature V4. */
export type IconBucket = { url: string; region: string; accessKeyId: string; secretAccessKey: string };

export type RateLimitSettings = {
  /** Requests per minute per API key (REST). */
  apiKeyPerMinute: number;
  /** Requests per minute per project key and client IP (client-library endpoints). */
  sdkPerMinute: number;
  /** Dashboard calls per minute per signed-in user. */
  dashboardPerMinute: number;
  /** Calls per minute per inbound hook token (Stripe and RevenueCat hooks together). */
  inboundHookPerMinute: number;
  /** Sign-in attempts per hour from one IP address. */
  signInPerIpPerHour: number;
  /** Sign-ups per hour from one IP address, and per e-mail address. */
  signUpPerIpPerHour: number;
  signUpPerEmailPerHour: number;
  /** Signed-out calls that e-mail an address (password reset, a new verification link): per hour per IP, and per address. */
  accountEmailsPerIpPerHour: number;
  accountEmailsPerAddressPerHour: number;
  /** Calls that present an e-mailed link's token (password reset, e-mail verification, invitations): per hour per IP. */
  accountLinksPerIpPerHour: number;
  /** Bulk delivery retries per hour per organisation (each may queue thousands of sends). */
  bulkRetryPerHour: number;
  /** Landing-page click beacons per minute from one IP. */
  landingClicksPerIpPerMinute: number;
  /** CSV exports per hour per organisation (each may read a million rows). */
  exportsPerHour: number;
  /** Consecutive failed sign-ins of one e-mail address that lock it, and for how long. */
  signInLockoutFailures: number;
  signInLockoutSeconds: number;
};

const flag = z.enum(["true", "false", "1", "0"], { error: "must be true or false" }).transform((v) => v === "true" || v === "1");
const count = (min: number) =>
  z.coerce.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(min, { error: `must be at least ${min}` });
const wholeMs = (min: number) =>
  z.coerce.number({ error: "must be a number of milliseconds" }).int({ error: "must be a whole number" }).min(min, { error: `must be at least ${min}` });

/** An http(s) URL, kept as its origin (scheme, host, port): what links and icon URLs are built on. */
const origin = z
  .string()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), { error: "must be an http(s) URL" })
  .transform((v) => new URL(v).origin);

/** The settings that relax a guard, each announced at start while in force. */
export const RELAXATION_SETTINGS = [
  "REFERLOOP_DEV_MAILBOX",
  "WEBHOOK_ALLOW_PRIVATE_URLS",
  "REFERLOOP_ALLOW_HTTP_URLS",
  "REFERLOOP_ALLOW_INSECURE_COOKIES",
  "REFERLOOP_DISABLE_HSTS",
  "REFERLOOP_ALLOW_HOST_LINKS",
] as const;

const environment = z.object({
  NODE_ENV: z.string().optional(),
  // It used to relax every guard at once; refused, so a server that set it does not silently change.
  REFERLOOP_ENV: z
    .string()
    .refine(() => false, { error: `is no longer read: each guard has its own setting (${RELAXATION_SETTINGS.join(", ")}); remove it and set those you need` })
    .optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, { error: "must be a postgresql:// URL" }).optional(),
  DATABASE_POOL_SIZE: count(1).optional(),
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
  REFERLOOP_DEV_MAILBOX: flag.default(false),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  PORT: z.coerce.number({ error: "must be a port number" }).int({ error: "must be a port number" }).min(0).max(65535, { error: "must be a port number" }).default(3000),
  HOSTNAME: z.string().default("0.0.0.0"),
  REFERLOOP_WORKERS: z
    .string()
    .regex(/^(auto|[1-9]\d{0,2})$/, { error: "must be a number of processes (1 to 999) or auto (one per core)" })
    .default("1"),
  SHUTDOWN_TIMEOUT_MS: wholeMs(0).default(10_000),
  METRICS_TOKEN: z.string().min(16, { error: "must be at least 16 characters (it guards /metrics)" }).optional(),
  WEBHOOK_ALLOW_PRIVATE_URLS: flag.default(false),
  REFERLOOP_ALLOW_HTTP_URLS: flag.default(false),
  REFERLOOP_ALLOW_INSECURE_COOKIES: flag.default(false),
  REFERLOOP_DISABLE_HSTS: flag.default(false),
  REFERLOOP_ALLOW_HOST_LINKS: flag.default(false),
  WEBHOOK_RETRY_BASE_MS: wholeMs(0).default(5_000),
  WEBHOOK_POLL_INTERVAL_MS: wholeMs(1).default(2_000),
  WEBHOOK_BODY_RETENTION_DAYS: count(1).default(30),
  // The Inngest SDK reads these itself; here they only decide which scheduler runs.
  INNGEST_DEV: z.string().optional(),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, { error: "must be a redis:// or rediss:// URL" }).optional(),
  REDIS_KEY_PREFIX: z.string().regex(/^[\w.:-]{1,64}$/, { error: "must be 1 to 64 letters, digits, _ . : or -" }).default("referloop"),
  RATE_LIMIT_API_KEY_PER_MINUTE: count(0).default(600),
  RATE_LIMIT_SDK_PER_MINUTE: count(0).default(300),
  RATE_LIMIT_DASHBOARD_PER_MINUTE: count(0).default(600),
  RATE_LIMIT_INBOUND_HOOK_PER_MINUTE: count(0).default(600),
  RATE_LIMIT_SIGN_IN_PER_IP_PER_HOUR: count(0).default(100),
  RATE_LIMIT_SIGN_UP_PER_IP_PER_HOUR: count(0).default(20),
  RATE_LIMIT_SIGN_UP_PER_EMAIL_PER_HOUR: count(0).default(5),
  RATE_LIMIT_ACCOUNT_EMAILS_PER_IP_PER_HOUR: count(0).default(20),
  RATE_LIMIT_ACCOUNT_EMAILS_PER_ADDRESS_PER_HOUR: count(0).default(5),
  RATE_LIMIT_ACCOUNT_LINKS_PER_IP_PER_HOUR: count(0).default(60),
  RATE_LIMIT_BULK_RETRY_PER_HOUR: count(0).default(30),
  RATE_LIMIT_LANDING_CLICKS_PER_IP_PER_MINUTE: count(0).default(60),
  RATE_LIMIT_EXPORTS_PER_HOUR: count(0).default(60),
  SIGN_IN_LOCKOUT_FAILURES: count(0).default(5),
  SIGN_IN_LOCKOUT_SECONDS: count(1).default(900),
  ICON_BUCKET_URL: z
    .string()
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol) && new URL(v).pathname.length > 1, {
      error: "must be an http(s) URL naming the bucket, like https://s3.eu-west-1.amazonaws.com/my-bucket",
    })
    .transform((v) => v.replace(/\/+$/, ""))
    .optional(),
  ICON_BUCKET_REGION: z.string().default("us-east-1"),
  ICON_BUCKET_ACCESS_KEY_ID: z.string().optional(),
  ICON_BUCKET_SECRET_ACCESS_KEY: z.string().optional(),
});

/**
 * The connections a process keeps when DATABASE_POOL_SIZE is unset: twice the cores (the PostgreSQL
 * wiki's starting point, with nothing waiting on disk), shared among the server processes
 * (REFERLOOP_WORKERS). Backends beyond what the cores run at once only take turns on them: on 2 cores,
 * 4 connections rather than pg's default 10 raised the reward's rate by about a fifth and the
 * track's by a tenth, with less CPU per request (bench/README.md).
 */
function databasePoolSize(processes: number): number {
  return Math.max(2, Math.ceil((2 * availableParallelism()) / processes));
}

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
  const bucketKeys = ["ICON_BUCKET_ACCESS_KEY_ID", "ICON_BUCKET_SECRET_ACCESS_KEY"].filter((name) => e.ICON_BUCKET_URL && !present[name]);
  if (bucketKeys.length) throw new ConfigError([`ICON_BUCKET_URL is set: set ${bucketKeys.join(" and ")} too (the bucket's credentials)`]);
  const processes = e.REFERLOOP_WORKERS === "auto" ? availableParallelism() : Number(e.REFERLOOP_WORKERS);
  const inngestDev = e.INNGEST_DEV !== undefined && !["0", "false"].includes(e.INNGEST_DEV.toLowerCase());
  return {
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE ?? databasePoolSize(processes),
    // turbopackIgnore: a runtime folder, not a build input (else the whole project is traced).
    dataDir: path.resolve(/* turbopackIgnore: true */ e.REFERLOOP_DATA_DIR),
    authSecret: e.NEXTAUTH_SECRET,
    encryptionKey: e.REFERLOOP_ENCRYPTION_KEY,
    previousEncryptionKey: e.REFERLOOP_ENCRYPTION_KEY_PREVIOUS,
    secretsRequired,
    devServer: e.NODE_ENV === "development",
    secureCookies: !e.REFERLOOP_ALLOW_INSECURE_COOKIES,
    hsts: !e.REFERLOOP_DISABLE_HSTS,
    devMailbox: e.REFERLOOP_DEV_MAILBOX,
    hostLinks: e.REFERLOOP_ALLOW_HOST_LINKS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    accessLog: e.REFERLOOP_ACCESS_LOG,
    logLevel: e.LOG_LEVEL,
    server: { port: e.PORT, hostname: e.HOSTNAME, processes, shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS },
    metricsToken: e.METRICS_TOKEN,
    urlRules: { httpsOnly: !e.REFERLOOP_ALLOW_HTTP_URLS, publicOnly: !e.WEBHOOK_ALLOW_PRIVATE_URLS },
    deliveries: { retryBaseMs: e.WEBHOOK_RETRY_BASE_MS, pollIntervalMs: e.WEBHOOK_POLL_INTERVAL_MS, bodyRetentionDays: e.WEBHOOK_BODY_RETENTION_DAYS },
    inngestEnabled: inngestDev || Boolean(e.INNGEST_EVENT_KEY && e.INNGEST_SIGNING_KEY),
    publicUrl: e.REFERLOOP_PUBLIC_URL ?? e.NEXTAUTH_URL,
    trustedProxies: e.REFERLOOP_TRUSTED_PROXIES,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    rateLimits: {
      apiKeyPerMinute: e.RATE_LIMIT_API_KEY_PER_MINUTE,
      sdkPerMinute: e.RATE_LIMIT_SDK_PER_MINUTE,
      dashboardPerMinute: e.RATE_LIMIT_DASHBOARD_PER_MINUTE,
      inboundHookPerMinute: e.RATE_LIMIT_INBOUND_HOOK_PER_MINUTE,
      signInPerIpPerHour: e.RATE_LIMIT_SIGN_IN_PER_IP_PER_HOUR,
      signUpPerIpPerHour: e.RATE_LIMIT_SIGN_UP_PER_IP_PER_HOUR,
      signUpPerEmailPerHour: e.RATE_LIMIT_SIGN_UP_PER_EMAIL_PER_HOUR,
      accountEmailsPerIpPerHour: e.RATE_LIMIT_ACCOUNT_EMAILS_PER_IP_PER_HOUR,
      accountEmailsPerAddressPerHour: e.RATE_LIMIT_ACCOUNT_EMAILS_PER_ADDRESS_PER_HOUR,
      accountLinksPerIpPerHour: e.RATE_LIMIT_ACCOUNT_LINKS_PER_IP_PER_HOUR,
      bulkRetryPerHour: e.RATE_LIMIT_BULK_RETRY_PER_HOUR,
      landingClicksPerIpPerMinute: e.RATE_LIMIT_LANDING_CLICKS_PER_IP_PER_MINUTE,
      exportsPerHour: e.RATE_LIMIT_EXPORTS_PER_HOUR,
      signInLockoutFailures: e.SIGN_IN_LOCKOUT_FAILURES,
      signInLockoutSeconds: e.SIGN_IN_LOCKOUT_SECONDS,
    },
    iconBucket: e.ICON_BUCKET_URL
      ? { url: e.ICON_BUCKET_URL, region: e.ICON_BUCKET_REGION, accessKeyId: e.ICON_BUCKET_ACCESS_KEY_ID!, secretAccessKey: e.ICON_BUCKET_SECRET_ACCESS_KEY! }
      : undefined,
  };
}

/**
 * One line per guard relaxed in this configuration, for the start of a process to print as a
 * warning (empty when every guard is on).
 */
export function relaxations(config: Config): string[] {
  return [
    config.devMailbox && "REFERLOOP_DEV_MAILBOX=true: /dev/mail shows every e-mail written to the data folder (reset links included) to loopback clients",
    !config.urlRules.publicOnly && "WEBHOOK_ALLOW_PRIVATE_URLS=true: webhooks may target loopback and private addresses (metadata and link-local stay refused)",
    !config.urlRules.httpsOnly && "REFERLOOP_ALLOW_HTTP_URLS=true: webhook URLs, redirect links and allowed origins may use plain http",
    !config.secureCookies && "REFERLOOP_ALLOW_INSECURE_COOKIES=true: the session cookie is sent without Secure, over plain http too",
    !config.hsts && "REFERLOOP_DISABLE_HSTS=true: dashboard pages send no Strict-Transport-Security and do not upgrade requests to https",
    config.hostLinks && !config.publicUrl && "REFERLOOP_ALLOW_HOST_LINKS=true: e-mailed links (password reset included) are built on the request's Host header",
  ].filter((line): line is string => typeof line === "string");
}

/** Prints relaxations(config) as warnings, one line each. */
export function warnAboutRelaxations(config: Config, warn: (line: string) => void = console.warn): void {
  for (const line of relaxations(config)) warn(`[referloop] guard relaxed: ${line}`);
}

let current: Config | undefined;

/** This process's configuration, parsed on first use (the server asks first, so a bad variable stops the start). */
export function getConfig(): Config {
  return (current ??= loadConfig());
}

/**
 * For the start of a process (server, worker, admin command): a bad configuration ends it with the
 * message, rather than a stack trace.
 */
export function getConfigOrExit(): Config {
  try {
    return getConfig();
  } catch (error) {
    console.error(`[referloop] ${(error as Error).message}`);
    process.exit(1);
  }
}
