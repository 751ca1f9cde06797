/**
 * The tracking file's only writer, on its own thread: node:sqlite is synchronous, so
 * the fsync of each commit would otherwise stall the server's event loop.
 *
 * Accept, then expand. An upload arrives as one compact text (`accept`, batch.ts) and
 * is stored as ONE row of `tracking_uploads`; it is acknowledged once that row is
 * committed. Expanding it into `tracking_events` (50 rows and their index, the costly
 * part) happens after the acknowledgements, in transactions of their own that insert the
 * events and move the `tracking_expansion` cursor past their uploads together: a crash
 * before or during one leaves the cursor where it was for the next start, and a repeat
 * of an event is skipped by the unique index, so expanding twice stores nothing twice.
 * The upload stays as the record of its events: each row points at it, and its `extra`
 * holds only the fields that differ between the events of the upload (the shared ones,
 * most of an event, are in the upload once).
 *
 * Group commit: messages that arrive while a commit runs wait in `queue`; the next turn
 * writes all of them in ONE transaction, commits (one fsync), and only then acknowledges
 * each. Under load a turn first gathers for up to GATHER_MS (or GATHER_ROWS events), so
 * one fsync covers more uploads. A failing turn is retried one message per transaction,
 * so one bad message cannot fail its neighbours.
 *
 * Expansion commits with synchronous NORMAL: it loses nothing acknowledged (the uploads
 * were fsynced; a lost expansion takes its cursor move with it), and the
 * next FULL commit syncs it too. After each turn one chunk is expanded; when more than
 * MAX_BACKLOG events wait, the writer expands before it takes more uploads, so an
 * acknowledged event reaches the queryable table within a bounded delay and a sustained
 * overload slows the acknowledgements instead of growing the backlog.
 *
 * Checkpoints run on a thread of their own, not inside this thread's commits: the
 * platform's WalCheckpointer (platform/db/wal-checkpointer.ts), as for the main database.
 * It gets a PASSIVE pass after every PASS_COMMITS commits (or CHECKPOINT_IDLE_MS after
 * fewer), and once every frame is copied, or the WAL reached its reset size, it starts the
 * WAL over from its own thread while this thread's turns wait (`exclusive` below), so the
 * file stays bounded under writes that never pause. If that thread fails, the connection
 * goes back to SQLite's autocheckpoint.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { parentPort, workerData } from "node:worker_threads";
import { WalCheckpointer, type WalCheckpointerOptions } from "../../platform/db/wal-checkpointer.ts";
import { COLUMN_NAMES, sqliteInsertSql, unpackRows } from "./columns.ts";
import { ExpandInserter, expandUpload } from "./expand.ts";

export type WriterRequest =
  /**
   * Rows straight into `tracking_events` in the group commit. `values`: the rows as
   * `packRows` makes them (one string: a single copy to this thread instead of a
   * structured clone per value).
   */
  | { kind: "insert"; id: number; rows: number; values: string }
  /** One accepted upload (`encodeBatch`) of `events` events; `lastDay`: its latest event_day. */
  | { kind: "accept"; id: number; events: number; lastDay: number; batch: string }
  /** Answered once every upload accepted before it is expanded. */
  | { kind: "settle"; id: number }
  | { kind: "run"; id: number; sql: string; params: (string | number)[] };

export type WriterReply = { id: number; changes: number } | { id: number; error: string };
/** Not a reply: an upload whose expansion failed on its own (marked, skipped from then on). */
export interface WriterNotice {
  expandError: string;
}

export interface WriterOptions {
  file: string;
  synchronous: "full" | "normal";
  /** false: accept but never expand (tests of a crash between the two). Default true. */
  expand?: boolean;
  /** The checkpoint thread's pace (tests); defaults `every` PASS_COMMITS, `idleMs` CHECKPOINT_IDLE_MS. */
  checkpoint?: WalCheckpointerOptions;
}

/** Rows per INSERT statement: 28 columns x 100 rows stays far below SQLite's 32766 parameters. */
const CHUNK = 100;
const GATHER_MS = 2;
const GATHER_ROWS = 5_000;
/** Uploads expanded per transaction (2,000 events of full uploads). */
const EXPAND_UPLOADS = 40;
/** Events waiting for expansion beyond which the writer expands before taking more uploads. */
const MAX_BACKLOG = 50_000;
const WIDTH = COLUMN_NAMES.length;
/** Commits after which the checkpoint thread gets a pass (when it is not in one). */
const PASS_COMMITS = 16;
/** Fewer commits than PASS_COMMITS are checkpointed this long after the first of them. */
const CHECKPOINT_IDLE_MS = 500;

