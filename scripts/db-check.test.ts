import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runNodeScript, type NodeRun } from "@/test/run-node";

const root = path.resolve(import.meta.dirname, "..");
const script = path.join(root, "scripts/db-check.mjs");

function dbCheck(...args: string[]): Promise<NodeRun> {
  return runNodeScript(script, args, { cwd: root, timeout: 170_000 });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "db-check-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Each check starts the Prisma CLI and replays the migrations into an in-memory PGlite: several seconds
// apiece, over a minute on a busy VM (load 18 killed it at 55 s), so one at a time (two cores).
describe("db:check", () => {
  it("passes when the schema and the committed migrations agree", { timeout: 180_000 }, async () => {
    const { code, output } = await dbCheck();
    expect(output).toMatch(/agree/);
    expect(code).toBe(0);
  });

  it("fails, naming the difference, when the schema has a model no migration creates", { timeout: 180_000 }, async () => {
    const schema = path.join(dir, "schema.prisma");
    const original = await readFile(path.join(root, "prisma/schema.prisma"), "utf8");
    await writeFile(schema, `${original}\nmodel DbCheckProbe {\n  id String @id\n}\n`);
    const { code, output } = await dbCheck("--schema", schema, "--migrations", path.join(root, "prisma/migrations"));
    expect(code).not.toBe(0);
    expect(output).toMatch(/disagree/);
    expect(output).toContain("DbCheckProbe");
  });
});
