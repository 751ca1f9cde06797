import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Secrets every instance on this database must share (the login-encryption key, the
 * accounts secret when the environment gives none): made once by the first instance,
 * sealed under SECRETS_KEY in production (platform/shared-secrets.ts).
 */
export function up(dialect: Dialect): string {
  const t = ddl(dialect);
  return `CREATE TABLE shared_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    sealed ${t.bool} NOT NULL,
    created_at ${t.bigint} NOT NULL
  )`;
}
