import { Worker } from "node:worker_threads";
import type { TrackingRecord } from "@meridian/contracts";
import type { PlatformDb } from "../../platform/db/index.ts";
import { encodeSplit, type SplitFields, splitFields } from "./batch.ts";
import { copyRows, packRows, type StoredRow } from "./columns.ts";
import type { PostgresWriterOptions, PostgresWriterRequest } from "./postgres-writer.worker.ts";
import type { UploadMeta } from "./rows.ts";
import type { WriterNotice, WriterOptions, WriterRequest } from "./sqlite-writer.worker.ts";
import { RECORD_FIELDS } from "./validate.ts";

const DAY_MS = 86_400_000;
const ignore = (): void => {};

/** The latest event_day of an upload's events (retention keeps the upload until that day goes). */
function lastDayOf(records: readonly TrackingRecord[]): number {
  let lastDay = 0;
  for (const record of records) lastDay = Math.max(lastDay, Math.floor(record.timestamp / DAY_MS));
  return lastDay;
}

/** What both writer threads take for one upload: its events as one encoded batch. */
interface AcceptRequest {
  kind: "accept";
  events: number;
  lastDay: number;
  batch: string;
}

/**
 * `accept` of a sink whose writer thread stores the encoded batch. Not async: an async
 * function keeps the upload's records for as long as it awaits (routes.ts); a throw comes
 * back as a rejection, as an async function's would.
 */
