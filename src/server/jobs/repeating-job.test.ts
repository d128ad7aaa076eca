import { afterEach, expect, it, vi } from "vitest";
import { logger } from "@/server/observability/logger";
import { waitUntil } from "@/test/wait";
import { startRepeatingJob, stopRepeatingJob } from "./repeating-job";

/** Runs held open by recordedJob, ended after each test so that stopping does not wait on them. */
const held = new Set<() => void>();
afterEach(async () => {
  const stopping = stopRepeatingJob("test job");
  held.forEach((finish) => finish());
  await stopping;
});

/** A job whose runs stay open until `finish`; it records when each run starts and ends. */
function recordedJob() {
  const events: string[] = [];
  let release = () => {};
  let runs = 0;
  const work = async () => {
    const n = ++runs;
    events.push(`start ${n}`);
    await new Promise<void>((resolve) => held.add((release = resolve)));
    held.delete(release);
    events.push(`end ${n}`);
  };
  return { events, work, runs: () => runs, finish: () => release() };
}

it("runs at once, then an interval after each run ends, never two runs at once", async () => {
  const job = recordedJob();
  startRepeatingJob("test job", 5, job.work);
  expect(job.events).toEqual(["start 1"]);
  await new Promise((resolve) => setTimeout(resolve, 50)); // ten intervals, and the first run still open
  expect(job.events).toEqual(["start 1"]);
  job.finish();
  await waitUntil(async () => job.runs(), (n) => n === 2, { what: "the second run" });
  job.finish();
  await waitUntil(async () => job.runs(), (n) => n === 3, { what: "the third run" });
  expect(job.events).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3"]);
});

it("is started once however often it is asked", async () => {
  const job = recordedJob();
  startRepeatingJob("test job", 5, job.work);
  startRepeatingJob("test job", 5, job.work);
  expect(job.runs()).toBe(1);
});

it("logs a failed run under the job's name and runs again", async () => {
  const logged = vi.spyOn(logger(), "error").mockImplementation(() => {});
  let runs = 0;
  startRepeatingJob("test job", 5, async () => {
    if (++runs === 1) throw new Error("database gone");
  });
  await waitUntil(async () => runs, (n) => n >= 3, { what: "runs after the failure" });
  expect(logged).toHaveBeenCalledWith(expect.objectContaining({ job: "test job", err: expect.objectContaining({ message: "database gone" }) }), "test job failed");
  logged.mockRestore();
});

it("stops after the run in progress, and runs no more", async () => {
  const job = recordedJob();
  startRepeatingJob("test job", 5, job.work);
  let stopped = false;
  const stopping = stopRepeatingJob("test job").then(() => (stopped = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(stopped).toBe(false);
  job.finish();
  await stopping;
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(job.events).toEqual(["start 1", "end 1"]);
});
