/** Latency samples and the few statistics the benchmark reports. */
import { startCpuMeter, type CpuUse } from "./cpu";

export type LatencySummary = { count: number; p50: number; p95: number; p99: number; max: number; mean: number };

/** Nearest-rank percentile of ascending-sorted samples (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(samplesMs: readonly number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

export type PoolRun = { latenciesMs: number[]; wallMs: number; errors: unknown[]; cpu: CpuUse };

/**
 * Calls `fn` once per item with at most `concurrency` calls in flight, timing each call and the CPU
 * used meanwhile. A failing
 * call is counted (and kept) rather than aborting the run, so one error cannot hide the others.
 */
export async function runPool<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<unknown>): Promise<PoolRun> {
  const latenciesMs: number[] = [];
  const errors: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      const started = performance.now();
      try {
        await fn(item);
        latenciesMs.push(performance.now() - started);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  const meter = startCpuMeter();
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  const cpu = meter();
  return { latenciesMs, wallMs: cpu.wallMs, errors, cpu };
}

/** Runs `fn` `runs` times one after another and returns each duration. */
export async function timeSequential(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return samples;
}
