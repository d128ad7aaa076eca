import { logger } from "@/server/observability/logger";

type Job = { timer?: NodeJS.Timeout; running: Promise<unknown>; stopped: boolean };
type JobHolder = { __referloopRepeatingJobs?: Map<string, Job> };
// On globalThis: instrumentation and Next's route modules do not share module state.
const jobs = ((globalThis as JobHolder).__referloopRepeatingJobs ??= new Map());

/**
 * A job this process runs at once and then `intervalMs` after each run ends, so that two runs never
 * overlap however long one takes. Starting a job already running does nothing. A run's error is
 * logged and the next run goes on. The timer never keeps a process alive.
 */
export function startRepeatingJob(name: string, intervalMs: number, work: () => Promise<unknown>): void {
  if (jobs.has(name)) return;
  const job: Job = { running: Promise.resolve(), stopped: false };
  jobs.set(name, job);
  const run = () => {
    job.running = work()
      .catch((error: unknown) => logger().error({ err: error, job: name }, `${name} failed`))
      .finally(() => {
        if (job.stopped) return;
        job.timer = setTimeout(run, intervalMs);
        job.timer.unref();
      });
  };
  run();
}

/** Stops the job, after the run in progress. */
export async function stopRepeatingJob(name: string): Promise<void> {
  const job = jobs.get(name);
  jobs.delete(name);
  if (!job) return;
  job.stopped = true;
  clearTimeout(job.timer);
  await job.running;
}
