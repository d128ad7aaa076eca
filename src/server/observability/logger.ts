import pino, { type Logger } from "pino";
import { getConfig, type Config } from "@/server/config";

export type { Logger };

/**
 * The app's logger: one JSON object per line (pino), written asynchronously so that a busy server does
 * not wait on its stdout, at LOG_LEVEL and above, pretty-printed under `npm run dev`. Never give it a
 * secret, a key, a token or a body: lines name requests by route template and request id.
 */
export function createLogger(config: Pick<Config, "logLevel" | "devServer">, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = { level: config.logLevel, base: { pid: process.pid } };
  if (destination) return pino(options, destination);
  if (config.devServer) return pino({ ...options, transport: { target: "pino-pretty", options: { ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss.l", singleLine: true } } });
  return pino(options, pino.destination({ sync: false }));
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
