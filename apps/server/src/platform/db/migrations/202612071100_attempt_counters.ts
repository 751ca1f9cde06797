import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Attempt counters for secrets (passwords, codes, TOTP) and code sends, counted before the
 * check (platform/attempts): `pending` are reserved attempts still being checked.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE attempt_counters (
      counter_key TEXT PRIMARY KEY,
      failures INTEGER NOT NULL DEFAULT 0,
      pending INTEGER NOT NULL DEFAULT 0,
      pending_at ${t.bigint} NOT NULL DEFAULT 0,
      blocks INTEGER NOT NULL DEFAULT 0,
      blocked_until ${t.bigint} NOT NULL DEFAULT 0,
      last_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX attempt_counters_last ON attempt_counters (last_at)",
  ];
}
