/** Starts the webhook receiver process (receiver-process.ts) and talks to it over IPC. */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

/** How the receiver answers one webhook path. */
export type Behaviour = {
  /** Answer after this long (a slow receiver). */
  delayMs?: number;
  /** Status of a normal answer (default 200). */
  status?: number;
  /** Answer 500 to the first N receipts of a delivery id (forces retries) ... */
  failFirst?: number;
  /** ... for this share of delivery ids (default all), chosen by a hash of the id. */
  failShare?: number;
};

export type ReceivedRecord = {
  deliveryId: string;
  trackingId: string;
  /** The webhook path's name: /hook/<name>. */
  name: string;
  /** Epoch milliseconds with sub-millisecond precision (performance.timeOrigin + now()). */
  at: number;
  status: number;
  /** 1 for the first request seen with this delivery id, 2 for the second, ... */
  receipt: number;
};

export type ReceiverStats = {
  requests: number;
  /** Distinct delivery ids. */
  deliveries: number;
  maxInFlight: number;
  inFlight: number;
  /** Connections open at once since the last reset: the most requests a sender had in flight here. */
  maxConnections: number;
  byName: Record<string, { requests: number; deliveries: number; maxInFlight: number }>;
};

export type ReceiverCommand =
  | { cmd: "configure"; name: string; behaviour: Behaviour }
  | { cmd: "reset" }
  | { cmd: "stats" }
  | { cmd: "records"; from?: number };

export class Receiver {
  private nextId = 1;
  private readonly pending = new Map<number, (result: unknown) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.on("message", (message: { id?: number; result?: unknown }) => {
      if (message.id === undefined) return;
      this.pending.get(message.id)?.(message.result);
      this.pending.delete(message.id);
    });
  }

  get pid() {
    return this.child.pid!;
  }

  /** The URL of webhook path `name`. */
  url(name: string) {
    return `http://127.0.0.1:${this.port}/hook/${name}`;
  }

  static async start(port: number): Promise<Receiver> {
    const child = fork(path.join(import.meta.dirname, "receiver-process.ts"), [String(port)], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`The webhook receiver exited (${code}) before listening on ${port}.`)));
    });
    return new Receiver(child, port);
  }

  private call<T>(command: ReceiverCommand): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve) => {
      this.pending.set(id, resolve as (result: unknown) => void);
      this.child.send({ ...command, id });
    });
  }

  configure(name: string, behaviour: Behaviour) {
    return this.call<null>({ cmd: "configure", name, behaviour });
  }

  reset() {
    return this.call<null>({ cmd: "reset" });
  }

  stats() {
    return this.call<ReceiverStats>({ cmd: "stats" });
  }

  records(from = 0) {
    return this.call<ReceivedRecord[]>({ cmd: "records", from });
  }

  /**
   * Resolves with the stats once `done(stats)` holds; after `timeoutMs` resolves anyway (the caller
   * reports what arrived). Polls every `everyMs`.
   */
  async waitFor(done: (s: ReceiverStats) => boolean, timeoutMs: number, everyMs = 50): Promise<{ stats: ReceiverStats; timedOut: boolean }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const stats = await this.stats();
      if (done(stats)) return { stats, timedOut: false };
      if (Date.now() >= deadline) return { stats, timedOut: true };
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }

  async stop() {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once("exit", r));
    this.child.disconnect();
    await exited;
  }
}
