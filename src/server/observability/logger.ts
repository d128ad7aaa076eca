import pino, { type Logger } from "pino";
import { getConfig, type Config } from "@/server/config";

export type { Logger };

/**
 * Lines gathered before one write: a write per line (one system call through libuv's thread pool)
 * was a seventh of a busy server's CPU with the access log on; a few KiB at a time makes it noise.
 */
const WRITE_AT_BYTES = 4096;
/** Lines wait at most this long for others (an idle server's last lines too); at exit pino writes what is left. */
const WRITE_WITHIN_MS = 250;

/**
 * The app's logger: one JSON object per line (pino), written asynchronously and a few KiB at a time
 * so that a busy server does not wait on its stdout, at LOG_LEVEL and above, pretty-printed under
 * `npm run dev`. Never give it a secret, a key, a token or a body: lines name requests by route
 * template and request id.
 */
export function createLogger(config: Pick<Config, "logLevel" | "devServer">, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = { level: config.logLevel, base: { pid: process.pid } };
  if (destination) return pino(options, destination);
  if (config.devServer) return pino({ ...options, transport: { target: "pino-pretty", options: { ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss.l", singleLine: true } } });
  return pino(options, pino.destination({ sync: false, minLength: WRITE_AT_BYTES, periodicFlush: WRITE_WITHIN_MS }));
}

// On globalThis: the server's modules and Next.js's bundle of the same code share one destination.
const holder = globalThis as { __referloopLogger?: Logger };

/** This process's logger. */
export function logger(): Logger {
  return (holder.__referloopLogger ??= createLogger(getConfig()));
}

/** Writes what the asynchronous destination still holds (before the process exits). */
export function flushLogs(): void {
  holder.__referloopLogger?.flush();
}
