#!/usr/bin/env node
// A stand-in for Prisma's native `schema-engine` binary, which the Prisma CLI downloads on first use:
// that download is impossible offline, so prisma.config.ts points PRISMA_SCHEMA_ENGINE_BINARY here.
// It speaks the binary's protocol (newline-delimited JSON-RPC 2.0 on stdin/stdout, and the one-shot
// `cli can-connect-to-database|create-database|drop-database` calls) and answers with the same engine
// compiled to WebAssembly (@prisma/schema-engine-wasm, same engine hash as the CLI), which reaches the
// database through a Prisma driver adapter instead of its own drivers.
//
// Datasource URLs understood:
//   postgres://... | postgresql://...   real PostgreSQL (@prisma/adapter-pg); the shadow database is a
//                                       temporary database on the same server, dropped afterwards,
//                                       unless the config names a shadowDatabaseUrl.
//   file:<folder>                       the embedded PGlite database stored in <folder>; its shadow
//                                       database is an in-memory PGlite. PGlite allows one process per
//                                       folder: do not run the CLI while the app has that folder open.
//   memory:                             a throwaway in-memory PGlite (schema/migration comparisons).
//
// stdout carries protocol messages only; everything else goes to stderr, which the CLI reads as JSON logs.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { randomUUID } from "node:crypto";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

// Anything a library prints must not corrupt the JSON-RPC stream on stdout.
console.log = console.info = console.debug = console.error;
process.noDeprecation = true;

const require = createRequire(import.meta.url);
const OID_TEXT = 25;
const OID_CHAR = 18;
// Catalog types that the driver adapters reject but the engine's introspection queries return:
// "char", int2vector, regproc, xid, oidvector, pg_node_tree, regclass, regtype. The adapters are told
// they are text, so that they pass the values through.
const CATALOG_TEXT_OIDS = new Set([OID_CHAR, 22, 24, 28, 30, 194, 2205, 2206]);
// ...but the engine reads "char" columns (e.g. pg_constraint.contype) as characters and panics on text,
// so the column indexes are remembered per result (keyed by its rows array, which the adapters pass
// through unchanged) and their column type is set back after the adapter has mapped the others.
const charColumns = new WeakMap();
const COLUMN_TYPE_CHARACTER = 6; // ColumnTypeEnum.Character in @prisma/driver-adapter-utils

const argv = parseArgs(process.argv.slice(2));
const datasource = argv.datasource ? JSON.parse(argv.datasource) : {};
const resources = new Set(); // cleanup callbacks for pools, PGlite instances and temporary databases

// ---------------------------------------------------------------------------------------------
// Arguments and targets

function parseArgs(args) {
  const out = { datamodels: [], datasource: undefined, cli: undefined };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--datamodels") out.datamodels.push(args[++i]);
    else if (a === "--datasource") out.datasource = args[++i];
    else if (a === "--enabled-preview-features" || a === "--extension-types") i++;
    else if (a === "cli") out.cli = args[++i];
    else if (a === "--version" || a === "-V") {
      process.stdout.write(`schema-engine-cli ${wasmVersionSync()}\n`);
      process.exit(0);
    }
  }
  return out;
}

function wasmVersionSync() {
  // The CLI reads the engine hash from the last word of `--version`; the package version ends with it.
  const bg = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const { version } = JSON.parse(require("node:fs").readFileSync(path.join(path.dirname(bg), "package.json"), "utf8"));
  return version.match(/[0-9a-f]{40}$/)?.[0] ?? version;
}

/** @returns {{kind: "postgres", url: string} | {kind: "pglite", dir: string | undefined}} */
function target(url) {
  if (!url || url === "memory:" || url.startsWith("memory://")) return { kind: "pglite", dir: undefined };
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: "postgres", url };
  if (url.startsWith("file:")) {
    const dir = url.startsWith("file://") ? fileURLToPath(url) : url.slice("file:".length);
    return { kind: "pglite", dir: path.resolve(dir) };
  }
  throw Object.assign(new Error(`Unsupported datasource URL for the WASM schema engine: ${redact(url)}`), {
    code: "P1013",
  });
}

function redact(url) {
  return String(url).replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}

// ---------------------------------------------------------------------------------------------
// Driver adapters

async function loadPg() {
  const pg = (await import("pg")).default;
  const { PrismaPg } = await import("@prisma/adapter-pg");
  return { pg, PrismaPg };
}

