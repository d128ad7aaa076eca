import type { UrlRules } from "@/server/config";
import { DomainError, type FieldIssue } from "@/server/domain/errors";

type ProjectUrls = {
  referralRedirectLink?: string | null;
  allowedOrigins?: string[];
  app?: { appStoreUrl?: string | null; playStoreUrl?: string | null; iconUrl?: string | null } | null;
};

/**
 * A project's links must be https unless the service allows http (REFERLOOP_ALLOW_HTTP_URLS, for a
 * developer's machine). That depends on where the service runs, not on the request's shape, so it is
 * checked here rather than by the schemas.
 */
export function requireHttps(input: ProjectUrls, rules: UrlRules): void {
  if (!rules.httpsOnly) return;
  const urls: [string, string | null | undefined][] = [
    ["referralRedirectLink", input.referralRedirectLink],
    ...(input.allowedOrigins ?? []).map((origin, i): [string, string] => [`allowedOrigins.${i}`, origin]),
    ["app.appStoreUrl", input.app?.appStoreUrl],
    ["app.playStoreUrl", input.app?.playStoreUrl],
    ["app.iconUrl", input.app?.iconUrl],
  ];
  const issues: FieldIssue[] = urls
    .filter(([, url]) => url && !url.toLowerCase().startsWith("https:"))
    .map(([field]) => ({ field, rule: "https", message: "must use https" }));
  if (issues.length) throw new DomainError("invalid", issues.map((i) => `${i.field} ${i.message}`).join("; "), issues);
}
