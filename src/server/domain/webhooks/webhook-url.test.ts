import { describe, expect, it } from "vitest";
import type { UrlRules } from "@/server/config";
import { domainError } from "@/test/expect";
import { checkWebhookUrl, guardedLookup, METADATA_TARGET_MESSAGE, NON_PUBLIC_TARGET_MESSAGE, NonPublicTargetError, validateWebhookUrl } from "./webhook-url";

/** Both relaxations (WEBHOOK_ALLOW_PRIVATE_URLS, REFERLOOP_ALLOW_HTTP_URLS), as on a developer's machine. */
const development: UrlRules = { httpsOnly: false, publicOnly: false };
/** The defaults. */
const production: UrlRules = { httpsOnly: true, publicOnly: true };
const productionAllowingPrivate: UrlRules = { httpsOnly: true, publicOnly: false };

async function refusal(url: string, rules: UrlRules) {
  return (await domainError(validateWebhookUrl(url, rules))).issues[0];
}

describe("webhook URL rules", () => {
  it("accepts absolute http(s) URLs where both are relaxed, and normalises them", async () => {
    expect(await validateWebhookUrl(" HTTP://127.0.0.1:8080/hook ", development)).toBe("http://127.0.0.1:8080/hook");
    expect(await validateWebhookUrl("https://Example.com", development)).toBe("https://example.com/");
  });

  it.each([
    ["", "url"],
    ["/relative/path", "url"],
    ["ftp://example.com/x", "url"],
    ["javascript:alert(1)", "url"],
    ["https://user:pass@example.com/", "no_credentials"],
    ["https://example.com/" + "a".repeat(2048), "max_length"],
  ])("refuses %s (%s)", async (url, rule) => {
    expect(await refusal(url, development)).toMatchObject({ field: "url", rule });
  });

  it("requires https by default, even when private targets are allowed", async () => {
    expect(await refusal("http://93.184.215.14/hook", productionAllowingPrivate)).toMatchObject({ field: "url", rule: "https" });
    expect(await validateWebhookUrl("https://127.0.0.1/hook", productionAllowingPrivate)).toBe("https://127.0.0.1/hook");
  });

  it.each([
    "https://127.0.0.1/hook",
    "https://2130706433/hook",
    "https://[::1]/hook",
    "https://10.1.2.3/",
    "https://172.20.0.5/",
    "https://192.168.0.10/",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/",
    "https://[fd00:ec2::254]/",
    "https://[fe80::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://localhost/hook",
  ])("refuses the non-public target %s by default", async (url) => {
    const issue = await refusal(url, production);
    expect(issue).toMatchObject({ field: "url", rule: "public_address", message: NON_PUBLIC_TARGET_MESSAGE });
    // Never the address it resolved to: that would map the internal network for the caller.
    expect(issue?.message).not.toMatch(/127\.|::1|10\.1|192\.168|169\.254|fd00|fe80/);
  });

  it("refuses, by default, a host name that does not resolve", async () => {
    expect(await refusal("https://no-such-host.invalid/hook", production)).toMatchObject({ field: "url", rule: "resolvable" });
  });

  it("accepts a public address by default", async () => {
    expect(await validateWebhookUrl("https://93.184.215.14/hook", production)).toBe("https://93.184.215.14/hook");
  });

  it("applies the same rules at send time without DNS", () => {
    expect(checkWebhookUrl("https://127.0.0.1/x", production)).toMatchObject({ violation: { rule: "public_address" } });
    expect(checkWebhookUrl("http://93.184.215.14/x", production)).toMatchObject({ violation: { rule: "https" } });
    expect("url" in checkWebhookUrl("https://93.184.215.14/x", production)).toBe(true);
  });

  it.each([
    "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "http://[fd00:ec2::254]/latest/meta-data",
    "http://100.100.100.200/latest/meta-data",
    "http://[fe80::1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://2852039166/",
    "http://[::a9fe:a9fe]/",
    "http://[::ffff:0:a9fe:a9fe]/",
    "http://[64:ff9b:1::a9fe:a9fe]/",
    "http://[64:ff9b::169.254.169.254]/",
    "http://[2002:a9fe:a9fe::1]/",
    "http://[2001:0:4136:e378:8000:63bf:5601:5601]/",
  ])("refuses the metadata or link-local target %s even where private targets and http are allowed", async (url) => {
    expect(await refusal(url, development)).toMatchObject({ field: "url", rule: "public_address", message: METADATA_TARGET_MESSAGE });
    expect(checkWebhookUrl(url, development)).toMatchObject({ violation: { rule: "public_address" } });
  });
});

describe("guardedLookup", () => {
  const lookup = (host: string, all: boolean) =>
    new Promise<{ error: unknown; address: unknown }>((resolve) =>
      guardedLookup(production)(host, { all }, (error, address) => resolve({ error, address })),
    );

  it("refuses a name that resolves to a non-public address, whatever the lookup mode", async () => {
    for (const all of [true, false]) {
      const { error } = await lookup("localhost", all);
      expect(error).toBeInstanceOf(NonPublicTargetError);
    }
  });

  it.each(["::a9fe:a9fe", "::ffff:0:a9fe:a9fe", "64:ff9b:1::a9fe:a9fe", "2002:a9fe:a9fe::1"])(
    "refuses at connection time an address %s that carries the metadata address, even where private targets are allowed",
    async (address) => {
      const { error } = await new Promise<{ error: unknown }>((resolve) => guardedLookup(development)(address, { all: false }, (error) => resolve({ error })));
      expect(error).toBeInstanceOf(NonPublicTargetError);
    },
  );

  it("lets a private address through where private targets are allowed", async () => {
    const { error, address } = await new Promise<{ error: unknown; address: unknown }>((resolve) =>
      guardedLookup(development)("localhost", { all: false }, (error, address) => resolve({ error, address })),
    );
    expect(error).toBeNull();
    expect(["127.0.0.1", "::1"]).toContain(address);
  });
});
