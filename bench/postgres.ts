/** The server the benchmark runs against, and its throw-away databases. */
import { applyMigrations } from "@/server/db/migrate";
import { databaseUrl, recreateDatabase, withClient } from "./harness/databases";

export { adminUrl, checkpoint, databaseUrl, dropDatabase, recreateDatabase, withClient } from "./harness/databases";

/** A fresh database with the committed migrations applied, as the app applies them at boot. */
export async function createMigratedDatabase(name: string): Promise<string> {
  await recreateDatabase(name);
  const url = databaseUrl(name);
  await withClient(url, (c) => applyMigrations(c));
  return url;
}
