import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const LOGGER = `const { createLogger } = await import("@/server/observability/logger"); const log = createLogger({ logLevel: "info", devServer: false });`;

/** A process with the production logger on its stdout (a pipe here; a file or a shipper's pipe in production), running `script`. */
function runWithLogger(script: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", `${LOGGER} ${script}`],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const chunks: string[] = [];
  child.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  return { chunks, exited: once(child, "exit") };
}

// The logger gathers lines before writing (a write per line was a seventh of a busy server's CPU):
// none may be lost at exit, and an idle server's lines still go out within a fraction of a second.
describe("the production logger", () => {
  it("writes every line of a busy moment, one JSON object per line, and what is left when the process exits", async () => {
    const run = runWithLogger(`for (let i = 0; i < 500; i++) log.info({ i, route: "/api/v1/x" }, "request"); process.exit(0);`);
    await run.exited;
    const lines = run.chunks.join("").trimEnd().split("\n").map((l) => JSON.parse(l) as { i: number; msg: string });
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(lines.every((l) => l.msg === "request")).toBe(true);
  });

  it("writes a lone line while the process goes on, without waiting for more lines or the exit", async () => {
    // The child logs one line, then stays up until told to exit (stdin closed): the line must come
    // before that, from the periodic write; else the test waits out its time and fails.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", `${LOGGER} log.info("lone line"); process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`],
      { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] },
    );
    const exited = once(child, "exit");
    let output = "";
    await new Promise<void>((resolve) => child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()).includes("lone line") && resolve()));
    child.stdin!.end();
    await exited;
    expect(output.trimEnd().split("\n").filter((l) => l.includes("lone line"))).toHaveLength(1);
  });
});
