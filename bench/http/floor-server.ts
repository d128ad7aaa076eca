/**
 * The framework-free floor of scenario 1 (never shipped): `GET /api/v1/public/projects/{projectId}/
 * users/by-user-id/{id}` answered by node:http and pg alone, doing the database work the app does (the
 * API key looked up by its hash once and kept, then the app's own lookup statement, prepared) and
 * nothing else: no routing table, validation, middleware, problem shapes or DTO. What the app reaches
 * as a share of this, on the same machine in the same run, is what its request pipeline costs.
 *
 *   tsx bench/http/floor-server.ts <port> <databaseUrl>
 */
import { createHash } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { Prisma } from "@/generated/prisma/client";
import { APP_USER_COLUMNS, APP_USER_JOINS } from "@/server/domain/app-users/to-app-user-dto";

const [port, databaseUrl] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl });
const PATH = /^\/api\/v1\/public\/projects\/([^/]+)\/users\/by-user-id\/([^/?]+)$/;
// The app's statement, with its placeholders in the order it binds them.
const lookup = Prisma.sql`
  SELECT ${APP_USER_COLUMNS}
  FROM "Project" p
  LEFT JOIN "AppUser" u ON u."projectId" = p."id" AND u."clientProvidedId" = ${"$clientProvidedId"}
  ${APP_USER_JOINS}
  WHERE p."id" = ${"$projectId"} AND p."organizationId" = ${"$organizationId"}`;
const keys = new Map<string, string | null>();

async function organizationOf(authorization: string | undefined): Promise<string | null> {
  const key = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  if (!key) return null;
  const hash = createHash("sha256").update(key).digest("hex");
  if (!keys.has(hash)) {
    const { rows } = await pool.query<{ organizationId: string }>(`SELECT "organizationId" FROM "ApiKey" WHERE "keyHash" = $1`, [hash]);
    keys.set(hash, rows[0]?.organizationId ?? null);
  }
  return keys.get(hash)!;
}

http
  .createServer((req, res) => {
    const match = PATH.exec(req.url ?? "");
    if (req.method !== "GET" || !match) return void res.writeHead(404).end();
    void organizationOf(req.headers.authorization)
      .then(async (organizationId) => {
        if (!organizationId) return void res.writeHead(401).end();
        const values = lookup.values.map((v) => (v === "$clientProvidedId" ? decodeURIComponent(match[2]!) : v === "$projectId" ? match[1] : organizationId));
        const { rows } = await pool.query({ name: "floor-lookup", text: lookup.text, values });
        const row = rows[0] as { id: string | null } | undefined;
        if (!row?.id) return void res.writeHead(404).end();
        const body = JSON.stringify(row);
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
      })
      .catch(() => res.writeHead(500).end());
  })
  // Its Node, which the bench holds to the app server's.
  .listen(Number(port), "127.0.0.1", () => console.log(`floor listening on ${port} node ${process.version} ${process.execPath}`));
