/**
 * Screen sizes from the two sides of a match, made comparable. The landing page reads `screen.width`
 * and `screen.height` (CSS pixels) and `devicePixelRatio`; the app reads points (iOS) or dp (Android),
 * e.g. React Native's `Dimensions.get("screen")` and `PixelRatio.get()`. A CSS pixel on a phone is a
 * point / dp, so both describe the same logical screen, up to:
 * - orientation: Android browsers swap width and height in landscape, so both sides are stored in
 *   portrait order (the smaller side is the width);
 * - rounding: Android densities like 2.625 give fractional dp (411.43); Chrome rounds, the app may
 *   not, so sizes are rounded and compared with a tolerance of 2;
 * - system bars: on Android one side may count the navigation bar in the height and the other not,
 *   so an equal width with a height within 10% is a weaker "same width" rather than a mismatch.
 */
export type ScreenSize = { width: number; height: number; pixelRatio: number | null };

export type ScreenComparison = "same" | "same_width" | "different";

const MAX_SIDE = 10_000;
const SIDE_TOLERANCE = 2;
const HEIGHT_BAR_TOLERANCE = 0.1;
const RATIO_TOLERANCE = 0.05;

const positive = (value: number | null | undefined, max: number): value is number =>
  typeof value === "number" && Number.isFinite(value) && value > 0 && value <= max;

/** Portrait order, whole numbers, pixel ratio to two decimals; null when the sides are not plausible. */
export function normalizeScreen(width: number | null | undefined, height: number | null | undefined, pixelRatio?: number | null): ScreenSize | null {
  if (!positive(width, MAX_SIDE) || !positive(height, MAX_SIDE)) return null;
  const [small, large] = width <= height ? [width, height] : [height, width];
  return {
    width: Math.round(small),
    height: Math.round(large),
    pixelRatio: positive(pixelRatio, 10) ? Math.round(pixelRatio * 100) / 100 : null,
  };
}

/** The stored form (LinkClick.screenSize): "390x844@3", or "390x844" without a pixel ratio. */
export function formatScreenSize(screen: ScreenSize): string {
  return `${screen.width}x${screen.height}${screen.pixelRatio === null ? "" : `@${screen.pixelRatio}`}`;
}

export function parseScreenSize(stored: string | null | undefined): ScreenSize | null {
  const match = /^(\d+)x(\d+)(?:@(\d+(?:\.\d+)?))?$/.exec(stored ?? "");
  if (!match) return null;
  return normalizeScreen(Number(match[1]), Number(match[2]), match[3] === undefined ? null : Number(match[3]));
}

export function compareScreens(a: ScreenSize, b: ScreenSize): ScreenComparison {
  if (Math.abs(a.width - b.width) > SIDE_TOLERANCE) return "different";
  const heightGap = Math.abs(a.height - b.height);
  if (heightGap <= SIDE_TOLERANCE) return "same";
  return heightGap <= HEIGHT_BAR_TOLERANCE * Math.max(a.height, b.height) ? "same_width" : "different";
}

/** null when either side does not know its ratio. */
export function samePixelRatio(a: ScreenSize, b: ScreenSize): boolean | null {
  if (a.pixelRatio === null || b.pixelRatio === null) return null;
  return Math.abs(a.pixelRatio - b.pixelRatio) <= RATIO_TOLERANCE;
}
