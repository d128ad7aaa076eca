/** "Chrome on Linux": enough to recognise a device in the session list and the audit log; the full string is its title. */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser =
    /Edg\//.test(userAgent) ? "Edge"
    : /OPR\//.test(userAgent) ? "Opera"
    : /Firefox\//.test(userAgent) ? "Firefox"
    : /HeadlessChrome\//.test(userAgent) ? "Headless Chrome"
    : /Chrome\//.test(userAgent) ? "Chrome"
    : /Safari\//.test(userAgent) ? "Safari"
    : /curl\//.test(userAgent) ? "curl"
    : null;
  const os =
    /iPhone|iPad/.test(userAgent) ? "iOS"
    : /Android/.test(userAgent) ? "Android"
    : /Windows/.test(userAgent) ? "Windows"
    : /Mac OS X|Macintosh/.test(userAgent) ? "macOS"
    : /Linux/.test(userAgent) ? "Linux"
    : null;
  if (!browser && !os) return userAgent.slice(0, 60);
  return [browser ?? "Browser", os ? `on ${os}` : null].filter(Boolean).join(" ");
}
