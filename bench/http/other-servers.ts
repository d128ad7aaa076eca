/** Servers a scenario measures besides the fixture's app: the framework-free floor, the app with other settings. */
import { spawn } from "node:child_process";
import path from "node:path";
import { AppServer, ROOT, WORK_DIR, type AppServerOptions } from "../harness/app-server";

type Target = { origin: string; pid: number };

/** Runs `fn` against the floor server (floor-server.ts) on `port`, then stops it. */
export async function withFloorServer<T>(port: number, databaseUrl: string, fn: (target: Target) => Promise<T>): Promise<T> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/http/floor-server.ts"), String(port), databaseUrl], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
    // A group of its own, as the app's: the CPU meters read a server's group.
    detached: true,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`the floor server exited (${code})`)));
      child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("floor listening") && resolve());
    });
    return await fn({ origin: `http://127.0.0.1:${port}`, pid: child.pid! });
  } finally {
    child.kill("SIGTERM");
  }
}

/** Runs `fn` against another production server of the app (as `npm start`), then stops it. */
export async function withAppServer<T>(options: Omit<AppServerOptions, "logFile">, fn: (target: Target) => Promise<T>): Promise<T> {
  const logFile = path.join(WORK_DIR, "logs", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}-port${options.port}.log`);
  const server = await AppServer.start({ ...options, logFile });
  try {
    return await fn({ origin: server.origin, pid: server.pid });
  } finally {
    await server.stop();
  }
}
