import type { Config } from "@/server/config";
import type { AttemptOptions } from "@/server/domain/deliveries/perform-attempt";
import { alertWebhookOwners } from "./webhook-alerts";

/** What every scheduler's attempts obey, from the configuration; the owners hear of their webhooks' health. */
export const attemptOptions = (config: Config): Omit<AttemptOptions, "workerId"> => ({
  urlRules: config.urlRules,
  baseMs: config.deliveries.retryBaseMs,
  alert: (db, alerts) => alertWebhookOwners(db, alerts, config),
});
