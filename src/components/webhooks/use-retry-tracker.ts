"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { DeliveryLog } from "./types";

/** How long to wait for the new attempt before saying it is still queued. */
const GIVE_UP_MS = 30_000;

export type RetryProgress =
  | { phase: "sending" }
  | { phase: "waiting"; afterAttempt: number; since: number }
  | { phase: "done"; attempt: DeliveryLog }
  | { phase: "slow" }
  | { phase: "error"; message: string };

/**
 * Manual retries and what became of them, per delivery: the retry call, then the first new attempt
 * of that delivery in the logs the caller polls and hands to `observe`.
 */
export function useRetryTracker(projectId: string) {
  const trpc = useTRPC();
  const { mutateAsync: retry } = useMutation(trpc.webhooks.retryDeliveryLog.mutationOptions());
  const [progress, setProgress] = useState<Record<string, RetryProgress>>({});
  const set = (deliveryId: string, next: RetryProgress) => setProgress((all) => ({ ...all, [deliveryId]: next }));

  const start = useCallback(
    async (entry: DeliveryLog, latestAttempt: number) => {
      set(entry.deliveryId, { phase: "sending" });
      try {
        await retry({ projectId, logId: entry.id });
        set(entry.deliveryId, { phase: "waiting", afterAttempt: latestAttempt, since: Date.now() });
      } catch (error) {
        set(entry.deliveryId, { phase: "error", message: toFormErrors(error).message ?? "The retry was refused." });
      }
    },
    [projectId, retry],
  );

  /** Each fetch of the logs: has a watched delivery got its new attempt yet? */
  const observe = useCallback((logs: readonly DeliveryLog[] | undefined) => {
    if (!logs) return;
    setProgress((all) => {
      let changed = false;
      const next = { ...all };
      for (const [deliveryId, state] of Object.entries(all)) {
        if (state.phase !== "waiting") continue;
        const fresh = logs
          .filter((log) => log.deliveryId === deliveryId && log.attemptNumber > state.afterAttempt)
          .sort((a, b) => a.attemptNumber - b.attemptNumber)[0];
        if (!fresh) continue;
        next[deliveryId] = { phase: "done", attempt: fresh };
        changed = true;
      }
      return changed ? next : all;
    });
  }, []);

  const waiting = Object.values(progress).some((p) => p.phase === "waiting" || p.phase === "sending");

  // A retry whose attempt never shows (worker busy or down) stops the fast polling after a while.
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      setProgress((all) => {
        const late = Object.entries(all).filter(([, p]) => p.phase === "waiting" && Date.now() - p.since > GIVE_UP_MS);
        if (!late.length) return all;
        return { ...all, ...Object.fromEntries(late.map(([id]) => [id, { phase: "slow" } as const])) };
      });
    }, 1000);
    return () => clearInterval(timer);
  }, [waiting]);

  return { progress, start, waiting, observe };
}
