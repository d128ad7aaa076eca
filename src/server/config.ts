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

  // --- Accounts and team security (issue 9): secrets and e-mail. Kept together to merge easily. ---
  /** Signs dashboard sessions; generated into the data folder when unset (not allowed: secretsRequired). */
  get authSecret() {
    return process.env.NEXTAUTH_SECRET || undefined;
  },
  /** Encrypts webhook secrets at rest; generated into the data folder when unset (not allowed: secretsRequired). */
  get encryptionKey() {
    return process.env.REFERLOOP_ENCRYPTION_KEY || undefined;
  },
  /** The key before a rotation: still decrypts, never encrypts. */
  get previousEncryptionKey() {
    return process.env.REFERLOOP_ENCRYPTION_KEY_PREVIOUS || undefined;
  },
  /**
   * Production on PostgreSQL must be given its secrets: a generated one would differ per instance and
   * per disk, so other instances could not read sessions or decrypt webhook secrets. NODE_ENV, not
   * REFERLOOP_ENV, decides: relaxed URL rules do not make a deployment single-instance.
   */
  get secretsRequired() {
    return Boolean(this.databaseUrl) && process.env.NODE_ENV === "production";
  },
  /** `next dev`: the dashboard's CSP allows what the dev server needs (eval, inline styles). */
  get devServer() {
    return process.env.NODE_ENV === "development";
  },
  /** Production mode sends the session cookie with `Secure` (and the `__Secure-` name prefix). */
  get secureCookies() {
    return this.productionMode;
  },
  /** `smtp://user:pass@host:587` or `smtps://...`: send e-mail through it; unset writes files to `<dataDir>/mail`. */
  get smtpUrl() {
    return process.env.SMTP_URL || undefined;
  },
  /** The From of outgoing e-mail. */
  get mailFrom() {
    return process.env.MAIL_FROM || "Referloop <no-reply@localhost>";
  },
};
