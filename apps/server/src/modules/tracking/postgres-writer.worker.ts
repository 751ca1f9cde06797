/**
 * The tracking events' writer for PostgreSQL, on its own thread with connections of its
 * own: the server's event loop only parses, checks and splits an upload (as for SQLite,
 * batch.ts), and this thread turns it into rows and COPYs them in, so the two cores
 * share the work.
 *
 * Group commit: requests that arrive while commits run wait in `queue`; each turn takes
 * all of them into ONE transaction (`copyInto`: one COPY, or, when the group repeats a
 * stored event, COPY into a staging table and one INSERT that skips repeats by the unique
 * key), up to `parallel` transactions at a time,
 * and answers each request only once its transaction committed (durable:
 * synchronous_commit). A failing turn is retried one request per transaction, so one
 * bad upload cannot fail its neighbours.
 *
 * An upload's columns that every event shares (most of them: expand.ts) are computed and
 * escaped once, then repeated on each event's line.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openPostgres } from "../../platform/db/postgres.ts";
import { COLUMN_NAMES, POSTGRES_CONFLICT } from "./columns.ts";
import { expandedCopyText, expandUpload } from "./expand.ts";

export type PostgresWriterRequest =
  /** One accepted upload as `encodeSplit` wrote it. */
  | { kind: "accept"; id: number; batch: string }
  /** Rows already in COPY's text format (`copyRows`). */
  | { kind: "rows"; id: number; text: string };

export type PostgresWriterReply = { id: number; changes: number } | { id: number; error: string };

export interface PostgresWriterOptions {
  connectionString: string;
  schema?: string;
  /** Transactions at a time (each its own connection). */
  parallel: number;
}

function textOf(request: PostgresWriterRequest): string {
  return request.kind === "rows"
    ? request.text
    : expandedCopyText(expandUpload(request.batch, { wholeExtra: true }));
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
  let queue: PostgresWriterRequest[] = [];
  let active = 0;
  let closing = false;

  const commit = async (batch: PostgresWriterRequest[], replies: PostgresWriterReply[]): Promise<void> => {
    try {
      let text = "";
      for (const request of batch) text += textOf(request);
      await copyInto("tracking_events", COLUMN_NAMES, text, POSTGRES_CONFLICT);
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
