import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

// npm scripts run the `node` dev dependency's binary (node_modules/.bin comes first on their PATH), so
// the tests, and every server, worker and admin process they start with process.execPath, run on it
// even where the system's Node is older. (The e2e suite asserts the same of the production server.)
test("the test runner runs on the Node that package.json's engines names", () => {
  const engines = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string }; devDependencies: Record<string, string> };
  const floor = Number(/^>=(\d+)$/.exec(engines.engines.node)?.[1]);
  expect(floor).toBeGreaterThanOrEqual(24);
  expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(floor);
  expect(process.version).toBe(`v${engines.devDependencies.node}`);
});
