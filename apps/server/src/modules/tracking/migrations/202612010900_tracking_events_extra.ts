import type { Dialect } from "../../../platform/db/types.ts";

/**
 * `data` (the whole event as JSON, most of it repeating the columns) becomes `extra`:
 * only the fields no column holds as sent (see `toRow` in ingest.ts). Rows stored before
 * keep their whole event there, a superset of the new shape. A rename is metadata only
 * on both databases (and reaches every partition on PostgreSQL).
 */
export function up(_dialect: Dialect): string[] {
  return ["ALTER TABLE tracking_events RENAME COLUMN data TO extra"];
}
