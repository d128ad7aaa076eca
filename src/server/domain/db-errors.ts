import { Prisma } from "@/generated/prisma/client";

/** A unique index refused the write (Prisma P2002): the database, not code, settled a race. */
export const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
