/** RSS before and after each phase, and the peak seen while it ran (sampled). */

export type PhaseMemory = { phase: string; rssBefore: number; rssAfter: number; rssPeak: number; heapUsedAfter: number };

const SAMPLE_INTERVAL_MS = 50;

export class MemoryTracker {
  readonly baselineRss = process.memoryUsage.rss();
  readonly phases: PhaseMemory[] = [];
  private peak = this.baselineRss;
  private readonly timer = setInterval(() => this.sample(), SAMPLE_INTERVAL_MS).unref();

  private sample() {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
    return rss;
  }

  /** Runs one phase, recording RSS around it and its peak. */
  async phase<T>(phase: string, run: () => Promise<T>): Promise<T> {
    const rssBefore = this.sample();
    const peakBefore = this.peak;
    this.peak = rssBefore;
    try {
      return await run();
    } finally {
      const rssAfter = this.sample();
      this.phases.push({ phase, rssBefore, rssAfter, rssPeak: this.peak, heapUsedAfter: process.memoryUsage().heapUsed });
      this.peak = Math.max(this.peak, peakBefore);
    }
  }

  /** Largest RSS seen so far above the RSS when the tracker started. */
  get peakGrowth() {
    return Math.max(this.sample(), this.peak) - this.baselineRss;
  }

  stop() {
    clearInterval(this.timer);
  }
}
