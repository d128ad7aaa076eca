import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db/client";
import { claimDueAttempts, releaseLeases, type ClaimedAttempt, type DeliveryLease } from "@/server/domain/deliveries/claim-attempts";
import { leaseMs as leaseFor } from "@/server/domain/deliveries/perform-attempt";
import { sendAttempt, type SendOptions } from "@/server/domain/deliveries/send-attempt";
import { createBatchRecorder } from "./batch-recorder";
import { logger } from "@/server/observability/logger";

/** Attempts in flight at once: they mostly wait on receivers, so more slots than cores. */
export const DEFAULT_CONCURRENCY = 64;
/** Of those, at most this many for one webhook: a fast receiver can take a backlog in parallel, a slow one holds half the slots, never all. */
export const DEFAULT_PER_WEBHOOK_CONCURRENCY = 32;
/** Answered attempts waiting to be recorded, per slot, before the worker stops taking more (see `sending`). */
const UNRECORDED_PER_SLOT = 16;

export type EmbeddedWorkerOptions = {
  db: Db;
  workerId?: string;
  /** How often other instances' rows and expired leases are looked for; own retries wake it on time. */
  pollIntervalMs: number;
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Attempts in flight at once for one webhook: a slow receiver holds this many slots at most. */
  perWebhookConcurrency?: number;
  /** Only rows overdue by this much are taken (a safety net beside Inngest); 0 for the normal worker. */
  overdueGraceMs?: number;
  attempt: SendOptions;
  onError?: (error: unknown) => void;
};

export type EmbeddedWorker = {
  readonly id: string;
  start(): void;
  /** Stops claiming, lets in-flight attempts finish, hands back the rows it holds unsent, and resolves when idle. */
  stop(): Promise<void>;
  /** Attempts waiting for their receiver now. */
  slotsInUse(): number;
  /** New work is due now (called by the scheduler's enqueue). */
  wake(): void;
  /**
   * A lease for a reward claim to take its deliveries' first attempts under (see DeliveryLease), while
   * this worker has room for them; null when it is busy or stopped, and the rows are then claimed as usual.
   */
  lease(): DeliveryLease | null;
  /** Sends, at once, attempts a claim took under this worker's lease. */
  take(attempts: readonly ClaimedAttempt[]): void;
};

/**
 * The in-process scheduler: claims the next attempts of due delivery rows in batches (with a lease),
 * sends each (sendAttempt, like the Inngest function), records the results in batches, and sleeps until
 * the next known due time, the poll interval, or a wake-up. All its state is in the rows, so a restart
 * (or another instance) simply carries on from them.
 */