function acceptThrough(send: (request: AcceptRequest) => Promise<unknown>): EventSink["accept"] {
  return ({ records, meta, split }) => {
    if (records.length === 0) return Promise.resolve();
    try {
      return send({
        kind: "accept",
        events: records.length,
        lastDay: lastDayOf(records),
        batch: encodeSplit(split ?? splitFields(records, RECORD_FIELDS), records.length, meta),
      }).then(ignore);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/** The valid events of one upload and what the server adds to them. */
export interface AcceptedUpload {
  records: readonly TrackingRecord[];
  meta: UploadMeta;
  /** `records` already split (`splitFields`), when the ingest did so while checking them. */
  split?: SplitFields | undefined;
}

/**
 * Where accepted events go. `accept` and `write` resolve once the events are committed
 * (durable as configured), so the upload is acknowledged only then; concurrent calls
 * share commits. Events accepted may reach the queryable table a little later (SQLite
 * expands uploads after acknowledging them): `settled` resolves once every event
 * accepted before the call is there.
 */
export interface EventSink {
  /** One upload's valid events (the ingest). */
  accept(upload: AcceptedUpload): Promise<void>;
  /** Rows straight into the events table. */
  write(rows: readonly StoredRow[]): Promise<void>;
  settled(): Promise<void>;
  /** A write statement run in the writer's order (retention deletes); resolves with the rows changed. */
  run(sql: string, params: (string | number)[]): Promise<number>;
  close(): Promise<void>;
}

export interface SqliteSinkOptions {
  /** false: uploads are accepted and never expanded (tests of a crash in between). */
  expand?: boolean;
  /** An upload that could not be expanded (marked in tracking_uploads and skipped). */
  onExpandError?: (message: string) => void;
  /** The writer's checkpoint pace (tests; see sqlite-writer.worker.ts). */
  checkpoint?: WriterOptions["checkpoint"];
}

/** SQLite: a writer thread owning the tracking file (see sqlite-writer.worker.ts). */
export function sqliteSink(
  file: string,
  synchronous: "full" | "normal",
  options: SqliteSinkOptions = {},
): EventSink {
  const worker = new Worker(new URL("./sqlite-writer.worker.ts", import.meta.url), {
    workerData: {
      file,
      synchronous,
      expand: options.expand !== false,
      ...(options.checkpoint === undefined ? {} : { checkpoint: options.checkpoint }),
    } satisfies WriterOptions,
  });
  const { send, close } = workerChannel<WriterRequest>(worker, (message) => {
    const notice = message as Partial<WriterNotice> | null;
    if (typeof notice?.expandError === "string") options.onExpandError?.(notice.expandError);
  });

  return {
    accept: acceptThrough(send),
    async write(rows) {
      if (rows.length > 0) {
        await send({ kind: "insert", rows: rows.length, values: packRows(rows) });
      }
    },
    async settled() {
      await send({ kind: "settle" });
    },
    run: (statement, params) => send({ kind: "run", sql: statement, params }),
    close,
  };
}

/**
 * PostgreSQL: a writer thread with connections of its own (postgres-writer.worker.ts)
 * stores each upload as one row and its events as rows pointing at it, COPYed in
 * group-committed; an upload is acknowledged once its transaction committed, so its
 * events are in the table then. `run` (retention deletes) goes through the platform's pool.
 */
export function postgresSink(db: PlatformDb, parallel = 6): EventSink {
  const connection = db.connection;
  if (connection === undefined) throw new Error("tracking: the PostgreSQL sink needs a PostgreSQL database");
  const worker = new Worker(new URL("./postgres-writer.worker.ts", import.meta.url), {
    workerData: { ...connection, parallel } satisfies PostgresWriterOptions,
  });
  const { send, close } = workerChannel<PostgresWriterRequest>(worker);

  return {
    accept: acceptThrough(send),
    async write(rows) {
      if (rows.length > 0) await send({ kind: "rows", text: copyRows(rows) });
    },
    // events are in the table once acknowledged
    settled: () => Promise.resolve(),
    async run(statement, params) {
      return (await db.run(statement, params)).changes;
    },
    close,
  };
}

/** A writer thread's replies: one per request, by id, with the rows changed or the error. */
type WorkerReply = { id: number; changes: number } | { id: number; error: string };
/** A request before `send` numbers it (each member of the union without its `id`). */
type Unsent<Request> = Request extends { id: number } ? Omit<Request, "id"> : never;

/**
 * The request/reply plumbing both writer threads share: `send` resolves with the rows the
 * request changed once the writer replied; an error or the thread's exit fails every
 * request still waiting (and every later one); `close` posts what is queued, asks the
 * writer to stop and resolves once it exited. Messages that are not reply batches go to
 * `onOther` (a notice of the writer's own, or under `node --watch` the runtime's
 * module-tracking messages, which it also posts through worker ports).
 */
function workerChannel<Request extends { id: number }>(
  worker: Worker,
  onOther: (message: unknown) => void = ignore,
): { send: (request: Unsent<Request>) => Promise<number>; close: () => Promise<void> } {
  const waiting = new Map<number, { resolve: (changes: number) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let failure: Error | undefined;

  worker.on("message", (replies: unknown) => {
    if (!Array.isArray(replies)) {
      onOther(replies);
      return;
    }
    for (const reply of replies as WorkerReply[]) {
      const entry = waiting.get(reply.id);
      waiting.delete(reply.id);
      if ("error" in reply) entry?.reject(new Error(`tracking write failed: ${reply.error}`));
      else entry?.resolve(reply.changes);
    }
  });
  const failAll = (error: Error) => {
    failure = error;
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };
  worker.on("error", failAll);
  worker.on("exit", () => failAll(new Error("tracking writer stopped")));

  // Requests made during one turn of the event loop (the uploads whose bodies arrived in
  // one poll phase) go to the writer as ONE message, posted in the check phase of the same
  // turn: one serialisation and one wake-up of the writer thread for all of them, and
  // they reach its queue together (its group commit takes them in one transaction anyway).
  let outbox: (Unsent<Request> & { id: number })[] = [];
  const flush = (): void => {
    const requests = outbox;
    outbox = [];
    if (failure === undefined) worker.postMessage(requests);
  };

  return {
    send(request) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        if (outbox.push({ ...request, id }) === 1) setImmediate(flush);
      });
    },
    async close() {
      if (failure) return;
      const exited = new Promise((resolve) => worker.once("exit", resolve));
      if (outbox.length > 0) flush();
      worker.postMessage("close");
      await exited;
    },
  };
}