const options = workerData as WriterOptions;
const expandOn = options.expand !== false;
const full = options.synchronous === "full";
const db = new DatabaseSync(options.file, { timeout: 10_000 });
// 64 MiB of page cache: the dedupe index's pages stay in memory between commits
db.exec(
  `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${full ? "FULL" : "NORMAL"}; PRAGMA cache_size = -65536;`,
);
const statements = new Map<string, StatementSync>();
const inserts: StatementSync[] = [];
const expands = new ExpandInserter((sql) => db.prepare(sql));
const acceptUpload = db.prepare("INSERT INTO tracking_uploads (events, batch, last_day) VALUES (?, ?, ?)");
const nextUploads = db.prepare(
  "SELECT id, events, batch FROM tracking_uploads WHERE id > ? ORDER BY id LIMIT ?",
);
const moveCursor = db.prepare("UPDATE tracking_expansion SET upto = ? WHERE id = 1");
const markUpload = db.prepare("UPDATE tracking_uploads SET error = ? WHERE id = ?");
const port = parentPort;
let queue: WriterRequest[] = [];
let queuedRows = 0;
let lastTurn = 0;
/** The next turn: now (after the messages already delivered) or after a gathering wait. */
let soon: NodeJS.Immediate | undefined;
let gathering: NodeJS.Timeout | undefined;

/** True while the checkpoint thread starts the WAL over: no turn writes meanwhile. */
let paused = false;
const checkpointer = new WalCheckpointer(
  options.file,
  {
    setAutocheckpoint: (pages) => db.exec(`PRAGMA wal_autocheckpoint = ${pages}`),
    exclusive: async (fn) => {
      paused = true;
      try {
        return await fn();
      } finally {
        paused = false;
        if (queue.length > 0 || (expandOn && backlog > 0)) schedule();
      }
    },
  },
  { every: PASS_COMMITS, idleMs: CHECKPOINT_IDLE_MS, ...options.checkpoint },
);
const committed = () => checkpointer.committed();

/** Highest upload id expanded (the cursor). */
let expandedUpTo = Number(db.prepare("SELECT upto FROM tracking_expansion WHERE id = 1").get()?.upto ?? 0);
const waiting = db
  .prepare(
    "SELECT COALESCE(SUM(events), 0) AS n, COALESCE(MAX(id), 0) AS last FROM tracking_uploads WHERE id > ?",
  )
  .get(expandedUpTo);
/** Events accepted and not yet expanded (those of a previous run included). */
let backlog = Number(waiting?.n ?? 0);
/** Highest upload id accepted (in the open transaction) and committed. */
let acceptedUpTo = Math.max(expandedUpTo, Number(waiting?.last ?? 0));
let committedUpTo = acceptedUpTo;
/** `settle` requests waiting for `expandedUpTo` to reach `upTo`. */
let settles: { id: number; upTo: number }[] = [];

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

/** Binds `values` (WIDTH per row) as multi-row INSERTs of up to CHUNK rows. */
function insertValues(values: (string | number)[], rows: number): number {
  let changes = 0;
  for (let start = 0; start < rows; start += CHUNK) {
    const count = Math.min(CHUNK, rows - start);
    const chunk = count === rows ? values : values.slice(start * WIDTH, (start + count) * WIDTH);
    changes += Number(insertOf(count).run(...chunk).changes);
  }
  return changes;
}

function apply(request: WriterRequest): number {
  switch (request.kind) {
    case "run":
      return Number(statement(request.sql).run(...request.params).changes);
    case "insert":
      return insertValues(unpackRows(request.values, request.rows), request.rows);
    case "accept":
      acceptedUpTo = Number(acceptUpload.run(request.events, request.batch, request.lastDay).lastInsertRowid);
      return request.events;
    case "settle":
      settles.push({ id: request.id, upTo: acceptedUpTo });
      return 0;
  }
}

function inTransaction(requests: WriterRequest[]): WriterReply[] {
  const settled = settles.length;
  const accepted = acceptedUpTo;
  db.exec("BEGIN IMMEDIATE");
  try {
    const replies: WriterReply[] = [];
    for (const request of requests) {
      const changes = apply(request);
      if (request.kind !== "settle") replies.push({ id: request.id, changes });
    }
    db.exec("COMMIT");
    committed();
    committedUpTo = acceptedUpTo;
    for (const request of requests) if (request.kind === "accept") backlog += request.events;
    return replies;
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    settles.length = settled;
    acceptedUpTo = accepted;
    throw error;
  }
}

interface Upload {
  id: number;
  events: number;
  batch: string;
}

