import { execFile } from "node:child_process";
import { promisify } from "node:util";

export type NodeRun = { code: number; output: string };

/** Runs a Node script to its end and returns its exit code and its stdout + stderr; a failing exit is returned, not thrown. */
export async function runNodeScript(
  script: string,
  args: string[],
  options: { cwd: string; timeout: number; env?: NodeJS.ProcessEnv },
): Promise<NodeRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, ...args], options);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}
