/**
 * What an uploaded app icon really is, judged by its bytes, never by its name or declared type, and
 * how large it says it is, read from its header without decoding it (a 20-byte header can claim
 * 100,000 x 100,000 pixels: a decompression bomb). Dependency-free and runtime-neutral (Uint8Array),
 * so the dashboard can check a file before uploading it and the server checks it again.
 */

/** The icon upload limit (spec: 10 MB), in bytes. */
export const MAX_ICON_BYTES = 10 * 1024 * 1024;
/** Sides an icon may have, in pixels: app icons are 1024 x 1024 at most in the stores; below 16 nothing shows. */
export const MIN_ICON_SIDE = 16;
export const MAX_ICON_SIDE = 4096;

export const ICON_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type ImageType = (typeof ICON_TYPES)[number];

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, at: number, text: string) => startsWith(bytes, [...text].map((c) => c.charCodeAt(0)), at);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniffImage(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return "image/webp";
  return null;
}

export type ImageSize = { width: number; height: number };

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);

function pngSize(b: Uint8Array): ImageSize | null {
  // The first chunk is IHDR: length (4), "IHDR", width (4), height (4).
  if (b.length < 24 || !ascii(b, 12, "IHDR")) return null;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function jpegSize(b: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 3 < b.length) {
    if (b[at] !== 0xff) return null;
    while (b[at] === 0xff && at < b.length) at++; // fill bytes
    const marker = b[at]!;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at++; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before a frame header
    if (at + 2 >= b.length) return null;
    const length = u16be(b, at + 1);
    if (length < 2) return null;
    // Start of frame: SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC). Precision (1), height (2), width (2).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 7 >= b.length) return null;
      return { height: u16be(b, at + 4), width: u16be(b, at + 6) };
    }
    at += 1 + length;
  }
  return null;
}

function webpSize(b: Uint8Array): ImageSize | null {
  if (b.length < 30) return null;
  if (ascii(b, 12, "VP8 ")) {
    // Lossy: frame tag (3), start code 9d 01 2a, then 14-bit width and height.
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return null;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (ascii(b, 12, "VP8L")) {
    // Lossless: signature 0x2f, then width - 1 and height - 1 in 14 bits each.
    if (b[20] !== 0x2f) return null;
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, "VP8X")) {
    // Extended: flags (4), canvas width - 1 and height - 1 in 24 bits each.
    return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  return null;
}

/** Pixel size from the header of a PNG, JPEG or WebP; null when the header cannot be read. */
export function readImageSize(bytes: Uint8Array): ImageSize | null {
  switch (sniffImage(bytes)) {
    case "image/png":
      return pngSize(bytes);
    case "image/jpeg":
      return jpegSize(bytes);
    case "image/webp":
      return webpSize(bytes);
    default:
      return null;
  }
}

export type IconCheck =
  | { ok: true; type: ImageType; width: number; height: number }
  | {
      ok: false;
      /** too_large: a 413; the others: a 400. */
      problem: "too_large" | "not_an_image" | "unreadable" | "bad_dimensions";
      message: string;
    };

/**
 * The whole upload check, in the order a client should hear about problems: size first (a route
 * can also refuse a larger Content-Length with MAX_ICON_BYTES before reading the body), then type,
 * then dimensions.
 */
export function checkIcon(bytes: Uint8Array): IconCheck {
  if (bytes.length > MAX_ICON_BYTES) {
    return { ok: false, problem: "too_large", message: `The icon is larger than ${MAX_ICON_BYTES / 1024 / 1024} MB.` };
  }
  const type = sniffImage(bytes);
  if (!type) return { ok: false, problem: "not_an_image", message: "The icon must be a PNG, JPEG or WebP image." };
  const dimensions = readImageSize(bytes);
  if (!dimensions) return { ok: false, problem: "unreadable", message: "The icon's image header cannot be read." };
  const { width, height } = dimensions;
  if (Math.min(width, height) < MIN_ICON_SIDE || Math.max(width, height) > MAX_ICON_SIDE) {
    return {
      ok: false,
      problem: "bad_dimensions",
      message: `The icon is ${width} x ${height} pixels; each side must be ${MIN_ICON_SIDE} to ${MAX_ICON_SIDE}.`,
    };
  }
  return { ok: true, type, width, height };
}