/** Expands `uploads` (the next ids) in one transaction; throws (rolled back) on failure. */
function expandTogether(uploads: Upload[]): void {
  const last = uploads.at(-1);
  if (last === undefined) return;
  db.exec("BEGIN IMMEDIATE");
  try {
    // the columns an upload's events share are bound once (expand.ts)
    for (const upload of uploads) expands.insert(upload.id, expandUpload(upload.batch));
    moveCursor.run(last.id);
    db.exec("COMMIT");
    committed();
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

/** Expands the oldest uploads waiting (one transaction); false when none wait. */
function expandStep(): boolean {
  const uploads = nextUploads.all(expandedUpTo, EXPAND_UPLOADS) as unknown as Upload[];
  if (uploads.length === 0) {
    // nothing above the cursor: every upload committed is expanded
    backlog = 0;
    expandedUpTo = Math.max(expandedUpTo, committedUpTo);
    return false;
  }
  if (full) db.exec("PRAGMA synchronous = NORMAL");
  try {
    try {
      expandTogether(uploads);
    } catch {
      for (const upload of uploads) {
        try {
          expandTogether([upload]);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          db.exec("BEGIN IMMEDIATE");
          markUpload.run(message.slice(0, 1000), upload.id);
          moveCursor.run(upload.id);
          db.exec("COMMIT");
          committed();
          port?.postMessage({
            expandError: `tracking upload ${upload.id}: ${message}`,
          } satisfies WriterNotice);
        }
      }
    }
  } finally {
    if (full) db.exec("PRAGMA synchronous = FULL");
  }
  for (const upload of uploads) backlog -= upload.events;
  expandedUpTo = Math.max(expandedUpTo, uploads.at(-1)?.id ?? 0);
  backlog = Math.max(0, backlog);
  return true;
}

function answerSettles(): void {
  if (settles.length === 0) return;
  const done = settles.filter((settle) => settle.upTo <= expandedUpTo);
  if (done.length === 0) return;
  settles = settles.filter((settle) => !done.includes(settle));
  port?.postMessage(done.map((settle) => ({ id: settle.id, changes: 0 })) satisfies WriterReply[]);
}

function cancel(): void {
  if (soon !== undefined) clearImmediate(soon);
  if (gathering !== undefined) clearTimeout(gathering);
  soon = undefined;
  gathering = undefined;
}

/** Writes and acknowledges the queue (group commit). */
function commitQueue(): void {
  const batch = queue;
  queue = [];
  queuedRows = 0;
  lastTurn = batch.length;
  if (batch.length === 0) return;
  let replies: WriterReply[];
  try {
    replies = inTransaction(batch);
  } catch {
    replies = [];
    for (const request of batch) {
      try {
        replies.push(...inTransaction([request]));
      } catch (error) {
        replies.push({ id: request.id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  if (replies.length > 0) port?.postMessage(replies);
}

function turn(): void {
  cancel();
  // the checkpoint thread is starting the WAL over; `exclusive` schedules a turn after
  if (paused) return;
  commitQueue();
  let expanded = false;
  if (expandOn && (backlog > 0 || settles.length > 0)) {
    expanded = expandStep();
    while (backlog > MAX_BACKLOG && expandStep()) {}
  }
  answerSettles();
  if (queue.length > 0 || (expandOn && backlog > 0)) {
    // an expansion took its time, during which uploads gathered: no extra wait
    if (expanded) soon ??= setImmediate(turn);
    else schedule();
  }
}

function schedule(): void {
  if (gathering !== undefined && queuedRows >= GATHER_ROWS) cancel();
  if (soon !== undefined || gathering !== undefined) return;
  // setImmediate: every message already delivered to this thread joins the same commit.
  // Under load (the last turn carried several uploads) wait a little for more first.
  if (lastTurn > 1 && queuedRows < GATHER_ROWS) gathering = setTimeout(turn, GATHER_MS);
  else soon = setImmediate(turn);
}

// Requests come in arrays (the sink sends those of one event-loop turn together), "close" alone.
port?.on("message", (message: WriterRequest[] | "close") => {
  if (message === "close") {
    cancel();
    commitQueue();
    if (expandOn) while (expandStep()) {}
    answerSettles();
    void checkpointer.stop().then(() => {
      db.close();
      port.close();
    });
    return;
  }
  if (!Array.isArray(message)) return;
  for (const request of message) {
    queue.push(request);
    if (request.kind === "insert") queuedRows += request.rows;
    if (request.kind === "accept") queuedRows += request.events;
  }
  schedule();
});

if (expandOn && backlog > 0) schedule();
