import pg from "pg";
import { Prisma } from "@/generated/prisma/client";

/** The driver adapter's error kind behind a failed raw query (P2010), if any. */
const adapterErrorKind = (error: Prisma.PrismaClientKnownRequestError) =>
  (error.meta?.driverAdapterError as { cause?: { kind?: unknown } } | undefined)?.cause?.kind;

/** The SQLSTATE of a statement that went to pg directly (src/server/db/prepared-statements.ts). */
const sqlState = (error: unknown) => (error instanceof pg.DatabaseError ? error.code : undefined);

/**
 * A unique index refused the write: the database, not code, settled a race. Prisma reports it as
 * P2002 from its own queries, and as P2010 ("raw query failed") carrying the driver adapter's
 * UniqueConstraintViolation from $queryRaw / $executeRaw; pg, as SQLSTATE 23505.
 */
export const isUniqueViolation = (error: unknown): boolean => {
  if (sqlState(error) === "23505") return true;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  return error.code === "P2002" || (error.code === "P2010" && adapterErrorKind(error) === "UniqueConstraintViolation");
};

/**
 * PostgreSQL aborted the statement to break a deadlock or a serialization conflict (40P01, 40001):
 * nothing of it was written, and running it again is safe.
 */
export const isWriteConflict = (error: unknown): boolean => {
  if (["40P01", "40001"].includes(sqlState(error) ?? "")) return true;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  return error.code === "P2034" || (error.code === "P2010" && adapterErrorKind(error) === "TransactionWriteConflict");
};
