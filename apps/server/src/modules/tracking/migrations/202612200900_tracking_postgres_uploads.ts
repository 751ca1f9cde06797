import type { Dialect } from "../../../platform/db/types.ts";

/**
 * PostgreSQL gets SQLite's layout (202612051100_tracking_uploads_kept): each accepted
 * upload is ONE row of `tracking_uploads` (batch.ts encoding: the fields its events share
 * written once), and each event row points at it (`upload_id`, `upload_index`) with only
 * the fields that differ within the upload in `extra`, committed in the same transaction
 * as the upload. The columns the dashboard reads are unchanged. Measured on the bench
 * upload (COPY, 10 uploads a commit, load ~1): 1,333 -> 524 WAL bytes and 20-24 -> 12-16
 * us of backend CPU per event, 7-11 -> 4-4.7 us for the writer thread to make its COPY text.
 *
 * Ids are handed out in blocks: one `nextval` of `tracking_upload_blocks` reserves
 * UPLOAD_ID_BLOCK ids for the writer that drew it (postgres-writer.worker.ts), so the
 * events' COPY text can name their upload without a round trip per commit.
 * `last_day`: the latest event_day of the upload; retention drops the upload once that
 * day is gone (maintenance.ts).
 *
 * No index on `ts` any more (as on SQLite since 202612051000): every query bounds
 * `event_day`, which picks the day partitions, and within a partition they scan; the
 * index cost one more B-tree insert and ~70 WAL bytes per event.
 */
export function up(dialect: Dialect): string[] {
  if (dialect !== "postgres") return [];
  return [
    `CREATE SEQUENCE tracking_upload_blocks INCREMENT BY ${UPLOAD_ID_BLOCK}`,
    `CREATE TABLE tracking_uploads (
      id BIGINT PRIMARY KEY,
      events INTEGER NOT NULL,
      last_day INTEGER NOT NULL,
      batch TEXT NOT NULL
    )`,
    "CREATE INDEX tracking_uploads_last_day ON tracking_uploads (last_day)",
    "ALTER TABLE tracking_events ADD COLUMN upload_id BIGINT, ADD COLUMN upload_index INTEGER",
    "DROP INDEX IF EXISTS tracking_events_ts",
  ];
}

/** Upload ids per `nextval('tracking_upload_blocks')` (NOTE: the sequence's increment). */
export const UPLOAD_ID_BLOCK = 1024;
