import type { ImageType } from "@/lib/sniff-image";

/** An icon's file extension by its sniffed type: the URL says what the bytes are. */
export const ICON_EXTENSIONS: Record<ImageType, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

/** Where an icon is served: `/icons/{sha256}.{ext}`, content-addressed, so it never changes (cached for a year). */
export const iconPath = (sha256: string, type: ImageType) => `/icons/${sha256}.${ICON_EXTENSIONS[type]}`;

/** The hash and type an icon path names, or null when it is not one. */
export function parseIconFile(file: string): { sha256: string; type: ImageType } | null {
  const match = /^([0-9a-f]{64})\.(png|jpg|webp)$/.exec(file);
  if (!match) return null;
  const type = (Object.keys(ICON_EXTENSIONS) as ImageType[]).find((t) => ICON_EXTENSIONS[t] === match[2])!;
  return { sha256: match[1]!, type };
}
