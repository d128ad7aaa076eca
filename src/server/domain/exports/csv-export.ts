/** A CSV download: its file name and its text, produced as it is sent (see csvFile). */
export type CsvExport = { filename: string; chunks: AsyncIterable<Uint8Array> };

/** `<project name>-<what>-<UTC time>.csv`, the name reduced to characters safe in a header and a file system. */
export function exportFilename(projectName: string, what: string, now = new Date()): string {
  const name = projectName.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase().slice(0, 40) || "project";
  return `${name}-${what}-${now.toISOString().slice(0, 19).replace(/:/g, "-")}Z.csv`;
}
