import type { Db } from "@/server/db/client";
import { configuredKeys, encryptSecret, openSecret, type SecretKeys } from "./webhook-secret";

export type ReencryptReport = { total: number; reencrypted: number; alreadyCurrent: number; unreadable: number };

const BATCH = 500;

/**
 * After a key rotation, rewrites every webhook secret that the previous key encrypted with the current
 * key. Safe to rerun and to run beside live traffic: a row already on the current key is left alone,
 * and a row is only rewritten if it still holds the value that was read (a concurrent update wins).
 * Rows no configured key can read are counted, never touched.
 */
export async function reencryptWebhookSecrets(db: Db, keys: SecretKeys = configuredKeys()): Promise<ReencryptReport> {
  const report: ReencryptReport = { total: 0, reencrypted: 0, alreadyCurrent: 0, unreadable: 0 };
  let after: string | undefined;
  for (;;) {
    const rows = await db.webhook.findMany({
      select: { id: true, secretEncrypted: true, updatedAt: true },
      orderBy: { id: "asc" },
      take: BATCH,
      ...(after ? { cursor: { id: after }, skip: 1 } : {}),
    });
    if (!rows.length) return report;
    for (const row of rows) {
      report.total++;
      const opened = openSecret(row.secretEncrypted, keys);
      if (!opened) {
        report.unreadable++;
        continue;
      }
      if (opened.current) {
        report.alreadyCurrent++;
        continue;
      }
      const { count } = await db.webhook.updateMany({
        where: { id: row.id, secretEncrypted: row.secretEncrypted },
        // The webhook did not change for its owner: keep its updatedAt.
        data: { secretEncrypted: encryptSecret(opened.plain, keys), updatedAt: row.updatedAt },
      });
      // count 0: updated meanwhile, by a write that already used the current key.
      if (count) report.reencrypted++;
      else report.alreadyCurrent++;
    }
    after = rows.at(-1)!.id;
  }
}
