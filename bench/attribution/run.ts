/**
 * Matching quality of the fingerprint fallback of deferred deep linking, on a seeded synthetic
 * population (see README.md here). No database, no network: seconds.
 *
 *   npm run bench:attribution                          all scenarios, default seed
 *   npm run bench:attribution -- --seed 7              another world
 *   npm run bench:attribution -- --deterministic 0.5   share of installs with a token, both OSes
 *   npm run bench:attribution -- --scenario nat-heavy  one scenario
 *
 * Exits 1 when precision at the default threshold is below the target in a scenario.
 */
import { parseArgs } from "node:util";
import { DEFAULT_MATCH_THRESHOLD } from "@/server/domain/attribution/match-click";
import { printTable } from "../report";
import { SCENARIOS } from "./scenarios";
import { fingerprintMatcher, generate, naiveMatcher, rates, replay } from "./simulate";

const PRECISION_TARGET = 0.95;
const THRESHOLDS = [0.5, 0.8, 0.9, 0.95, 0.99];

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

function main() {
  const { values } = parseArgs({
    options: { seed: { type: "string", default: "20261102" }, deterministic: { type: "string" }, scenario: { type: "string" } },
  });
  const seed = Number(values.seed);
  const deterministic = values.deterministic === undefined ? null : Number(values.deterministic);
  const chosen = SCENARIOS.filter((s) => !values.scenario || s.name === values.scenario);
  if (chosen.length === 0) throw new Error(`No scenario ${values.scenario}`);
  const started = performance.now();
  const missed: string[] = [];

  for (const base of chosen) {
    const scenario = deterministic === null ? base : { ...base, deterministic: { iOS: deterministic, Android: deterministic } };
    const population = generate(scenario, seed);
    const rows = [
      ...THRESHOLDS.map((threshold) => ({ name: threshold === DEFAULT_MATCH_THRESHOLD ? `${threshold} (default)` : String(threshold), outcome: replay(population, fingerprintMatcher(threshold)) })),
      { name: "naive: same IP + OS, most recent", outcome: replay(population, naiveMatcher) },
    ];
    const first = rows[0]!.outcome;
    const firstRates = rates(first);
    console.log(
      `\n${scenario.name}: ${scenario.description}\n  ${population.clicks.length} clicks, ${first.installs} installs ` +
        `(${first.referred} from a click, ${first.installs - first.referred} organic); ` +
        `deterministic ${pct(firstRates.deterministicShare)} of referred installs; ${first.findable} left for the fingerprint within the window`,
    );
    printTable(
      "  threshold -> fingerprint matches",
      ["threshold", "precision", "recall", "matched", "right", "wrong referrer", "organic matched", "refused as ambiguous", "referred installs attributed"],
      rows.map(({ name, outcome }) => {
        const r = rates(outcome);
        return [
          name,
          pct(r.precision),
          pct(r.recall),
          outcome.matched,
          outcome.correct + outcome.correctOtherClick,
          outcome.wrongReferral,
          outcome.organicMatched,
          outcome.ambiguous,
          pct(r.attributedShare),
        ];
      }),
    );
    const atDefault = rates(rows.find((r) => r.name.endsWith("(default)"))!.outcome);
    if (atDefault.precision < PRECISION_TARGET) missed.push(`${scenario.name}: precision ${pct(atDefault.precision)} < ${pct(PRECISION_TARGET)}`);
  }

  console.log(`\nseed ${seed}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (missed.length > 0) {
    console.log(`\nMISSED: ${missed.join("; ")}`);
    process.exit(1);
  }
  console.log(`Precision at the default threshold ${DEFAULT_MATCH_THRESHOLD} >= ${pct(PRECISION_TARGET)} in every scenario.`);
}

main();
