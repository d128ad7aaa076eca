import type { Db } from "@/server/db/client";
import { notFound } from "@/server/domain/errors";

/** The spec's APIKeyDeletedDto; the key stops working at once. */
export async function deleteApiKey(db: Db, organizationId: string, id: string) {
  const { count } = await db.apiKey.deleteMany({ where: { id, organizationId } });
  if (!count) throw notFound("API key");
  return { message: "The API key was deleted.", deletedKeyId: id, deletedAt: new Date().toISOString() };
}
