/**
 * The WAL checkpointer of one SQLite file, on its own thread (see wal-checkpointer.ts).
 * A checkpoint copies WAL frames into the database file and fsyncs both; on the main
 * connection that stalls the event loop for tens of milliseconds whenever the disk is
 * busy. This connection only ever runs PASSIVE checkpoints: they take no writer lock
 * and never wait, so the main connection is never held up by this thread.
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
}

const options = workerData as CheckpointOptions;
const port = parentPort;
if (port === null) throw new Error("sqlite-checkpoint.worker.ts runs as a worker thread");
const db = new DatabaseSync(options.file, { timeout: 0 });
// NORMAL: the checkpoint fsyncs the WAL before copying and the database file after.
db.exec("PRAGMA synchronous = NORMAL");
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");

port.on("message", (message: unknown) => {
  if (message === "close") {
    db.close();
    port.close();
    return;
  }
  if (message !== "checkpoint") return;
  let reply: CheckpointReply;
  try {
    const row = checkpoint.get() as { log: number; checkpointed: number } | undefined;
    reply = { log: Number(row?.log ?? -1), checkpointed: Number(row?.checkpointed ?? -1) };
  } catch {
    reply = { log: -1, checkpointed: -1 };
  }
  port.postMessage(reply);
});
port.postMessage("ready");
