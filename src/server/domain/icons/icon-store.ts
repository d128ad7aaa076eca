import { AwsClient } from "aws4fetch";
import type { Config, IconBucket } from "@/server/config";
import type { Db } from "@/server/db/client";
import { ICON_TYPES, type ImageType } from "@/lib/sniff-image";

export type StoredIcon = { sha256: string; contentType: ImageType; bytes: Uint8Array; width: number; height: number };

/**
 * Where uploaded icons live, content-addressed by SHA-256 so every app instance serves the same bytes
 * at the same URL: the database (the AppIcon table) by default, nothing to configure, or an
 * S3-compatible bucket when ICON_BUCKET_URL is set. Either way the app serves them at /icons/, so
 * icon URLs do not change with the store.
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

/**
 * Objects `icons/{sha256}` with the image's type as Content-Type and its sides as metadata. A PUT of
 * the same key writes the same bytes, so saving twice is harmless. The bucket's answer is checked
 * like any stored data: an object that is not one of ours reads as absent.
 */
export function bucketIconStore(bucket: IconBucket): IconStore {
  const client = new AwsClient({ ...bucket, service: "s3" });
  const url = (sha256: string) => `${bucket.url}/icons/${sha256}`;
  const send = async (request: Request) => {
    const response = await fetch(await client.sign(request));
    // Only a read may find nothing; any other refusal is the bucket's configuration or health.
    if (!response.ok && !(response.status === 404 && request.method === "GET")) {
      throw new Error(`icon bucket answered ${response.status} to ${request.method} ${new URL(request.url).pathname}`);
    }
    return response;
  };
  return {
    async save({ sha256, contentType, bytes, width, height }) {
      const body = new Uint8Array(bytes);
      const headers = { "content-type": contentType, "x-amz-meta-width": String(width), "x-amz-meta-height": String(height) };
      await send(new Request(url(sha256), { method: "PUT", body, headers }));
    },
    async load(sha256) {
      const response = await send(new Request(url(sha256)));
      if (response.status === 404) return null;
      const contentType = response.headers.get("content-type") as ImageType;
      const [width, height] = ["x-amz-meta-width", "x-amz-meta-height"].map((name) => Number(response.headers.get(name)));
      if (!ICON_TYPES.includes(contentType) || !Number.isInteger(width) || !Number.isInteger(height)) return null;
      return { sha256, contentType, bytes: new Uint8Array(await response.arrayBuffer()), width: width!, height: height! };
    },
  };
}

/**
 * The store this deployment uses. With a bucket, new icons go there and icons uploaded before it was
 * configured are still read from the database, so configuring one breaks no icon URL.
 */
export function iconStore(db: Db, config: Pick<Config, "iconBucket">): IconStore {
  const database = databaseIconStore(db);
  if (!config.iconBucket) return database;
  const bucket = bucketIconStore(config.iconBucket);
  return { save: bucket.save, load: async (sha256) => (await bucket.load(sha256)) ?? (await database.load(sha256)) };
}