function textifyCatalogTypes(result) {
  const chars = [];
  (result?.fields ?? []).forEach((field, i) => {
    if (field.dataTypeID === OID_CHAR) chars.push(i);
    if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = OID_TEXT;
  });
  if (chars.length && Array.isArray(result.rows)) charColumns.set(result.rows, chars);
  return result;
}

/** Restores the Character column type of "char" columns (see charColumns) on an adapter or transaction. */
function restoreCharColumns(queryable) {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const i of charColumns.get(result.rows) ?? []) result.columnTypes[i] = COLUMN_TYPE_CHARACTER;
    return result;
  };
  if (queryable.startTransaction) {
    const startTransaction = queryable.startTransaction.bind(queryable);
    queryable.startTransaction = async (...args) => restoreCharColumns(await startTransaction(...args));
  }
  return queryable;
}

/** node-postgres pool whose results report catalog-only types as text (see CATALOG_TEXT_OIDS). */
function patchPool(pool) {
  const hasCallback = (args) => typeof args[args.length - 1] === "function";
  const patchQuery = (target) => {
    const query = target.query.bind(target);
    target.query = (...args) => (hasCallback(args) ? query(...args) : query(...args).then(textifyCatalogTypes));
  };
  patchQuery(pool);
  const connect = pool.connect.bind(pool);
  const patched = new WeakSet();
  pool.connect = (...args) => {
    if (hasCallback(args)) return connect(...args);
    return connect().then((client) => {
      if (!patched.has(client)) {
        patchQuery(client);
        patched.add(client);
      }
      return client;
    });
  };
  return pool;
}

/** Splits the Prisma-style `?schema=` parameter off a PostgreSQL URL: node-postgres does not know it. */
function splitSchemaParam(url) {
  const u = new URL(url);
  const schema = u.searchParams.get("schema") ?? undefined;
  u.searchParams.delete("schema");
  return { connectionString: u.toString(), schema };
}

async function postgresAdapter(url) {
  const { pg, PrismaPg } = await loadPg();
  const { connectionString, schema } = splitSchemaParam(url);
  // One session, as the native engine has: it takes a session-level advisory lock (never unlocked, and
  // again for each command) that must stay with the connection doing the work, and with a larger pool
  // a second lock call on another connection would wait for the first forever.
  // `?schema=` also sets the search path, as with the native engine, so that the unqualified names in
  // migration scripts land in the schema the engine inspects.
  const options = schema ? `-c search_path=${schema.replace(/[\\ ]/g, "\\$&")}` : undefined;
  const pool = patchPool(new pg.Pool({ connectionString, options, max: 1, idleTimeoutMillis: 0 }));
  pool.on("error", () => {}); // an idle client dropped by the server must not kill the engine
  const adapter = restoreCharColumns(await new PrismaPg(pool, schema ? { schema } : undefined).connect());
  // adapter-pg splits scripts on ";", which breaks string literals and function bodies; the native
  // engine sends the whole script at once (simple protocol, one implicit transaction), so do the same.
  adapter.executeScript = async (script) => {
    try {
      await pool.query(script);
    } catch (error) {
      adapter.onError(error);
    }
  };
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    resources.delete(end);
    await pool.end().catch(() => {});
  };
  resources.add(end);
  adapter.dispose = end;
  return { adapter, pool, end };
}

async function loadPglite() {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  return { PGlite, PrismaPGlite, extensions: { pg_trgm } };
}

