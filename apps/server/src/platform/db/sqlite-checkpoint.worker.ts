/**
 * The WAL checkpointer of one SQLite file, on its own thread (see wal-checkpointer.ts).
 * A checkpoint copies WAL frames into the database file and fsyncs both; on the main
 * connection that stalls the event loop for tens of milliseconds whenever the disk is
 * busy. This connection runs PASSIVE checkpoints: they take no writer lock and never
 * wait, so the main connection is never held up by this thread.
 *
 * `restart` also starts the WAL over once every frame is copied, by writing one frame
 * itself (the database's application_id, set to the value it has): the first write
 * after a WAL restart fsyncs the WAL's new header, and this way that fsync is this
 * thread's, not a COMMIT's on the event loop. The main connection holds its writers
 * back while this runs (wal-checkpointer.ts), so the write never finds the lock taken.
 */
import { DatabaseSync } from "node:sqlite";
import { parentPort, workerData } from "node:worker_threads";

export interface CheckpointOptions {
  file: string;
}

/** The WAL's frames and how many of them are now in the database file (-1 when busy). */
export interface CheckpointReply {
  log: number;
  checkpointed: number;
  /** `restart` only: this thread started the WAL over. */
  restarted?: boolean;
}

export type CheckpointRequest = "checkpoint" | "restart";

const options = workerData as CheckpointOptions;
const port = parentPort;
if (port === null) throw new Error("sqlite-checkpoint.worker.ts runs as a worker thread");
const db = new DatabaseSync(options.file, { timeout: 0 });
// NORMAL: the checkpoint fsyncs the WAL before copying and the database file after.
db.exec("PRAGMA synchronous = NORMAL");
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
const applicationId = db.prepare("PRAGMA application_id");

function pass(): CheckpointReply {
  try {
    const row = checkpoint.get() as { log: number; checkpointed: number } | undefined;
    return { log: Number(row?.log ?? -1), checkpointed: Number(row?.checkpointed ?? -1) };
  } catch {
    return { log: -1, checkpointed: -1 };
  }
}

/** Writes one frame when every frame is copied: that write starts the WAL over. */
function restart(): CheckpointReply {
  const reply = pass();
  if (reply.log <= 0 || reply.checkpointed !== reply.log) return { ...reply, restarted: false };
  try {
    const id = Number((applicationId.get() as { application_id: number } | undefined)?.application_id ?? 0);
    db.exec(`PRAGMA application_id = ${Math.trunc(id)}`);
    return { ...reply, restarted: true };
  } catch {
    // Busy (timeout 0) or an I/O error: the main connection's next write restarts the WAL.
    return { ...reply, restarted: false };
  }
}

port.on("message", (message: unknown) => {
  if (message === "close") {
    db.close();
    port.close();
    return;
  }
  if (message === "checkpoint") port.postMessage(pass());
  else if (message === "restart") port.postMessage(restart());
});
