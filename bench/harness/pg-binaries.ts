/** PostgreSQL's own programs: the server's (Debian: /usr/lib/postgresql/<v>/bin, newest first), else PATH. */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

export function postgresBinary(name: "pgbench" | "initdb" | "pg_ctl" | "postgres"): string {
  const lib = "/usr/lib/postgresql";
  const versions = existsSync(lib) ? readdirSync(lib).sort((a, b) => Number(b) - Number(a)) : [];
  const candidates = [
    ...versions.map((v) => path.join(lib, v, "bin", name)),
    ...(process.env.PATH ?? "").split(path.delimiter).map((dir) => path.join(dir, name)),
  ];
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`${name} not found: install PostgreSQL's server or client package (Debian: postgresql, postgresql-client).`);
  return found;
}
