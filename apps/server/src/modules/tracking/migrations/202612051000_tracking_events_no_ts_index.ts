import type { Dialect } from "../../../platform/db/types.ts";

/**
 * SQLite: no index on `ts`. Every query bounds `event_day` (the UTC days of `ts`, first
 * column of the unique key) beside `ts` and reads through the key instead, so each
 * inserted event maintains one index less (measured: about half the insert cost of an
 * expanded upload). PostgreSQL keeps it (daily partitions, and its inserts are elsewhere bound).
 */
export function up(dialect: Dialect): string[] {
  return dialect === "postgres" ? [] : ["DROP INDEX IF EXISTS tracking_events_ts"];
}
