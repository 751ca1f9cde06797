/**
 * The tracking events' writer for PostgreSQL, on its own thread with connections of its
 * own: the server's event loop only parses, checks and splits an upload (as for SQLite,
 * batch.ts), and this thread turns it into rows and COPYs them in, so the two cores
 * share the work.
 *
 * Stored as on SQLite: each upload as ONE row of `tracking_uploads` (the text `encodeSplit`
 * wrote, fields shared by its events written once) and its events as rows of
 * `tracking_events` that point at it and keep in `extra` only the fields that differ
 * within it (migration 202612200900). The upload ids come in blocks from a sequence, so
 * both COPY texts are made before the transaction starts.
 *
 * Group commit: requests that arrive while commits run wait in `queue`; each turn takes
 * all of them into ONE transaction (`copyInto`: a COPY per table, or, when the group
 * repeats a stored event, the events through a staging table and one INSERT that skips
 * repeats by the unique key), up to `parallel` transactions at a time, and answers each
 * request only once its transaction committed (durable: synchronous_commit). A failing
 * turn is retried one request per transaction, so one bad upload cannot fail its
 * neighbours.
 *
 * An upload's columns that every event shares (most of them: expand.ts) are computed and
 * escaped once, then repeated on each event's line.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { CopyInput } from "../../platform/db/index.ts";
import { openPostgres } from "../../platform/db/postgres.ts";
import { COLUMN_NAMES, copyField, POSTGRES_CONFLICT } from "./columns.ts";
import { expandedCopyText, expandUpload } from "./expand.ts";
import { UPLOAD_ID_BLOCK } from "./migrations/202612200900_tracking_postgres_uploads.ts";

export type PostgresWriterRequest =
  /** One accepted upload as `encodeSplit` wrote it, its event count and latest event_day. */
  | { kind: "accept"; id: number; events: number; lastDay: number; batch: string }
  /** Rows already in COPY's text format (`copyRows`). */
  | { kind: "rows"; id: number; text: string };

export type PostgresWriterReply = { id: number; changes: number } | { id: number; error: string };

export interface PostgresWriterOptions {
  connectionString: string;
  schema?: string;
  /** Transactions at a time (each its own connection). */
  parallel: number;
}

const UPLOAD_COLUMNS = ["id", "events", "last_day", "batch"] as const;
const EVENT_COLUMNS = [...COLUMN_NAMES, "upload_id", "upload_index"] as const;

/** The COPYs of one group commit: its uploads, their events, and rows written as they are. */
function copiesOf(requests: readonly PostgresWriterRequest[], ids: readonly number[]): CopyInput[] {
  let uploads = "";
  let events = "";
  let rows = "";
  let next = 0;
  for (const request of requests) {
    if (request.kind === "rows") {
      rows += request.text;
      continue;
    }
    const id = ids[next++] as number;
    // the batch is JSON: no raw tab or newline, only backslashes to escape
    uploads += `${id}\t${request.events}\t${request.lastDay}\t${copyField(request.batch)}\n`;
    events += expandedCopyText(expandUpload(request.batch), id);
  }
  const copies: CopyInput[] = [];
  if (uploads !== "") copies.push({ table: "tracking_uploads", columns: UPLOAD_COLUMNS, rows: uploads });
  if (events !== "")
    copies.push({
      table: "tracking_events",
      columns: EVENT_COLUMNS,
      rows: events,
      conflict: POSTGRES_CONFLICT,
    });
  if (rows !== "")
    copies.push({ table: "tracking_events", columns: COLUMN_NAMES, rows, conflict: POSTGRES_CONFLICT });
  return copies;
}

if (parentPort !== null) {
  const port = parentPort;
  const options = workerData as PostgresWriterOptions;
  const db = openPostgres({
    connectionString: options.connectionString,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
    max: options.parallel,
  });
  const copyInto = db.copyInto?.bind(db);
  if (copyInto === undefined) throw new Error("tracking writer: PostgreSQL without COPY");
  // upload ids [next, end): a block drawn from the sequence, refilled when used up
  let next = 0;
  let end = 0;
  let refill: Promise<void> | undefined;
  const takeIds = async (count: number): Promise<number[]> => {
    const ids: number[] = [];
    while (ids.length < count) {
      if (next < end) {
        ids.push(next++);
        continue;
      }
      refill ??= db
        .get<{ first: number }>("SELECT nextval('tracking_upload_blocks') AS first")
        .then((row) => {
          next = Number(row?.first);
          end = next + UPLOAD_ID_BLOCK;
        })
        .finally(() => {
          refill = undefined;
        });
      await refill;
    }
    return ids;
  };
  let queue: PostgresWriterRequest[] = [];
  let active = 0;
  let closing = false;

  const commit = async (batch: PostgresWriterRequest[], replies: PostgresWriterReply[]): Promise<void> => {
    try {
      let uploads = 0;
      for (const request of batch) if (request.kind === "accept") uploads++;
      await copyInto(copiesOf(batch, await takeIds(uploads)));
      for (const request of batch) replies.push({ id: request.id, changes: 0 });
    } catch (error) {
      if (batch.length === 1) {
        replies.push({ id: (batch[0] as PostgresWriterRequest).id, error: (error as Error).message });
        return;
      }
      for (const request of batch) await commit([request], replies);
    }
  };

  const finish = async () => {
    if (!closing || active > 0 || queue.length > 0) return;
    await db.close();
    port.close();
  };

  const kick = (): void => {
    while (active < options.parallel && queue.length > 0) {
      const batch = queue;
      queue = [];
      active++;
      const replies: PostgresWriterReply[] = [];
      void commit(batch, replies).finally(() => {
        port.postMessage(replies);
        active--;
        kick();
        void finish();
      });
    }
  };

  port.on("message", (message: PostgresWriterRequest[] | "close") => {
    if (message === "close") {
      closing = true;
      void finish();
      return;
    }
    for (const request of message) queue.push(request);
    kick();
  });
}
