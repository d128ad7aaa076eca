import type { Config } from "@/server/config";
import type { AttemptOptions } from "@/server/domain/deliveries/perform-attempt";

/** What every scheduler's attempts obey, from the configuration. */
export const attemptOptions = (config: Config): Omit<AttemptOptions, "workerId"> => ({
  urlRules: config.urlRules,
  baseMs: config.deliveries.retryBaseMs,
});
