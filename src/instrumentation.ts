/**
 * Runs once per server process (next dev and next start). The Node-only part lives in its own module
 * so the edge bundle never sees it.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./instrumentation-node");
}
