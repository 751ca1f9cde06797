import type { PlatformDb } from "../../platform/db/index.ts";
import type { EventSink } from "./sink.ts";

const DAY_MS = 86_400_000;
/** Rows deleted per statement on SQLite, so uploads waiting behind the clean-up are not held long. */
export const PURGE_BATCH = 5_000;
/** Accepted uploads (about 50 events each) deleted per statement on SQLite. */
const UPLOADS_PURGE_BATCH = 500;

export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);

/** `tracking_events_20261122`: the partition of one UTC day. */
export function partitionName(day: number): string {
  return `tracking_events_${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll("-", "")}`;
}

/**
 * PostgreSQL: creates the partitions of today and the next `ahead` days. Each is built
 * beside the table, filled with any rows of its day already sitting in the default
 * partition (clients whose clock ran ahead), then attached, so creating it never fails
 * on such rows. An advisory lock keeps two processes from doing it at once.
 */
export async function ensurePartitions(db: PlatformDb, now: number, ahead: number): Promise<string[]> {
  if (db.dialect !== "postgres") return [];
  return db.transaction(async (tx) => {
    await tx.exec(
      "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.meridian.tracking_partitions'))",
    );
    const existing = new Set(
      (
        await tx.all<{ name: string }>(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           JOIN pg_class p ON p.oid = i.inhparent
           WHERE p.relname = 'tracking_events' AND p.relnamespace = to_regnamespace(current_schema())`,
        )
      ).map((row) => row.name),
    );
    const created: string[] = [];
    const today = dayOf(now);
    for (let day = today; day <= today + ahead; day++) {
      const name = partitionName(day);
      if (existing.has(name)) continue;
      await tx.exec(`CREATE TABLE ${name} (LIKE tracking_events INCLUDING DEFAULTS)`);
      await tx.exec(
        `WITH moved AS (DELETE FROM tracking_events_default WHERE event_day = ${day} RETURNING *)
         INSERT INTO ${name} SELECT * FROM moved`,
      );
      await tx.exec(
        `ALTER TABLE tracking_events ATTACH PARTITION ${name} FOR VALUES FROM (${day}) TO (${day + 1})`,
      );
      created.push(name);
    }
    return created;
  });
}

/**
 * Drops the events of days older than `retentionDays`: whole partitions on PostgreSQL
 * (plus old rows of the default partition), batched deletes on SQLite through the
 * writer so that they queue with the uploads instead of locking them out.
 * The accepted uploads whose events are all older go too (tracking_uploads).
 * Returns the event rows deleted (SQLite) or partitions dropped (PostgreSQL).
 */
export async function purgeOldEvents(
  db: PlatformDb,
  sink: EventSink,
  now: number,
  retentionDays: number,
): Promise<number> {
  const cutoff = dayOf(now) - retentionDays + 1;
  if (db.dialect === "postgres") {
    return db.transaction(async (tx) => {
      await tx.exec(
        "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.meridian.tracking_partitions'))",
      );
      const old = (
        await tx.all<{ name: string }>(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           JOIN pg_class p ON p.oid = i.inhparent
           WHERE p.relname = 'tracking_events' AND p.relnamespace = to_regnamespace(current_schema())
             AND c.relname ~ '^tracking_events_[0-9]{8}$'`,
        )
      )
        .map((row) => row.name)
        .filter((name) => name < partitionName(cutoff));
      for (const name of old) await tx.exec(`DROP TABLE ${name}`);
      await tx.run("DELETE FROM tracking_events_default WHERE event_day < ?", [cutoff]);
      // the accepted uploads whose events are all gone (their days dropped just now)
      await tx.run("DELETE FROM tracking_uploads WHERE last_day < ?", [cutoff]);
      return old.length;
    });
  }
  let total = 0;
  for (;;) {
    const deleted = await sink.run(
      "DELETE FROM tracking_events WHERE rowid IN (SELECT rowid FROM tracking_events WHERE event_day < ? LIMIT ?)",
      [cutoff, PURGE_BATCH],
    );
    total += deleted;
    if (deleted < PURGE_BATCH) break;
  }
  // the accepted uploads kept as the record of expanded events whose days are all gone
  while (
    (await sink.run(
      `DELETE FROM tracking_uploads WHERE id IN (SELECT id FROM tracking_uploads WHERE last_day < ?
         AND id <= (SELECT upto FROM tracking_expansion WHERE id = 1) LIMIT ?)`,
      [cutoff, UPLOADS_PURGE_BATCH],
    )) === UPLOADS_PURGE_BATCH
  ) {}
  return total;
}
