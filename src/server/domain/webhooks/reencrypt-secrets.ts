import type { Db } from "@/server/db/client";
import { configuredKeys, encryptSecret, openSecret, type SecretKeys } from "./webhook-secret";

export type ReencryptReport = { total: number; reencrypted: number; alreadyCurrent: number; unreadable: number };

const BATCH = 500;

type Row = { id: string; secretEncrypted: string | null; updatedAt: Date };
/** A table of encrypted secrets: read it in id order, rewrite one row if it still holds what was read. */
type SecretStore = {
  page(after: string | undefined): Promise<Row[]>;
  rewrite(row: Row & { secretEncrypted: string }, value: string): Promise<number>;
};

/** A table's encrypted column, rows keyed by `key`; a rewrite keeps updatedAt (the row did not change for its owner). */
type Delegate = { findMany(args: object): Promise<unknown[]>; updateMany(args: object): Promise<{ count: number }> };
const columnStore = (delegate: Delegate, key: string, column: string): SecretStore => ({
  page: async (after) => {
    const rows = (await delegate.findMany({
      select: { [key]: true, [column]: true, updatedAt: true },
      orderBy: { [key]: "asc" },
      take: BATCH,
      ...(after ? { cursor: { [key]: after }, skip: 1 } : {}),
    })) as Record<string, string | Date | null>[];
    return rows.map((row) => ({ id: row[key] as string, secretEncrypted: row[column] as string | null, updatedAt: row.updatedAt as Date }));
  },
  rewrite: async (row, value) =>
    (await delegate.updateMany({ where: { [key]: row.id, [column]: row.secretEncrypted }, data: { [column]: value, updatedAt: row.updatedAt } })).count,
});

/**
 * Every secret kept encrypted at rest: webhook secrets and project secrets (for identity verification),
 * each with the previous one a rotation's overlap keeps, inbound hook tokens and provider secrets.
 */
const stores = (db: Db): SecretStore[] => [
  ...["secretEncrypted", "previousSecretEncrypted"].flatMap((column) => [columnStore(db.webhook, "id", column), columnStore(db.project, "id", column)]),
  ...["tokenEncrypted", "stripeSecretEncrypted", "revenueCatAuthEncrypted"].map((column) => columnStore(db.inboundHook, "projectId", column)),
];

/**
 * After a key rotation, rewrites every secret that the previous key encrypted with the current key.
 * Safe to rerun and to run beside live traffic: a row already on the current key is left alone, and
 * a row is only rewritten if it still holds the value that was read (a concurrent update wins).
 * Rows no configured key can read are counted, never touched.
 */
export async function reencryptSecrets(db: Db, keys: SecretKeys = configuredKeys()): Promise<ReencryptReport> {
  const report: ReencryptReport = { total: 0, reencrypted: 0, alreadyCurrent: 0, unreadable: 0 };
  for (const store of stores(db)) {
    let after: string | undefined;
    for (let rows = await store.page(after); rows.length; rows = await store.page(after)) {
      for (const row of rows) {
        if (row.secretEncrypted === null) continue;
        report.total++;
        const opened = openSecret(row.secretEncrypted, keys);
        if (!opened) report.unreadable++;
        else if (opened.current) report.alreadyCurrent++;
        // 0 rows: updated meanwhile, by a write that already used the current key.
        else if (await store.rewrite({ ...row, secretEncrypted: row.secretEncrypted }, encryptSecret(opened.plain, keys))) report.reencrypted++;
        else report.alreadyCurrent++;
      }
      after = rows.at(-1)!.id;
    }
  }
  return report;
}
