import type { Db } from "@/server/db/client";
import { recordAttempts } from "@/server/domain/deliveries/record-attempts";
import type { AttemptResult, SendOptions } from "@/server/domain/deliveries/send-attempt";

/**
 * Records finished attempts like a group commit: the first result is written at once, and whatever
 * finishes while a write runs goes into the next one, so a quiet worker adds no delay and a busy one
 * writes many results per statement. Resolves once the result is written (or the write failed: the
 * lease then runs out and the next attempt logs this one as lost, so nothing is silently dropped). The
 * webhooks' health changes a write returns go to `alert`.
 */
export function createBatchRecorder(db: Db, onError: (error: unknown) => void, options: Pick<SendOptions, "now" | "alert"> = {}) {
  let queue: { result: AttemptResult; written: () => void }[] = [];
  let writing: Promise<void> | null = null;

  async function drain() {
    while (queue.length) {
      const batch = queue;
      queue = [];
      try {
        const alerts = await recordAttempts(db, batch.map((b) => b.result), options.now?.());
        // Not awaited: the owners' e-mails must not hold up the next write.
        if (alerts.length) options.alert?.(db, alerts).catch(onError);
      } catch (error) {
        onError(error);
      }
      for (const b of batch) b.written();
    }
    writing = null;
  }

  return (result: AttemptResult) =>
    new Promise<void>((written) => {
      queue.push({ result, written });
      writing ??= drain();
    });
}
