import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { checkIcon, MAX_ICON_BYTES, readImageSize, sniffImage } from "./sniff-image";

// Real images from a real encoder (libvips through sharp), small and of odd sizes so width and
// height cannot be confused.
const pixels = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: channels === 4 ? { r: 10, g: 120, b: 200, alpha: 0.5 } : { r: 10, g: 120, b: 200 } } });

const bytes = async (image: ReturnType<typeof sharp>) => new Uint8Array(await image.toBuffer());

describe("sniffImage and readImageSize on real images", () => {
  it.each([
    ["PNG", () => pixels(37, 21).png(), "image/png"],
    ["PNG with alpha, palette", () => pixels(37, 21, 4).png({ palette: true }), "image/png"],
    ["JPEG baseline", () => pixels(37, 21).jpeg(), "image/jpeg"],
    ["JPEG progressive", () => pixels(37, 21).jpeg({ progressive: true }), "image/jpeg"],
    ["JPEG with EXIF before the frame header", () => pixels(37, 21).jpeg().withMetadata({ exif: { IFD0: { Copyright: "Acme" } } }), "image/jpeg"],
    ["WebP lossy (VP8)", () => pixels(37, 21).webp(), "image/webp"],
    ["WebP lossless (VP8L)", () => pixels(37, 21).webp({ lossless: true }), "image/webp"],
    ["WebP lossy with alpha (VP8X)", () => pixels(37, 21, 4).webp(), "image/webp"],
  ] as const)("%s", async (_name, make, type) => {
    const image = await bytes(make());
    expect(sniffImage(image)).toBe(type);
    expect(readImageSize(image)).toEqual({ width: 37, height: 21 });
  });

  it("reads large sides exactly (14 bits in WebP, 16 in JPEG)", async () => {
    for (const image of [pixels(4000, 17).webp(), pixels(4000, 17).webp({ lossless: true }), pixels(17, 4000).jpeg(), pixels(4000, 17).png()]) {
      const size = readImageSize(await bytes(image));
      expect([size!.width, size!.height].sort((a, b) => a - b)).toEqual([17, 4000]);
    }
  });

  it("judges by content: a renamed text file, a GIF, an SVG are not icons", async () => {
    const text = new TextEncoder().encode("This is icon.png, honestly.\n");
    expect(sniffImage(text)).toBeNull();
    expect(sniffImage(await bytes(pixels(20, 20).gif()))).toBeNull();
    expect(sniffImage(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
  });

  it("cannot read the size of a truncated header", async () => {
    for (const image of [await bytes(pixels(37, 21).png()), await bytes(pixels(37, 21).jpeg()), await bytes(pixels(37, 21).webp())]) {
      expect(readImageSize(image.subarray(0, 16))).toBeNull();
    }
  });
});

describe("checkIcon", () => {
  it("accepts a PNG, JPEG or WebP icon and says what it is", async () => {
    expect(checkIcon(await bytes(pixels(1024, 1024).png()))).toEqual({ ok: true, type: "image/png", width: 1024, height: 1024 });
    expect(checkIcon(await bytes(pixels(180, 180).webp()))).toEqual({ ok: true, type: "image/webp", width: 180, height: 180 });
  });

  it("refuses more than 10 MB (413), before looking at the content", async () => {
    expect(MAX_ICON_BYTES).toBe(10 * 1024 * 1024);
    const png = await bytes(pixels(64, 64).png());
    const padded = new Uint8Array(MAX_ICON_BYTES + 1);
    padded.set(png);
    expect(checkIcon(padded)).toMatchObject({ ok: false, problem: "too_large" });
    const exactly = new Uint8Array(MAX_ICON_BYTES);
    exactly.set(png);
    expect(checkIcon(exactly)).toMatchObject({ ok: true });
  });

  it("refuses a renamed text file", () => {
    expect(checkIcon(new TextEncoder().encode("not an image, just named icon.png"))).toMatchObject({ ok: false, problem: "not_an_image" });
  });

  it("refuses absurd sizes, such as a header claiming 100,000 x 100,000 pixels", async () => {
    const png = await bytes(pixels(64, 64).png());
    const bomb = png.slice();
    new DataView(bomb.buffer).setUint32(16, 100_000);
    new DataView(bomb.buffer).setUint32(20, 100_000);
    expect(readImageSize(bomb)).toEqual({ width: 100_000, height: 100_000 });
    expect(checkIcon(bomb)).toMatchObject({ ok: false, problem: "bad_dimensions" });
    expect(checkIcon(await bytes(pixels(8, 8).png()))).toMatchObject({ ok: false, problem: "bad_dimensions" });
    expect(checkIcon(await bytes(pixels(5000, 20).jpeg()))).toMatchObject({ ok: false, problem: "bad_dimensions" });
  });

  it("refuses an image whose header it cannot read", () => {
    expect(checkIcon(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toMatchObject({ ok: false, problem: "unreadable" });
  });
});
