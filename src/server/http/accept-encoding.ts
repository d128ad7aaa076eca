/** Whether Accept-Encoding allows `coding` (named, and not with `q=0`). */
export function acceptsCoding(acceptEncoding: string, coding: string): boolean {
  return acceptEncoding.split(",").some((part) => {
    const [name = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    return name === coding && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}
