import type { Dialect } from "../../../platform/db/types.ts";

/**
 * SQLite: accepted uploads stay in `tracking_uploads` as the record of their events, and
 * an expanded event points at its upload (`upload_id`, `upload_index`) instead of
 * repeating in `extra` what every event of its upload shares (the app, visitor, device
 * and page fields: `extra` keeps only the fields that differ between them): about
 * 1.1 KB less per event, most of what each insert wrote. Rows stored another way (older
 * rows, `EventSink.write`) keep their whole `extra` and no upload.
 *
 * `tracking_expansion.upto`: the uploads up to this id are expanded; it moves in the
 * same transaction as the events it stands for. `last_day` (the latest event_day of
 * an upload) lets retention drop an upload once every event of it is gone.
 * Uploads still waiting from the previous scheme (deleted once expanded) are all above 0.
 */
export function up(dialect: Dialect): string[] {
  if (dialect === "postgres") return [];
  return [
    "ALTER TABLE tracking_events ADD COLUMN upload_id INTEGER",
    "ALTER TABLE tracking_events ADD COLUMN upload_index INTEGER",
    "ALTER TABLE tracking_uploads ADD COLUMN last_day INTEGER NOT NULL DEFAULT 2147483647",
    "CREATE INDEX tracking_uploads_last_day ON tracking_uploads (last_day)",
    "CREATE TABLE tracking_expansion (id INTEGER PRIMARY KEY CHECK (id = 1), upto INTEGER NOT NULL)",
    "INSERT INTO tracking_expansion (id, upto) VALUES (1, 0)",
  ];
}
