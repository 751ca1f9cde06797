import type { Dialect } from "../../../platform/db/types.ts";

/**
 * Tracking events, one row per event. `event_day` (UTC days since the epoch of the
 * client's `timestamp`) is the partition key on PostgreSQL and part of the dedupe key,
 * so a retry, which carries the same timestamp, lands on the same row.
 *
 * NOTE: the dedupe key is (event_day, uid, page_unique_id, seq): `seq` alone restarts
 * at 0 in every page view, and `page_unique_id` is random per page view; see
 * packages/tracker/README.md "Delivery guarantee".
 */
export function up(dialect: Dialect): string[] {
  const pg = dialect === "postgres";
  const big = pg ? "BIGINT" : "INTEGER";
  const columns = `
    event_day INTEGER NOT NULL,
    ts ${big} NOT NULL,
    received_at ${big} NOT NULL,
    uid TEXT NOT NULL,
    page_unique_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    log_seq INTEGER NOT NULL,
    type SMALLINT NOT NULL,
    event_tracking_id TEXT NOT NULL,
    curr_page TEXT NOT NULL,
    page_status SMALLINT NOT NULL,
    path TEXT NOT NULL,
    ref_host TEXT NOT NULL,
    session_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    first_day SMALLINT NOT NULL,
    user_language INTEGER NOT NULL,
    browser TEXT NOT NULL,
    sys SMALLINT NOT NULL,
    screen_width INTEGER NOT NULL,
    screen_height INTEGER NOT NULL,
    duration ${big} NOT NULL,
    is_bot SMALLINT NOT NULL,
    ip TEXT NOT NULL,
    pfb TEXT NOT NULL,
    data TEXT NOT NULL`;
  if (!pg) {
    return [
      `CREATE TABLE tracking_events (${columns})`,
      "CREATE UNIQUE INDEX tracking_events_key ON tracking_events (event_day, uid, page_unique_id, seq)",
      "CREATE INDEX tracking_events_ts ON tracking_events (ts)",
    ];
  }
  return [
    `CREATE TABLE tracking_events (${columns}) PARTITION BY RANGE (event_day)`,
    // a unique index of a partitioned table must contain the partition key: event_day is first
    "CREATE UNIQUE INDEX tracking_events_key ON tracking_events (event_day, uid, page_unique_id, seq)",
    "CREATE INDEX tracking_events_ts ON tracking_events (ts)",
    // client clocks far off (1970, 2099) land here rather than failing the whole group commit
    "CREATE TABLE tracking_events_default PARTITION OF tracking_events DEFAULT",
  ];
}
