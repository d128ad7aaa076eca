import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";

/** A client, or the transaction a caller already opened (an audited action's). */
export type DbOrTx = Db | Prisma.TransactionClient;

/** Runs `work` in a transaction: a new one on a client, the caller's own when handed a transaction. */
export function inTransaction<T>(db: DbOrTx, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return "$transaction" in db && typeof db.$transaction === "function" ? (db as Db).$transaction(work) : work(db);
}
