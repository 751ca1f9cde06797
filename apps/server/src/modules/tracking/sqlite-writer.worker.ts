/**
 * The tracking file's only writer, on its own thread: node:sqlite is synchronous, so
 * the fsync of each commit would otherwise stall the server's event loop.
 *
 * Group commit: messages that arrive while a commit runs wait in `queue`; the next turn
 * writes all of them in ONE transaction (one INSERT per message), commits, and only then
 * acknowledges each. A failing turn is retried one message per transaction, so one bad
 * message cannot fail its neighbours.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { parentPort, workerData } from "node:worker_threads";

export type Value = string | number | null;

export type WriterRequest =
  /** Each row: the values of the INSERT's `?`, in order (structured clone, no JSON in between). */
  | { kind: "insert"; id: number; sql: string; rows: Value[][] }
  | { kind: "run"; id: number; sql: string; params: (string | number)[] };

export type WriterReply = { id: number; changes: number } | { id: number; error: string };

interface WriterOptions {
  file: string;
  synchronous: "full" | "normal";
}

const options = workerData as WriterOptions;
const db = new DatabaseSync(options.file, { timeout: 10_000 });
db.exec(
  `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"};`,
);
const statements = new Map<string, StatementSync>();
const port = parentPort;
let queue: WriterRequest[] = [];
let scheduled = false;

function statement(sql: string): StatementSync {
  let found = statements.get(sql);
  if (found === undefined) {
    found = db.prepare(sql);
    statements.set(sql, found);
  }
  return found;
}

function apply(request: WriterRequest): number {
  const prepared = statement(request.sql);
  if (request.kind === "run") return Number(prepared.run(...request.params).changes);
  let changes = 0;
  for (const row of request.rows) changes += Number(prepared.run(...row).changes);
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

function turn(): void {
  scheduled = false;
  const batch = queue;
  queue = [];
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
  if (scheduled) return;
  scheduled = true;
  // setImmediate: every message already delivered to this thread joins the same commit
  setImmediate(turn);
}

port?.on("message", (message: WriterRequest | "close") => {
  if (message === "close") {
    turn();
    db.close();
    port.close();
    return;
  }
  queue.push(message);
  schedule();
});
