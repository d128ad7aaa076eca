import path from "node:path";

/**
 * Settings read from the environment, in one place. Everything has an embedded default so a fresh
 * checkout runs with no configuration at all.
 */
export const config = {
  /** Folder of the embedded database and generated secrets. */
  get dataDir() {
    // turbopackIgnore: a runtime folder, not a build input (else the whole project is traced).
    return path.resolve(/* turbopackIgnore: true */ process.env.REFERLOOP_DATA_DIR ?? ".data");
  },
  get databaseUrl() {
    return process.env.DATABASE_URL || undefined;
  },
  /**
   * Production mode tightens URL rules (https only, no private webhook targets). It follows
   * NODE_ENV unless REFERLOOP_ENV says otherwise, so a production build can be tested locally.
   */
  get productionMode() {
    const explicit = process.env.REFERLOOP_ENV;
    if (explicit) return explicit === "production";
    return process.env.NODE_ENV === "production";
  },
};
