import pg from "pg";
import { logger } from "@/server/observability/logger";

/** The channel the migrations' triggers notify on: an API key or membership changed or deleted, a project added, changed or deleted. */
const CHANNEL = "referloop_credentials";

/** How long an entry lives at most: the bound on staleness if a change's notification is ever missed. */
const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;
const RECONNECT_MS = 1_000;

/**
 * API keys and project keys as authentication found them, and the set of origins projects allow (CORS
 * preflights), kept briefly in this process: the key lookup was a statement on every API call, and
 * with PostgreSQL's round trip and Prisma's per-query work it cost a GET a third of its server CPU. A
 * credential changes rarely, but a revoked or rotated one must stop working at once on every
 * instance, so entries are kept only while this process is LISTENing for the triggers'
 * notifications: any change anywhere clears the whole cache when it commits, and a lost listener
 * clears it and stops caching until it is back. Unknown keys are never cached.
 */
export class CredentialCache {
  private readonly entries = new Map<string, { value: unknown; until: number }>();
  /** Raised by every clear: a lookup that began before it must not store what it read. */
  private generation = 0;
  private isListening = false;
  /** Lookups answered from the cache (the tests read it). */
  hits = 0;

  async read<T extends object>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const entry = this.entries.get(key);
    if (entry && entry.until > Date.now()) {
      this.hits++;
      return entry.value as T;
    }
    if (entry) this.entries.delete(key);
    const generation = this.generation;
    const value = await load();
    if (value !== null && this.isListening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, until: Date.now() + TTL_MS });
    }
    return value;
  }

  clear() {
    this.generation++;
    this.entries.clear();
  }

  get listening() {
    return this.isListening;
  }

  /** Caching is on only while a listener holds its LISTEN; either way the entries so far are dropped. */
  setListening(listening: boolean) {
    this.clear();
    this.isListening = listening;
  }
}

/**
 * Keeps one connection LISTENing on the credentials channel for `cache`, reconnecting every second
 * while it is lost (the cache stays off meanwhile; one log line when it goes, one when it is back).
 * `close` ends it for good.
 */
export function followCredentialChanges(url: string, cache: CredentialCache): { close(): Promise<void> } {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  /** A loss was logged: say so when the listener is back. */
  let down = false;

  const lost = (lostClient: pg.Client) => {
    if (client !== lostClient) return;
    client = null;
    const wasListening = cache.listening;
    cache.setListening(false);
    lostClient.end().catch(() => {});
    if (closed) return;
    if (wasListening) {
      logger().warn("the credential change listener's connection was lost: API keys are read on every request until it is back");
      down = true;
    }
    retry = setTimeout(connect, RECONNECT_MS).unref();
  };

  async function connect() {
    const next = new pg.Client({ connectionString: url, keepAlive: true, application_name: "referloop-credentials" });
    client = next;
    next.on("notification", () => cache.clear());
    next.on("error", () => lost(next));
    next.on("end", () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      if (client !== next || closed) return;
      cache.setListening(true);
      if (down) logger().info("the credential change listener is back: API keys are cached again");
      down = false;
    } catch {
      lost(next);
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      cache.setListening(false);
      const open = client;
      client = null;
      await open?.end().catch(() => {});
    },
  };
}