export function createEmbeddedWorker(options: EmbeddedWorkerOptions): EmbeddedWorker {
  const id = options.workerId ?? `worker:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const pollIntervalMs = options.pollIntervalMs;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const perWebhook = options.perWebhookConcurrency ?? DEFAULT_PER_WEBHOOK_CONCURRENCY;
  const graceMs = options.overdueGraceMs ?? 0;
  const leaseMs = leaseFor(options.attempt);
  const onError = options.onError ?? ((error: unknown) => logger().error({ err: error }, "delivery worker error"));
  const record = createBatchRecorder(options.db, onError, options.attempt);

  /** Attempts not yet recorded, so that stop() can wait for them. */
  const unfinished = new Set<Promise<void>>();
  /**
   * Attempts waiting for their receiver, in all and by webhook: the slots. An attempt gives its slot
   * up when the receiver has answered, not once its result is recorded: under load the records queue
   * behind one another (a batch per write), and slots held by them refused every lease and turned each
   * reward's delivery into a claim of its own. Each write takes every result queued; should writes
   * stall, at most maxUnrecorded attempts wait for them, well within their leases, and the worker
   * takes no more until they are written.
   */
  let sending = 0;
  const maxUnrecorded = concurrency * UNRECORDED_PER_SLOT;
  const perWebhookInFlight = new Map<string, number>();
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  /** The earliest retry this worker scheduled itself, so it need not poll to send it on time. */
  let nextKnownDue = Infinity;
  /**
   * The last claim stopped at a limit, every slot or a webhook's share (as it counted them), so due rows
   * may be waiting for a slot: each finished attempt then wakes the loop to claim again. Otherwise (as
   * for attempts taken under a lease) nothing was left behind for want of a slot, and the poll or an
   * enqueue is enough.
   */
  let rowsMayWait = false;

  const wake = () => {
    woken = true;
    wakeUp?.();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) return resolve();
      const timer = setTimeout(resolve, ms);
      wakeUp = () => (clearTimeout(timer), resolve());
    }).finally(() => {
      wakeUp = undefined;
      woken = false;
    });

  const attempt = (claimed: ClaimedAttempt) => {
    const { webhookId } = claimed;
    sending++;
    perWebhookInFlight.set(webhookId, (perWebhookInFlight.get(webhookId) ?? 0) + 1);
    let answered = false;
    const freeSlot = () => {
      if (answered) return;
      answered = true;
      sending--;
      const left = (perWebhookInFlight.get(webhookId) ?? 1) - 1;
      if (left > 0) perWebhookInFlight.set(webhookId, left);
      else perWebhookInFlight.delete(webhookId);
      if (rowsMayWait) wake();
    };
    const task = sendAttempt(claimed, options.attempt)
      .then(async (result) => {
        freeSlot();
        await record(result);
        if (result.next.outcome === "retry" && result.next.nextAttemptAt.getTime() < nextKnownDue) {
          nextKnownDue = result.next.nextAttemptAt.getTime();
          wake(); // to sleep until then, not the whole poll interval
        }
      })
      .catch(onError)
      .finally(() => {
        freeSlot();
        // The slot woke the loop already; a written result matters to it only at the bound.
        const atBound = unfinished.size >= maxUnrecorded;
        unfinished.delete(task);
        if (atBound && rowsMayWait) wake();
      });
    unfinished.add(task);
  };

  async function run() {
    while (running) {
      const free = Math.min(concurrency - sending, maxUnrecorded - unfinished.size);
      let waitMs = pollIntervalMs;
      if (free <= 0) rowsMayWait = true;
      else {
        const claimedAt = Date.now();
        const busy = sending;
        const counted = new Map(perWebhookInFlight);
        try {
          const claimed = await claimDueAttempts(options.db, {
            workerId: id,
            limit: free,
            leaseMs,
            dueBefore: new Date(claimedAt - graceMs),
            perWebhook,
            inFlight: counted,
          });
          for (const delivery of claimed) {
            attempt(delivery);
            counted.set(delivery.webhookId, (counted.get(delivery.webhookId) ?? 0) + 1);
          }
          // A full batch suggests more rows are due: claim again as soon as a slot is free.
          if (claimed.length === free) continue;
          rowsMayWait = [...counted.values()].some((n) => n >= perWebhook);
          // Attempts that finished while the claim ran were counted by it as in flight, and did not wake
          // the loop if the claim before stopped at no limit: claim again for their slots now.
          if (rowsMayWait && sending < busy + claimed.length) continue;
        } catch (error) {
          onError(error);
        }
        // That claim saw every retry due by then; later ones set the wait.
        if (nextKnownDue <= claimedAt) nextKnownDue = Infinity;
        waitMs = Math.min(pollIntervalMs, Math.max(0, nextKnownDue - Date.now()));
      }
      await sleep(waitMs);
    }
    await Promise.all(unfinished);
  }

  return {
    id,
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wake();
      await loop;
      loop = undefined;
      await releaseLeases(options.db, id).catch(onError);
    },
    slotsInUse: () => sending,
    wake,
    lease() {
      // Fewer in flight than one webhook's share: taking a claim's few attempts keeps every webhook
      // within its share (give or take the claims already under way), so a slow receiver still cannot
      // hold more than its slots, and under a backlog the due order decides, as without leases.
      if (!running || sending >= Math.min(concurrency, perWebhook) || unfinished.size >= maxUnrecorded) return null;
      return { workerId: id, until: new Date(Date.now() + leaseMs) };
    },
    take(attempts) {
      // Stopped meanwhile (shutting down): sent now, they would outlive stop(). Their lease runs out
      // and a worker claims them as after a crash.
      if (!running) return;
      for (const claimed of attempts) attempt(claimed);
    },
  };
}
