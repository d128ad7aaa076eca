import type { Db } from "@/server/db/client";
import { databaseIconStore, type IconStore } from "./icon-store";

/** Rows read at a time: an icon may be up to 10 MB, so a page stays well under a few hundred MB. */
const PAGE = 10;

export type IconCopyReport = { total: number; copied: number; removedFromDatabase: number };

/**
 * Copies the icons kept in the database (uploaded before ICON_BUCKET_URL was set) into the bucket, each
 * read back and compared byte for byte before it counts as copied; with `removeFromDatabase`, only a
 * verified copy's row is deleted. Safe to rerun: a copy writes the same object again. A mismatch stops
 * the run with the icon's hash, leaving that row in place.
 */
export async function copyIconsToBucket(db: Db, bucket: IconStore, options: { removeFromDatabase: boolean }): Promise<IconCopyReport> {
  const database = databaseIconStore(db);
  const report: IconCopyReport = { total: await db.appIcon.count(), copied: 0, removedFromDatabase: 0 };
  let after: string | undefined;
  for (;;) {
    const page = await db.appIcon.findMany({
      select: { sha256: true },
      orderBy: { sha256: "asc" },
      take: PAGE,
      ...(after ? { where: { sha256: { gt: after } } } : {}),
    });
    if (!page.length) return report;
    for (const { sha256 } of page) {
      const icon = await database.load(sha256);
      if (!icon) continue; // removed meanwhile
      await bucket.save(icon);
      const stored = await bucket.load(sha256);
      if (!stored || !Buffer.from(stored.bytes).equals(Buffer.from(icon.bytes))) {
        throw new Error(`the bucket's copy of icon ${sha256} does not match the database's; its row is kept`);
      }
      report.copied++;
      if (options.removeFromDatabase) {
        await db.appIcon.delete({ where: { sha256 } });
        report.removedFromDatabase++;
      }
    }
    after = page.at(-1)!.sha256;
  }
}
