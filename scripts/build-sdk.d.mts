export const OUT_DIR: string;
export function buildSdk(outDir?: string): Promise<{ ui: string; files: string[] }>;
