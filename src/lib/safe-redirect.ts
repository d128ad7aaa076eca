/**
 * Where to go after signing in: next-auth hands back `callbackUrl`, which may be absolute. Only
 * same-origin paths are followed, so the sign-in page cannot be used as an open redirect.
 */
export function safeRedirectPath(callbackUrl: string | null | undefined, fallback = "/dashboard"): string {
  if (!callbackUrl) return fallback;
  try {
    const url = new URL(callbackUrl, window.location.origin);
    if (url.origin !== window.location.origin) return fallback;
    const path = `${url.pathname}${url.search}${url.hash}`;
    return path === "/" || path.startsWith("/sign-in") || path.startsWith("/sign-up") ? fallback : path;
  } catch {
    return fallback;
  }
}
