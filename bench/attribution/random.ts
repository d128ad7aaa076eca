/** A seeded generator (mulberry32), so every run of the simulation sees the same world. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** One of `items` with probability proportional to its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Log-normal with the given median and log-space standard deviation. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Exponential gap for a Poisson process of `ratePerMs`. */
  gap(ratePerMs: number): number {
    return -Math.log(1 - this.next()) / ratePerMs;
  }

  /** Zipf-like rank in [0, n): a few referrers bring most clicks. */
  zipf(n: number, s = 1.1): number {
    // Inverse transform on the continuous approximation; good enough for a popularity skew.
    const u = this.next();
    const h = (x: number) => (Math.pow(x, 1 - s) - 1) / (1 - s);
    const x = Math.pow(u * h(n + 1) * (1 - s) + 1, 1 / (1 - s));
    return Math.min(n - 1, Math.max(0, Math.floor(x) - 1));
  }
}
