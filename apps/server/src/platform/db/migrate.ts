import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { PlatformDb } from "./internal.ts";
import type { Dialect } from "./types.ts";

export interface Migration {
  /** The file name without `.ts`: `YYYYMMDDHHMM_name`, so ids sort in apply order. */
  id: string;
  /** The SQL: one script, or a list of statements run in order. */
  up(dialect: Dialect): string | readonly string[];
}

export const MIGRATION_FILE = /^(\d{12}_[a-z0-9_]+)\.ts$/;

/**
 * Loads every `YYYYMMDDHHMM_name.ts` in `dir`, ordered by name. Adding a migration is
 * adding one file; each exports `up(dialect)` returning the SQL to run (a script or a
 * list of statements).
 */
export async function loadMigrations(dir: string): Promise<Migration[]> {
  const files = fs
    .readdirSync(dir)
    .filter((file) => MIGRATION_FILE.test(file))
    .sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const mod: { up?: unknown } = await import(pathToFileURL(path.join(dir, file)).href);
    if (typeof mod.up !== "function") throw new Error(`migration ${file} does not export up(dialect)`);
    migrations.push({ id: file.slice(0, -3), up: mod.up as Migration["up"] });
  }
  return migrations;
}

/**
 * Applies the pending migrations in one transaction and records them in
 * `schema_migrations`. Returns the ids applied now.
 *
 * NOTE: on PostgreSQL a transaction-scoped advisory lock (per schema) makes a second
 * process starting at the same time wait, then find nothing left to do. On SQLite
 * `BEGIN IMMEDIATE` plus busy_timeout does the same.
 */
export async function migrate(db: PlatformDb, migrations: readonly Migration[]): Promise<string[]> {
  const ordered = [...migrations].sort((a, b) => a.id.localeCompare(b.id));
  return db.transaction(async (tx) => {
    if (tx.dialect === "postgres") {
      await tx.exec(
        "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.meridian.schema_migrations'))",
      );
    }
    await tx.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)",
    );
    const rows = await tx.all<{ id: string }>("SELECT id FROM schema_migrations");
    const done = new Set(rows.map((row) => row.id));
    const applied: string[] = [];
    for (const migration of ordered) {
      if (done.has(migration.id)) continue;
      const sql = migration.up(tx.dialect);
      for (const statement of typeof sql === "string" ? [sql] : sql) await tx.exec(statement);
      await tx.run("INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)", [
        migration.id,
        Date.now(),
      ]);
      applied.push(migration.id);
    }
    return applied;
  });
}
