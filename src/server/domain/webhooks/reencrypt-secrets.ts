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

const page = (after: string | undefined) => ({
  select: { id: true, secretEncrypted: true, updatedAt: true },
  orderBy: { id: "asc" as const },
  take: BATCH,
  ...(after ? { cursor: { id: after }, skip: 1 } : {}),
});

/** The inbound hooks' encrypted columns: the token and each provider's secret. */
const INBOUND_COLUMNS = ["tokenEncrypted", "stripeSecretEncrypted", "revenueCatAuthEncrypted"] as const;

const inboundStore = (db: Db, column: (typeof INBOUND_COLUMNS)[number]): SecretStore => ({
  page: async (after) => {
    // A computed select key: Prisma cannot type the rows, which hold the key, the column and updatedAt.
    const rows = (await db.inboundHook.findMany({
      select: { projectId: true, [column]: true, updatedAt: true },
      orderBy: { projectId: "asc" },
      take: BATCH,
      ...(after ? { cursor: { projectId: after }, skip: 1 } : {}),
    })) as unknown as ({ projectId: string; updatedAt: Date } & Record<typeof column, string | null>)[];
    return rows.map((row) => ({ id: row.projectId, secretEncrypted: row[column], updatedAt: row.updatedAt }));
  },
  rewrite: async (row, value) =>
    (await db.inboundHook.updateMany({ where: { projectId: row.id, [column]: row.secretEncrypted }, data: { [column]: value, updatedAt: row.updatedAt } })).count,
});

/** Every secret kept encrypted at rest: webhook secrets, project secrets (for identity verification), inbound hook tokens and provider secrets. */
const stores = (db: Db): SecretStore[] => [
  {
    page: (after) => db.webhook.findMany(page(after)),
    // The row did not change for its owner: keep its updatedAt.
    rewrite: async (row, value) =>
      (await db.webhook.updateMany({ where: { id: row.id, secretEncrypted: row.secretEncrypted }, data: { secretEncrypted: value, updatedAt: row.updatedAt } })).count,
  },
  {
    page: (after) => db.project.findMany({ ...page(after), where: { secretEncrypted: { not: null } } }),
    rewrite: async (row, value) =>
      (await db.project.updateMany({ where: { id: row.id, secretEncrypted: row.secretEncrypted }, data: { secretEncrypted: value, updatedAt: row.updatedAt } })).count,
  },
  ...INBOUND_COLUMNS.map((column) => inboundStore(db, column)),
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
