import type { Dialect } from "../../platform/db/types.ts";

/**
 * The stored columns of one event, in insert order, with their type. Rows travel to the
 * database as one JSON array per group commit (one bound parameter), and SQL picks the
 * columns out of it: `json_each` on SQLite, `jsonb_to_recordset` on PostgreSQL.
 */
export const COLUMNS = [
  ["event_day", "int"],
  ["ts", "bigint"],
  ["received_at", "bigint"],
  ["uid", "text"],
  ["page_unique_id", "text"],
  ["seq", "int"],
  ["log_seq", "int"],
  ["type", "int"],
  ["event_tracking_id", "text"],
  ["curr_page", "text"],
  ["page_status", "int"],
  ["path", "text"],
  ["ref_host", "text"],
  ["session_id", "text"],
  ["device_id", "text"],
  ["first_day", "int"],
  ["user_language", "int"],
  ["browser", "text"],
  ["sys", "int"],
  ["screen_width", "int"],
  ["screen_height", "int"],
  ["duration", "bigint"],
  ["is_bot", "int"],
  ["ip", "text"],
  ["pfb", "text"],
  ["data", "json"],
] as const;

export type ColumnName = (typeof COLUMNS)[number][0];
export type StoredRow = Record<Exclude<ColumnName, "data">, string | number> & { data: unknown };

const names = COLUMNS.map(([name]) => name).join(", ");

/**
 * The INSERT of stored rows; repeats (same day, uid, page view and seq) are skipped by
 * the unique index. SQLite: one row of `?` per call, run per row by the writer thread
 * inside its group-commit transaction (binding values beats json_each + json_extract
 * by an order of magnitude there). PostgreSQL: `?` is a JSON array of StoredRow, so a
 * whole group commit is one statement and one round trip.
 */
export function insertSql(dialect: Dialect): string {
  const conflict = "ON CONFLICT (event_day, uid, page_unique_id, seq) DO NOTHING";
  if (dialect === "sqlite") {
    return `INSERT INTO tracking_events (${names}) VALUES (${COLUMNS.map(() => "?").join(", ")}) ${conflict}`;
  }
  const pgType = { int: "integer", bigint: "bigint", text: "text", json: "jsonb" } as const;
  const record = COLUMNS.map(([name, type]) => `${name} ${pgType[type]}`).join(", ");
  const picks = COLUMNS.map(([name, type]) => (type === "json" ? `${name}::text` : name)).join(", ");
  return `INSERT INTO tracking_events (${names}) SELECT ${picks} FROM jsonb_to_recordset(?::jsonb) AS r(${record}) ${conflict}`;
}

/** Column names in insert order, "data" last (the writer thread stringifies it). */
export const COLUMN_NAMES: readonly string[] = COLUMNS.map(([name]) => name);
