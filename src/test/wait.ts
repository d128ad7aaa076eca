/**
 * Reads until `done` holds, every 25 ms, and returns the last value; fails after `timeoutMs` naming
 * what it waited for and what it last saw.
 */
export async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, { timeoutMs = 5_000, what = "condition" } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
