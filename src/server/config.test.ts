import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { parseEnv } from "node:util";
import { ConfigError, loadConfig, relaxations, RELAXATION_SETTINGS, warnAboutRelaxations } from "./config";

describe("loadConfig", () => {
  it("runs on embedded defaults with nothing set, every guard on", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseUrl: undefined,
      accessLog: true,
      urlRules: { httpsOnly: true, publicOnly: true },
      secureCookies: true,
      hsts: true,
      devMailbox: false,
      hostLinks: false,
      deliveries: { retryBaseMs: 5_000, pollIntervalMs: 2_000 },
      inngestEnabled: false,
    });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it("keeps twice the cores in database connections, shared among the server processes, unless DATABASE_POOL_SIZE says", () => {
    const cores = availableParallelism();
    expect(loadConfig({}).databasePoolSize).toBe(Math.max(2, 2 * cores));
    expect(loadConfig({ REFERLOOP_WORKERS: "auto" }).databasePoolSize).toBe(2);
    expect(loadConfig({ REFERLOOP_WORKERS: "999" }).databasePoolSize).toBe(2);
    expect(loadConfig({ DATABASE_POOL_SIZE: "32", REFERLOOP_WORKERS: "4" }).databasePoolSize).toBe(32);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: "0" })).toThrow(/DATABASE_POOL_SIZE: must be at least 1/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: "many" })).toThrow(/DATABASE_POOL_SIZE: must be a number/);
  });

  it("keeps every guard on whatever NODE_ENV says; empty counts as unset", () => {
    for (const NODE_ENV of ["development", "production", "test"]) {
      expect(loadConfig({ NODE_ENV })).toMatchObject({ urlRules: { httpsOnly: true, publicOnly: true }, secureCookies: true, hsts: true, devMailbox: false, hostLinks: false });
    }
    expect(loadConfig({ DATABASE_URL: "", WEBHOOK_RETRY_BASE_MS: "", REFERLOOP_DEV_MAILBOX: "" })).toMatchObject({
      databaseUrl: undefined,
      deliveries: { retryBaseMs: 5_000 },
      devMailbox: false,
    });
  });

  it("relaxes each guard by its own setting only", () => {
    const on = (name: string) => loadConfig({ [name]: "true" });
    expect(on("REFERLOOP_DEV_MAILBOX")).toMatchObject({ devMailbox: true, urlRules: { httpsOnly: true, publicOnly: true }, secureCookies: true, hsts: true });
    expect(on("WEBHOOK_ALLOW_PRIVATE_URLS")).toMatchObject({ urlRules: { httpsOnly: true, publicOnly: false }, devMailbox: false, secureCookies: true });
    expect(on("REFERLOOP_ALLOW_HTTP_URLS")).toMatchObject({ urlRules: { httpsOnly: false, publicOnly: true }, hsts: true });
    expect(on("REFERLOOP_ALLOW_INSECURE_COOKIES")).toMatchObject({ secureCookies: false, hsts: true, urlRules: { httpsOnly: true } });
    expect(on("REFERLOOP_DISABLE_HSTS")).toMatchObject({ hsts: false, secureCookies: true, devMailbox: false });
    expect(on("REFERLOOP_ALLOW_HOST_LINKS")).toMatchObject({ hostLinks: true, devMailbox: false, urlRules: { httpsOnly: true, publicOnly: true } });
  });

  it("refuses REFERLOOP_ENV, which used to relax every guard at once, naming the settings that replace it", () => {
    for (const value of ["development", "production"]) {
      expect(() => loadConfig({ REFERLOOP_ENV: value })).toThrow(/REFERLOOP_ENV: is no longer read: each guard has its own setting \(REFERLOOP_DEV_MAILBOX, WEBHOOK_ALLOW_PRIVATE_URLS/);
    }
  });

  it("names one warning line per relaxation in force, and none by default", () => {
    expect(relaxations(loadConfig({}))).toEqual([]);
    const all = loadConfig(Object.fromEntries(RELAXATION_SETTINGS.map((name) => [name, "true"])));
    const lines = relaxations(all);
    expect(lines).toHaveLength(RELAXATION_SETTINGS.length);
    RELAXATION_SETTINGS.forEach((name, i) => expect(lines[i]).toMatch(new RegExp(`^${name}=true: `)));
    // With a public URL, links never come from the Host header: nothing relaxed there.
    expect(relaxations(loadConfig({ REFERLOOP_ALLOW_HOST_LINKS: "true", NEXTAUTH_URL: "https://app.example.com" }))).toEqual([]);
    const printed: string[] = [];
    warnAboutRelaxations(loadConfig({ REFERLOOP_DEV_MAILBOX: "1", REFERLOOP_DISABLE_HSTS: "true" }), (line) => printed.push(line));
    expect(printed).toEqual([expect.stringMatching(/^\[referloop\] guard relaxed: REFERLOOP_DEV_MAILBOX=true: /), expect.stringMatching(/^\[referloop\] guard relaxed: REFERLOOP_DISABLE_HSTS=true: /)]);
  });

  it("npm run dev relaxes exactly the named settings, through scripts/dev.env", () => {
    const script = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.dev;
    expect(script).toMatch(/^node --env-file=scripts\/dev\.env /);
    const dev = parseEnv(readFileSync("scripts/dev.env", "utf8"));
    expect(Object.keys(dev).sort()).toEqual([...RELAXATION_SETTINGS].sort());
    expect(relaxations(loadConfig(dev))).toHaveLength(RELAXATION_SETTINGS.length);
  });

  it("refuses bad values, naming every bad variable and what it got", () => {
    let error: unknown;
    try {
      loadConfig({ WEBHOOK_RETRY_BASE_MS: "soon", REFERLOOP_DEV_MAILBOX: "yes", DATABASE_URL: "mysql://x", REFERLOOP_ACCESS_LOG: "maybe" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ["WEBHOOK_RETRY_BASE_MS", "REFERLOOP_DEV_MAILBOX", "DATABASE_URL", "REFERLOOP_ACCESS_LOG"]) expect(message).toContain(name);
    expect(message).toContain('"soon"');
    expect(() => loadConfig({ WEBHOOK_POLL_INTERVAL_MS: "0" })).toThrow(/WEBHOOK_POLL_INTERVAL_MS: must be at least 1/);
  });
});

describe("public URL and trusted proxies", () => {
  it("take the public URL from REFERLOOP_PUBLIC_URL, else NEXTAUTH_URL, as an origin; unset means per request", () => {
    expect(loadConfig({}).publicUrl).toBeUndefined();
    expect(loadConfig({ NEXTAUTH_URL: "https://app.example.com/api/auth" }).publicUrl).toBe("https://app.example.com");
    expect(loadConfig({ NEXTAUTH_URL: "https://dash.example.com", REFERLOOP_PUBLIC_URL: "https://go.example.com:8443/" }).publicUrl).toBe(
      "https://go.example.com:8443",
    );
    expect(() => loadConfig({ REFERLOOP_PUBLIC_URL: "go.example.com" })).toThrow(/REFERLOOP_PUBLIC_URL: must be an http\(s\) URL/);
  });

  it("trust no proxy by default, and refuse an entry they cannot read", () => {
    expect(loadConfig({}).trustedProxies.contains("127.0.0.1")).toBe(false);
    const { trustedProxies } = loadConfig({ REFERLOOP_TRUSTED_PROXIES: "loopback, 10.0.0.0/8 2001:db8::1" });
    expect(["127.0.0.1", "10.1.2.3", "2001:db8::1"].every((a) => trustedProxies.contains(a))).toBe(true);
    expect(trustedProxies.contains("203.0.113.7")).toBe(false);
    expect(() => loadConfig({ REFERLOOP_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/REFERLOOP_TRUSTED_PROXIES: Not an IP address, CIDR or range name/);
  });
});

describe("rate limits and Redis", () => {
  it("have documented defaults", () => {
    const config = loadConfig({});
    expect(config.rateLimits).toEqual({
      apiKeyPerMinute: 600,
      sdkPerMinute: 300,
      dashboardPerMinute: 600,
      inboundHookPerMinute: 600,
      signInPerIpPerHour: 100,
      signUpPerIpPerHour: 20,
      signUpPerEmailPerHour: 5,
      accountEmailsPerIpPerHour: 20,
      accountEmailsPerAddressPerHour: 5,
      accountLinksPerIpPerHour: 60,
      bulkRetryPerHour: 30,
      landingClicksPerIpPerMinute: 60,
      exportsPerHour: 60,
      signInLockoutFailures: 5,
      signInLockoutSeconds: 900,
    });
    expect(config.redisUrl).toBeUndefined();
    expect(config.redisKeyPrefix).toBe("referloop");
  });

  it("take whole numbers (0 switches a limit off), and a redis:// URL", () => {
    const config = loadConfig({
      RATE_LIMIT_API_KEY_PER_MINUTE: "0",
      SIGN_IN_LOCKOUT_FAILURES: "3",
      REDIS_URL: "redis://127.0.0.1:6379/2",
    });
    expect(config.rateLimits).toMatchObject({ apiKeyPerMinute: 0, signInLockoutFailures: 3 });
    expect(config.redisUrl).toBe("redis://127.0.0.1:6379/2");
  });

  it("refuse bad values, naming the variable", () => {
    expect(() => loadConfig({ RATE_LIMIT_SDK_PER_MINUTE: "-1" })).toThrow(/RATE_LIMIT_SDK_PER_MINUTE: must be at least 0/);
    expect(() => loadConfig({ RATE_LIMIT_API_KEY_PER_MINUTE: "lots" })).toThrow(/RATE_LIMIT_API_KEY_PER_MINUTE/);
    expect(() => loadConfig({ SIGN_IN_LOCKOUT_SECONDS: "0" })).toThrow(/SIGN_IN_LOCKOUT_SECONDS: must be at least 1/);
    expect(() => loadConfig({ REDIS_URL: "http://cache" })).toThrow(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => loadConfig({ REDIS_KEY_PREFIX: "has space" })).toThrow(/REDIS_KEY_PREFIX/);
  });
});

describe("secrets in production on PostgreSQL", () => {
  const onPostgres = { NODE_ENV: "production", DATABASE_URL: "postgresql://app@db.example.com:5432/referloop" };

  it("are required, naming every missing one and how to make it, whatever guards are relaxed", () => {
    expect(() => loadConfig({ ...onPostgres, REFERLOOP_ALLOW_HTTP_URLS: "true", WEBHOOK_ALLOW_PRIVATE_URLS: "true" })).toThrow(
      "Set NEXTAUTH_SECRET and REFERLOOP_ENCRYPTION_KEY before starting in production on PostgreSQL: every instance needs the same values, so they are not generated. Make each with: openssl rand -base64 32",
    );
    expect(() => loadConfig({ ...onPostgres, NEXTAUTH_SECRET: "s".repeat(44) })).toThrow(/Set REFERLOOP_ENCRYPTION_KEY before/);
    expect(loadConfig({ ...onPostgres, NEXTAUTH_SECRET: "s", REFERLOOP_ENCRYPTION_KEY: "k" }).secretsRequired).toBe(true);
  });

  it("are generated on the embedded default, and in development on PostgreSQL", () => {
    expect(loadConfig({ NODE_ENV: "production" }).secretsRequired).toBe(false);
    expect(loadConfig({ DATABASE_URL: onPostgres.DATABASE_URL }).secretsRequired).toBe(false);
  });
});
