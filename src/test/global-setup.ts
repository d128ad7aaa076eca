import pg from "pg";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "@/server/db/migrate";
import { TEMPLATE_DB, adminQuery, adminUrl } from "./db";

/**
 * Migrates one template database per run; each test file then copies it (CREATE DATABASE ... TEMPLATE),
 * which takes milliseconds. Without a reachable PostgreSQL the suite runs on in-memory PGlite and says so.
 */
export default async function setup(project: TestProject) {
  project.provide("embeddedDatabase", false);
  try {
    await adminQuery("SELECT 1");
  } catch {
    console.warn("\n[tests] PostgreSQL is not reachable at " + adminUrl() + ": running on embedded PGlite instead.\n");
    project.provide("embeddedDatabase", true);
    return;
  }
  await adminQuery(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE "${TEMPLATE_DB}"`);
  const url = new URL(adminUrl());
  url.pathname = `/${TEMPLATE_DB}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await applyMigrations(client);
  } finally {
    await client.end();
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    embeddedDatabase: boolean;
  }
}
