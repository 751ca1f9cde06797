import type { Dialect } from "../../../platform/db/types.ts";

/**
 * SQLite only: accepted uploads waiting to be expanded into `tracking_events`, one row
 * per upload (batch.ts encoding). An upload is acknowledged once its row is committed;
 * the writer then expands it into event rows and deletes it in one transaction (see
 * sqlite-writer.worker.ts). AUTOINCREMENT keeps ids rising even after the table empties,
 * so "expanded up to id N" means every upload accepted before N.
 * `error` marks an upload whose expansion failed on its own, so it no longer blocks the
 * ones after it (kept for inspection, never expected).
 *
 * PostgreSQL inserts the events of an upload directly (postgresSink): nothing to create.
 */
export function up(dialect: Dialect): string[] {
  if (dialect === "postgres") return [];
  return [
    `CREATE TABLE tracking_uploads (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      events INTEGER NOT NULL,
      batch TEXT NOT NULL,
      error TEXT
    )`,
  ];
}