/** A PGlite (or transaction) handle whose results report catalog-only types as text. */
function wrapPglite(handle) {
  return new Proxy(handle, {
    get(target, prop) {
      if (prop === "query") return (...args) => target.query(...args).then(textifyCatalogTypes);
      if (prop === "transaction") return (fn) => target.transaction((tx) => fn(wrapPglite(tx)));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * A fresh in-memory PGlite. Creating one runs initdb, seconds on a busy machine; loading a snapshot of a
 * pristine cluster takes a fraction of that, so the first one is kept in node_modules/.cache (best effort).
 */
async function memoryPglite(PGlite, extensions) {
  const entry = require.resolve("@electric-sql/pglite");
  const pkg = JSON.parse(await readFile(path.join(entry, "../../package.json"), "utf8"));
  const snapshot = path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    "../../node_modules/.cache/schema-engine-shim",
    `pglite-${pkg.version}-empty.tar`,
  );
  try {
    const bytes = await readFile(snapshot);
    return await PGlite.create({ loadDataDir: new Blob([bytes]), extensions });
  } catch {
    // no snapshot yet, or an unusable one: start from scratch and (re)write it
  }
  const db = await PGlite.create({ extensions });
  try {
    const dump = await db.dumpDataDir("none");
    await mkdir(path.dirname(snapshot), { recursive: true });
    const partial = `${snapshot}.${process.pid}.tmp`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, snapshot); // atomic: concurrent runs never read half a file
  } catch {
    // read-only tree: no snapshot, only slower
  }
  return db;
}

async function pgliteAdapter(dir) {
  const { PGlite, PrismaPGlite, extensions } = await loadPglite();
  if (dir) await mkdir(dir, { recursive: true });
  // The migrations create pg_trgm (as src/server/db/client.ts's openPglite allows); PGlite only offers
  // the extensions it is given, so the shadow database and the data folder get the same ones.
  const db = dir ? await PGlite.create(dir, { extensions }) : await memoryPglite(PGlite, extensions);
  const adapter = restoreCharColumns(await new PrismaPGlite(wrapPglite(db)).connect());
  // The adapter's own executeScript does not await the script, so its errors would be lost.
  adapter.executeScript = async (script) => {
    try {
      await db.exec(script);
    } catch (error) {
      adapter.onError(error);
    }
  };
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    resources.delete(close);
    await db.close().catch(() => {});
  };
  resources.add(close);
  adapter.dispose = close;
  return adapter;
}

/**
 * Defers opening the PGlite folder to the first query: the engine connects as soon as it starts,
 * but comparisons of schema files and migrations never touch the main database, and the folder
 * may be in use by the app.
 */
function lazyPgliteAdapter(dir) {
  let opening;
  const real = () => (opening ??= pgliteAdapter(dir));
  return {
    provider: "postgres",
    adapterName: "pglite-prisma-adapter",
    getConnectionInfo: () => ({ schemaName: undefined, supportsRelationJoins: true }),
    queryRaw: async (q) => (await real()).queryRaw(q),
    executeRaw: async (q) => (await real()).executeRaw(q),
    executeScript: async (s) => (await real()).executeScript(s),
    startTransaction: async (level) => (await real()).startTransaction(level),
    dispose: async () => {
      if (opening) await (await opening).dispose();
    },
  };
}

function quoteIdent(name) {
  return `"${String(name).replace(/"/g, '""')}"`;
}

function databaseUrl(url, database) {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

function databaseName(url) {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || "postgres";
}

/** Runs `fn` with a single connection to the server's maintenance database. */
async function withMaintenanceClient(url, fn) {
  const { pg } = await loadPg();
  const { connectionString } = splitSchemaParam(url);
  let lastError;
  for (const db of ["postgres", "template1"]) {
    const client = new pg.Client({ connectionString: databaseUrl(connectionString, db) });
    client.on("error", () => {});
    try {
      await client.connect();
    } catch (error) {
      lastError = error;
      await client.end().catch(() => {});
      if (error?.code === "3D000") continue;
      throw error;
    }
    try {
      return await fn(client);
    } finally {
      await client.end().catch(() => {});
    }
  }
  throw lastError;
}

async function dropDatabase(url, name) {
  await withMaintenanceClient(url, async (client) => {
    try {
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    } catch (error) {
      if (error?.code !== "42601") throw error; // WITH (FORCE) needs PostgreSQL 13
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`);
    }
  });
}

/** The adapter factory the engine gets, before binding: main connection and shadow databases. */
function adapterFactory(ds) {
  const main = target(ds.url);
  if (main.kind === "pglite") {
    return {
      provider: "postgres",
      adapterName: "pglite-prisma-adapter",
      connect: async () => lazyPgliteAdapter(main.dir),
      connectToShadowDb: async () => pgliteAdapter(undefined),
    };
  }
  return {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    connect: async () => (await postgresAdapter(main.url)).adapter,
    connectToShadowDb: async () => {
      if (ds.shadowDatabaseUrl) {
        // Like the native engine, an explicitly configured shadow database is wiped before use.
        const { adapter, pool } = await postgresAdapter(ds.shadowDatabaseUrl);
        const schema = splitSchemaParam(ds.shadowDatabaseUrl).schema ?? "public";
        await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE; CREATE SCHEMA ${quoteIdent(schema)}`);
        return adapter;
      }
      // A temporary database on the same server; PrismaPg's own version uses the main database
      // when given a connection string, and drops the temporary one while its pool still holds it.
      const name = `prisma_shadow_${randomUUID().replace(/-/g, "")}`;
      await withMaintenanceClient(main.url, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}`));
      const drop = async () => {
        resources.delete(drop);
        await dropDatabase(main.url, name).catch((error) =>
          logLine("WARN", { message: `Could not drop shadow database ${name}: ${errorMessage(error)}` }),
        );
      };
      resources.add(drop);
      const { adapter, end } = await postgresAdapter(databaseUrl(main.url, name));
      adapter.dispose = async () => {
        await end();
        await drop();
      };
      return adapter;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The WASM engine

let panicMessage;

async function loadEngineModule() {
  // Instantiated by hand, once per process: the package's own entry imports the .wasm as an ES module,
  // which Node does not support, and a second instantiation fails.
  globalThis.PRISMA_WASM_PANIC_REGISTRY = {
    set_message(message) {
      panicMessage = message;
      logLine("ERROR", { message: `PANIC: ${message}` });
    },
  };
  const bgPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bg = await import(bgPath);
  const bytes = await readFile(path.join(path.dirname(bgPath), "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return bg;
}

async function startEngine() {
  const bg = await loadEngineModule();
  const { bindMigrationAwareSqlAdapterFactory } = await import("@prisma/driver-adapter-utils");
  const factory = bindMigrationAwareSqlAdapterFactory(adapterFactory(datasource));
  const datamodels = argv.datamodels.length
    ? await Promise.all(argv.datamodels.map(async (p) => [p, await readFile(p, "utf8")]))
    : undefined;
  const engine = await bg.SchemaEngine.new({ datamodels }, (line) => process.stderr.write(`${line}\n`), factory);
  return { engine, factory };
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC server

async function serveRpc() {
  const { engine, factory } = await startEngine();
  const pendingReplies = new Map(); // id -> resolve, for requests this process sends to the CLI
  let nextOwnId = 1;

  const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const askCli = (method, params) =>
    new Promise((resolve) => {
      const id = `shim-${nextOwnId++}`;
      pendingReplies.set(id, resolve);
      send({ jsonrpc: "2.0", id, method, params });
    });

  async function call(method, params) {
    switch (method) {
      case "getDatabaseVersion":
        return engine.version(params);
      case "createMigration":
      case "evaluateDataLoss":
        // Both read the migrations' schema from a cache that devDiagnostic fills (other calls such as
        // applyMigrations empty it); cold, they fail with "PostgreSQL shadow DB must be provided
        // through an external factory". Fill it with the same migrations and try again.
        try {
          return await engine[method](params);
        } catch (error) {
          if (!/shadow DB must be provided through an external factory/.test(errorMessage(error))) throw error;
          await engine.devDiagnostic({ migrationsList: params.migrationsList, filters: params.filters });
          return engine[method](params);
        }
      case "diff": {
        // The native engine hands the diff to the CLI to print (which honours --output); the WASM
        // engine returns it instead.
        const { stdout, exitCode } = await engine.diff(params);
        if (typeof stdout === "string") await askCli("print", { content: stdout.replace(/\n$/, "") });
        return { exitCode };
      }
      default:
        if (typeof engine[method] !== "function" || method === "free" || method === "constructor") {
          throw Object.assign(new Error(`Method not found: ${method}`), { rpcCode: -32601 });
        }
        return engine[method](params);
    }
  }

  function rpcError(error) {
    if (error?.rpcCode) return { code: error.rpcCode, message: error.message };
    const isPanic = panicMessage !== undefined;
    const message = isPanic ? panicMessage : explainExternalErrors(errorMessage(error), factory.errorRegistry);
    panicMessage = undefined;
    const errorCode = typeof error?.code === "string" && /^P\d{4}$/.test(error.code) ? error.code : undefined;
    return {
      code: 4466,
      message: isPanic ? message : "An error happened. Check the data field for details.",
      data: { is_panic: isPanic, message, meta: {}, ...(errorCode ? { error_code: errorCode } : {}) },
    };
  }

  // A Rust panic surfaces as an uncaught "unreachable" trap after the registry got its message; the
  // instance is unusable afterwards, so answer the pending request and exit like the native binary (101).
  let current;
  process.on("uncaughtException", (error) => {
    if (current !== undefined) send({ jsonrpc: "2.0", id: current, error: rpcError(error) });
    else logLine("ERROR", { message: panicMessage ?? errorMessage(error) });
    void cleanup().finally(() => process.exit(101));
  });

  let queue = Promise.resolve();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      return;
    }
    if (!message.method) {
      pendingReplies.get(message.id)?.(message.result);
      pendingReplies.delete(message.id);
      return;
    }
    // The engine is not reentrant: one request at a time, in order.
    queue = queue.then(async () => {
      current = message.id;
      try {
        const result = await call(message.method, message.params);
        send({ jsonrpc: "2.0", id: message.id, result: result ?? {} });
      } catch (error) {
        send({ jsonrpc: "2.0", id: message.id, error: rpcError(error) });
      } finally {
        current = undefined;
      }
    });
  });
  await new Promise((resolve) => lines.on("close", resolve));
  await queue;
  await cleanup();
  process.exit(0);
}

function explainExternalErrors(message, registry) {
  return message.replace(/External error id#(\d+)/g, (text, id) => {
    const entry = registry.consumeError(Number(id));
    return entry ? errorMessage(entry.error) : text;
  });
}

function errorMessage(error) {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error) return error.message ?? JSON.stringify(error);
  return String(error);
}

async function cleanup() {
  for (const release of [...resources].reverse()) await release();
}

// ---------------------------------------------------------------------------------------------
// One-shot commands

/** Log line in the format the CLI parses from the engine's stderr. */
function logLine(level, fields) {
  process.stderr.write(
    `${JSON.stringify({ timestamp: new Date().toISOString(), level, fields, target: "schema_engine::logger" })}\n`,
  );
}

function connectionErrorFields(error, url) {
  const u = new URL(url);
  const where = `${u.hostname}:${u.port || 5432}`;
  const db = databaseName(url);
  if (error?.code === "3D000") {
    return { error_code: "P1003", message: `Database \`${db}\` does not exist on the database server at \`${where}\`.` };
  }
  if (["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ETIMEDOUT", "ECONNRESET", "EAI_AGAIN"].includes(error?.code)) {
    return {
      error_code: "P1001",
      message: `Can't reach database server at \`${where}\`\n\nPlease make sure your database server is running at \`${where}\`.`,
    };
  }
  if (error?.code === "28P01" || error?.code === "28000") {
    return {
      error_code: "P1000",
      message: `Authentication failed against database server, the provided database credentials for \`${u.username}\` are not valid.`,
    };
  }
  return { error_code: "P1000", message: errorMessage(error) };
}

async function runOneShot(command, url) {
  // The CLI skips the first stderr line and parses the rest as JSON log lines.
  process.stderr.write("schema-engine-wasm-shim\n");
  const main = target(url);
  try {
    if (main.kind === "pglite") {
      if (!main.dir) return;
      if (command === "create-database") await mkdir(main.dir, { recursive: true });
      else if (command === "drop-database") await rm(main.dir, { recursive: true, force: true });
      else if (command !== "can-connect-to-database") throw new Error(`Unknown command: ${command}`);
      // PGlite creates its folder on first open, so there is always a database to connect to.
      return;
    }
    const { pg } = await loadPg();
    const name = databaseName(main.url);
    if (command === "can-connect-to-database") {
      const client = new pg.Client({ connectionString: splitSchemaParam(main.url).connectionString });
      client.on("error", () => {});
      try {
        await client.connect();
        await client.query("SELECT 1");
      } finally {
        await client.end().catch(() => {});
      }
    } else if (command === "create-database") {
      await withMaintenanceClient(main.url, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}`));
      process.stdout.write(`Database '${name}' was successfully created.\n`);
    } else if (command === "drop-database") {
      await withMaintenanceClient(main.url, (client) => client.query(`DROP DATABASE ${quoteIdent(name)}`));
      process.stdout.write(`The database '${name}' was successfully dropped.\n`);
    } else {
      throw new Error(`Unknown command: ${command}`);
    }
  } catch (error) {
    const fields = main.kind === "postgres" ? connectionErrorFields(error, main.url) : { message: errorMessage(error) };
    logLine("ERROR", fields);
    process.exit(1);
  }
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

try {
  if (argv.cli) await runOneShot(argv.cli, datasource.url);
  else await serveRpc();
} catch (error) {
  logLine("ERROR", { message: errorMessage(error) });
  await cleanup();
  process.exit(1);
}
