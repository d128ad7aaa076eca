import { timingSafeEqual } from "node:crypto";
import type { Db } from "@/server/db/client";
import { unappliedMigrations } from "@/server/db/migrate";
import { metricsContentType } from "@/server/observability/metrics";
import { answer, type ApiAnswer, type ApiRequest } from "./api-exchange";
import type { Route } from "./front-door";

const NO_STORE = { "cache-control": "no-store" };
const json = (status: number, body: unknown): ApiAnswer => answer(status, { "content-type": "application/json", ...NO_STORE }, JSON.stringify(body));

/**
 * What an operator's load balancer and Prometheus ask, unauthenticated except /metrics:
 * - `GET /healthz`: the process is up and serving (no database call), 200.
 * - `GET /readyz`: the database answers and every committed migration is applied: 200, else 503 with
 *   the reason, so that an instance is given traffic only once it can serve it.
 * - `GET /metrics`: Prometheus text, for a bearer of METRICS_TOKEN; without the setting it is not
 *   served at all (404), since the figures describe the business.
 */
export function operatorRoutes(deps: { db: () => Promise<Db>; migrations: readonly string[]; metricsToken: string | undefined; metrics: () => Promise<string> }): Route[] {
  return [
    { path: "/healthz", handle: async (req) => onlyGet(req) ?? json(200, { status: "ok" }) },
    { path: "/readyz", handle: async (req) => onlyGet(req) ?? readiness(deps) },
    {
      path: "/metrics",
      handle: async (req) => {
        if (!deps.metricsToken) return answer(404, { "content-type": "text/plain; charset=utf-8", ...NO_STORE }, "Not found\n");
        if (!bearerMatches(req.headers.get("authorization"), deps.metricsToken)) {
          return answer(401, { "content-type": "text/plain; charset=utf-8", "www-authenticate": 'Bearer realm="metrics"', ...NO_STORE }, "Unauthorized\n");
        }
        return onlyGet(req) ?? answer(200, { "content-type": metricsContentType, ...NO_STORE }, await deps.metrics());
      },
    },
  ];
}

/** A readiness probe must answer even when the database hangs. */
const READINESS_TIMEOUT_MS = 5_000;

const timedOut = new Error("timed out");

async function readiness({ db, migrations }: { db: () => Promise<Db>; migrations: readonly string[] }): Promise<ApiAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(timedOut), READINESS_TIMEOUT_MS)));
  try {
    const check = db().then((client) => unappliedMigrations({ query: async (sql) => ({ rows: await client.$queryRawUnsafe(sql) }) }, migrations));
    const missing = await Promise.race([check, timeout]);
    if (missing.length) return json(503, { status: "unavailable", reason: `migrations not applied: ${missing.join(", ")} (run npm run db:migrate)` });
    return json(200, { status: "ready" });
  } catch (error) {
    // Not the error's message: it may name hosts, and this answers anyone.
    return json(503, { status: "unavailable", reason: error === timedOut ? `the database did not answer within ${READINESS_TIMEOUT_MS} ms` : "the database does not answer" });
  } finally {
    clearTimeout(timer);
  }
}

const onlyGet = (req: ApiRequest): ApiAnswer | null =>
  req.method === "GET" || req.method === "HEAD" ? null : answer(405, { allow: "GET, HEAD", ...NO_STORE });

function bearerMatches(header: string | null, token: string): boolean {
  const sent = Buffer.from(/^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
