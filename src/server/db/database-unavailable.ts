/*
 * Whether an error means the database cannot serve right now (stopped, restarting, refusing or cutting
 * connections, out of connection slots) rather than that the request was wrong. Such a request may
 * well succeed a few seconds later, so the API answers 503 with Retry-After instead of a 500.
 * Prisma keeps the driver's own account in `meta.driverAdapterError.cause`; errors also arrive wrapped
 * (tRPC, our own), so the whole cause chain is searched.
 */

/** Can't reach the server, timed out, the server closed the connection, the pool had no connection in time. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
/** adapter-pg's kinds for socket errors and refused connections. */
const DRIVER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** SQLSTATE class 08 (connection exception), 57P01-57P03 (shut down, crash shutdown, cannot connect now), 53300 (too many connections). */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);
/** pg's own messages for a connection that died between queries, which carry no code. */
const MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

type Described = { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let node = error; node && typeof node === "object" && !seen.has(node); node = (node as Described).cause) {
    seen.add(node);
    const { code, kind, message, meta } = node as Described;
    if (typeof code === "string" && (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof kind === "string" && DRIVER_KINDS.has(kind)) return true;
    if (typeof message === "string" && MESSAGES.test(message)) return true;
    if (meta?.driverAdapterError?.cause && isDatabaseUnavailable(meta.driverAdapterError.cause)) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before retrying a request the database could not serve. */
export const DATABASE_RETRY_AFTER_S = 5;
