/**
 * One CSV export read to its end against a kept bench database, for a CPU profile of the export path:
 *   npm run bench -- --only overview --keep-db
 *   node --cpu-prof --cpu-prof-dir=.data/profiles --import tsx bench/profile-export.ts [app-users|referrals|deliveries]
 */
import "./environment";
import { openPostgres } from "@/server/db/client";
import { exportAppUsers } from "@/server/domain/exports/export-app-users";
import { exportDeliveries } from "@/server/domain/exports/export-deliveries";
import { exportReferrals } from "@/server/domain/exports/export-referrals";
import { databaseUrl, withClient } from "./postgres";
import { measureExport } from "./overview-phase";

const file = process.argv[2] ?? "app-users";
const url = databaseUrl(process.env.BENCH_DATABASE ?? "referloop_bench");
const db = openPostgres(url);
const [project] = await withClient(url, async (c) =>
  (await c.query<{ id: string; organizationId: string }>(`SELECT p."id", p."organizationId" FROM "Project" p WHERE p."name" = 'Bench insight' LIMIT 1`)).rows,
);
if (!project) throw new Error("No 'Bench insight' project: run npm run bench -- --only overview --keep-db first");
const make = {
  "app-users": () => exportAppUsers(db, project.organizationId, project.id, { attributes: ["plan"] }),
  referrals: () => exportReferrals(db, project.organizationId, project.id, {}),
  deliveries: () => exportDeliveries(db, project.organizationId, project.id, {}),
}[file];
if (!make) throw new Error(`Unknown export ${file}`);
const run = await measureExport(`${file}.csv`, make);
console.log(`${run.file}: ${run.rows} rows in ${(run.wallMs / 1000).toFixed(1)} s, ${Math.round(run.rowsPerS)} rows/s, RSS ${Math.round(run.rssBefore / 2 ** 20)} -> peak ${Math.round(run.rssPeak / 2 ** 20)} MB`);
await db.$disconnect();
