import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { PlatformDb } from "../platform/db/index.ts";
import { openPostgres } from "../platform/db/postgres.ts";
import { openSqlite } from "../platform/db/sqlite.ts";

/** One database a suite runs against; `db()` may be called again to reopen it (restart tests). */
export interface DbTarget {
  name: "sqlite" | "postgres";
  open(): Promise<{ db: () => PlatformDb; cleanup(): Promise<void> }>;
}

/**
 * Whether suites run their SQLite target: not when `TEST_DB_TARGETS=postgres` and
 * PostgreSQL is there (`npm test`'s PostgreSQL + Redis run, after the SQLite run has run
 * every file on SQLite already).
 */
export function withSqliteTarget(): boolean {
  return !(process.env.TEST_DB_TARGETS === "postgres" && process.env.TEST_DATABASE_URL);
}

/**
 * SQLite in a temporary file (unless `withSqliteTarget()` says no), plus PostgreSQL in a
 * fresh schema when TEST_DATABASE_URL is set (dropped on cleanup). `prefix` names the temp
 * dir and the schema.
 */
export function reopenableDbTargets(prefix: string): DbTarget[] {
  const all: DbTarget[] = [
    {
      name: "sqlite",
      open: async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-int-`));
        return {
          db: () => openSqlite(path.join(dir, `${prefix}.db`)),
          cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
        };
      },
    },
  ];
  const targets = withSqliteTarget() ? all : [];
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    targets.push({
      name: "postgres",
      open: async () => {
        const schema = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query(`CREATE SCHEMA "${schema}"`);
        const opened: PlatformDb[] = [];
        return {
          db: () => {
            const db = openPostgres({ connectionString: pgUrl, schema, max: 4 });
            opened.push(db);
            return db;
          },
          cleanup: async () => {
            for (const db of opened) await db.close();
            await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
            await admin.end();
          },
        };
      },
    });
  }
  return targets;
}
