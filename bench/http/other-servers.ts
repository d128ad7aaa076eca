/** Servers a scenario measures besides the fixture's app: the framework-free floor, the app with other settings. */
import { spawn } from "node:child_process";
import path from "node:path";
import { AppServer, ROOT, WORK_DIR, type AppServerOptions } from "../harness/app-server";
import { openDashboard } from "../harness/setup";

type Target = { origin: string; pid: number };
type FloorTarget = Target & { node: string; execPath: string };

/** Runs `fn` against the floor server (floor-server.ts) on `port`, then stops it. */
export async function withFloorServer<T>(port: number, databaseUrl: string, fn: (target: FloorTarget) => Promise<T>): Promise<T> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/http/floor-server.ts"), String(port), databaseUrl], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
    // A group of its own, as the app's: the CPU meters read a server's group.
    detached: true,
  });
  try {
    const [node, execPath] = await new Promise<[string, string]>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`the floor server exited (${code})`)));
      child.stdout!.on("data", (chunk: Buffer) => {
        const ready = /floor listening on \d+ node (\S+) (.+)/.exec(chunk.toString());
        if (ready) resolve([ready[1]!, ready[2]!.trim()]);
      });
    });
    return await fn({ origin: `http://127.0.0.1:${port}`, pid: child.pid!, node, execPath });
  } finally {
    child.kill("SIGTERM");
  }
}

/** Runs `fn` against another production server of the app (as `npm start`, its dashboard page served once), then stops it. */
export async function withAppServer<T>(options: Omit<AppServerOptions, "logFile">, fn: (target: Target) => Promise<T>): Promise<T> {
  const logFile = path.join(WORK_DIR, "logs", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}-port${options.port}.log`);
  const server = await AppServer.start({ ...options, logFile });
  try {
    await openDashboard(server.origin);
    return await fn({ origin: server.origin, pid: server.pid });
  } finally {
    await server.stop();
  }
}
