import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PlatformDb } from "../../platform/db/index.ts";
import { loadMigrations, migrate } from "../../platform/db/migrate.ts";
import { openSqlite } from "../../platform/db/sqlite.ts";
import type { TrackingConfig } from "./config.ts";
import { type EventSink, postgresSink, type SqliteSinkOptions, sqliteSink } from "./sink.ts";

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Where events are written (`sink`) and read (`db`). */
export interface TrackingStore {
  db: PlatformDb;
  sink: EventSink;
  /** The SQLite file, or undefined on PostgreSQL. */
  file: string | undefined;
  close(): Promise<void>;
}

/**
 * On PostgreSQL the events live in the platform database. On SQLite they get a file of
 * their own beside it (`tracking.db`): its writer is a separate connection on its own
 * thread with `synchronous` as configured (FULL: fsync per group commit), so the main
 * database keeps its single connection free for the rest of the site.
 * An in-memory platform database (tests) gets a temporary file unless `file` is given.
 */
export async function openTrackingStore(
  platformDb: PlatformDb,
  config: Pick<TrackingConfig, "sqliteSync">,
  file?: string,
  sinkOptions: SqliteSinkOptions = {},
): Promise<TrackingStore> {
  if (platformDb.dialect === "postgres") {
    await migrate(platformDb, await loadMigrations(MIGRATIONS_DIR));
    const sink = postgresSink(platformDb);
    return { db: platformDb, sink, file: undefined, close: () => sink.close() };
  }
  let temp: string | undefined;
  let target = file;
  if (target === undefined) {
    if (platformDb.location === ":memory:") {
      temp = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-tracking-"));
      target = path.join(temp, "tracking.db");
    } else {
      target = path.join(path.dirname(platformDb.location), "tracking.db");
    }
  }
  const db = openSqlite(target);
  try {
    await migrate(db, await loadMigrations(MIGRATIONS_DIR));
  } catch (error) {
    await db.close();
    throw error;
  }
  const sink = sqliteSink(target, config.sqliteSync, sinkOptions);
  return {
    db,
    sink,
    file: target,
    async close() {
      await sink.close();
      await db.close();
      if (temp) fs.rmSync(temp, { recursive: true, force: true });
    },
  };
}
