import type { Db } from "@/server/db/client";
import type { ImageType } from "@/lib/sniff-image";

export type StoredIcon = { sha256: string; contentType: ImageType; bytes: Uint8Array; width: number; height: number };

/**
 * Where uploaded icons live, content-addressed by SHA-256 so every app instance serves the same bytes
 * at the same URL. The database is the store (the AppIcon table): nothing to configure, and icons are
 * small and rare. An S3-compatible bucket would be a second implementation of this type, chosen where
 * `iconStore` is called; it is not built.
 */
export type IconStore = {
  /** Stores the icon; storing bytes already there is a no-op. */
  save(icon: StoredIcon): Promise<void>;
  load(sha256: string): Promise<StoredIcon | null>;
};

export function databaseIconStore(db: Db): IconStore {
  return {
    async save({ sha256, contentType, bytes, width, height }) {
      await db.appIcon.upsert({
        where: { sha256 },
        create: { sha256, contentType, bytes: new Uint8Array(bytes), width, height },
        update: {},
      });
    },
    async load(sha256) {
      const row = await db.appIcon.findUnique({ where: { sha256 } });
      return row && { ...row, contentType: row.contentType as ImageType, bytes: row.bytes };
    },
  };
}

/** The store this deployment uses. */
export const iconStore = (db: Db): IconStore => databaseIconStore(db);
