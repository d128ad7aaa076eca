/** Colour helpers shared by the widget and the campaign editor (one home for the hex rule on the client). */
export const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

export const isHexColor = (value: string) => HEX_COLOR.test(value);

/** `hex` when it is a valid #RRGGBB, else the fallback: a half-typed colour never breaks the drawing. */
export const usableColor = (hex: string | undefined, fallback: string) => (hex && isHexColor(hex) ? hex : fallback);

const channels = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

/** rgba() of a #RRGGBB colour at `alpha` (0..1, clamped; not a number counts as 0). */
export const withAlpha = (hex: string, alpha: number) => `rgba(${channels(hex)},${Math.min(1, Math.max(0, alpha || 0))})`;

/** Dark or light text, whichever reads better on `hex` (WCAG relative luminance). */
export function readableTextOn(hex: string): string {
  const [r = 0, g = 0, b = 0] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? "#18181b" : "#ffffff";
}
