/** Prisma's unique-constraint violation (P2002), optionally on a given field. */
export function isUniqueViolation(error: unknown, field?: string): boolean {
  const e = error as { code?: string; meta?: { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[] } } } } };
  if (e?.code !== "P2002") return false;
  if (!field) return true;
  const fields = [
    ...(Array.isArray(e.meta?.target) ? (e.meta.target as string[]) : [String(e.meta?.target ?? "")]),
    ...(e.meta?.driverAdapterError?.cause?.constraint?.fields ?? []),
  ];
  return fields.some((f) => f.includes(field));
}
