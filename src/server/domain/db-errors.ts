import { Prisma } from "@/generated/prisma/client";

/**
 * A unique index refused the write: the database, not code, settled a race. Prisma reports it as
 * P2002 from its own queries, and as P2010 ("raw query failed") carrying the driver adapter's
 * UniqueConstraintViolation from $queryRaw / $executeRaw.
 */
export const isUniqueViolation = (error: unknown): boolean => {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002") return true;
  const adapterError = error.meta?.driverAdapterError as { cause?: { kind?: unknown } } | undefined;
  return error.code === "P2010" && adapterError?.cause?.kind === "UniqueConstraintViolation";
};
