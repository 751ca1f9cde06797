/**
 * The tracking file's only writer, on its own thread: node:sqlite is synchronous, so
 * the fsync of each commit would otherwise stall the server's event loop.
 *
 * Group commit: messages that arrive while a commit runs wait in `queue`; the next turn
 * writes all of them in ONE transaction, commits (one fsync), and only then acknowledges
 * each. Under load a turn first gathers for up to GATHER_MS (or GATHER_ROWS rows), so
 * one fsync covers more uploads. An upload's rows go in as multi-row INSERTs of up to
 * CHUNK rows (one statement step each, not one per row). A failing turn is retried one
 * message per transaction, so one bad message cannot fail its neighbours.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { parentPort, workerData } from "node:worker_threads";
import { COLUMN_NAMES, sqliteInsertSql, unpackRows } from "./columns.ts";

export type WriterRequest =
  /**
   * `values`: the rows as `packRows` makes them (one string per upload: a single copy
   * to this thread instead of a structured clone per value).
   */
  | { kind: "insert"; id: number; rows: number; values: string }
  | { kind: "run"; id: number; sql: string; params: (string | number)[] };

export type WriterReply = { id: number; changes: number } | { id: number; error: string };

interface WriterOptions {
  file: string;
  synchronous: "full" | "normal";
}

/** Rows per INSERT statement: 26 columns x 100 rows stays far below SQLite's 32766 parameters. */
const CHUNK = 100;
const GATHER_MS = 2;
const GATHER_ROWS = 5_000;
const WIDTH = COLUMN_NAMES.length;

const options = workerData as WriterOptions;
const db = new DatabaseSync(options.file, { timeout: 10_000 });
// 64 MiB of page cache: the dedupe index's pages stay in memory between commits
db.exec(
  `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"}; PRAGMA cache_size = -65536;`,
);
const statements = new Map<string, StatementSync>();
const inserts: StatementSync[] = [];
const port = parentPort;
let queue: WriterRequest[] = [];
let queuedRows = 0;
let lastTurn = 0;
/** The next turn: now (after the messages already delivered) or after a gathering wait. */
let soon: NodeJS.Immediate | undefined;
let gathering: NodeJS.Timeout | undefined;

function statement(sql: string): StatementSync {
  let found = statements.get(sql);
  if (found === undefined) {
    found = db.prepare(sql);
    statements.set(sql, found);
  }
  return found;
}

function insertOf(rows: number): StatementSync {
  let found = inserts[rows];
  if (found === undefined) {
    found = db.prepare(sqliteInsertSql(rows));
    inserts[rows] = found;
  }
  return found;
}

function apply(request: WriterRequest): number {
  if (request.kind === "run") return Number(statement(request.sql).run(...request.params).changes);
  const values = unpackRows(request.values, request.rows);
  let changes = 0;
  for (let start = 0; start < request.rows; start += CHUNK) {
    const rows = Math.min(CHUNK, request.rows - start);
    const chunk = values.slice(start * WIDTH, (start + rows) * WIDTH);
    changes += Number(insertOf(rows).run(...chunk).changes);
  }
  return changes;
}

function inTransaction(requests: WriterRequest[]): WriterReply[] {
  db.exec("BEGIN IMMEDIATE");
  try {
    const replies = requests.map((request) => ({ id: request.id, changes: apply(request) }));
    db.exec("COMMIT");
    return replies;
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

function cancel(): void {
  if (soon !== undefined) clearImmediate(soon);
  if (gathering !== undefined) clearTimeout(gathering);
  soon = undefined;
  gathering = undefined;
}

function turn(): void {
  cancel();
  const batch = queue;
  queue = [];
  queuedRows = 0;
  lastTurn = batch.length;
  if (batch.length === 0) return;
  let replies: WriterReply[];
  try {
    replies = inTransaction(batch);
  } catch {
    replies = batch.map((request) => {
      try {
        return inTransaction([request])[0] ?? { id: request.id, error: "no reply" };
      } catch (error) {
        return { id: request.id, error: error instanceof Error ? error.message : String(error) };
      }
    });
  }
  port?.postMessage(replies);
  if (queue.length > 0) schedule();
}

function schedule(): void {
  if (gathering !== undefined && queuedRows >= GATHER_ROWS) cancel();
  if (soon !== undefined || gathering !== undefined) return;
  // setImmediate: every message already delivered to this thread joins the same commit.
  // Under load (the last turn carried several uploads) wait a little for more first.
  if (lastTurn > 1 && queuedRows < GATHER_ROWS) gathering = setTimeout(turn, GATHER_MS);
  else soon = setImmediate(turn);
}

port?.on("message", (message: WriterRequest | "close") => {
  if (message === "close") {
    turn();
    db.close();
    port.close();
    return;
  }
  queue.push(message);
  if (message.kind === "insert") queuedRows += message.rows;
  schedule();
});
