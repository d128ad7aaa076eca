export const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

export const isHexColor = (value: string) => HEX_COLOR.test(value);

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** `hex` when it is a valid #RRGGBB, else the fallback: the preview keeps working while you type. */
export const usableColor = (hex: string, fallback: string) => (isHexColor(hex) ? hex : fallback);

/** rgba() of a #RRGGBB colour at `alpha` (0..1). */
export function withAlpha(hex: string, alpha: number): string {
  const [r, g, b] = channels(hex);
  return `rgba(${r}, ${g}, ${b}, ${Math.min(1, Math.max(0, alpha))})`;
}

/** Dark or light text, whichever reads better on `hex` (WCAG relative luminance). */
export function readableTextOn(hex: string): string {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.4 ? "#18181b" : "#ffffff";
}
