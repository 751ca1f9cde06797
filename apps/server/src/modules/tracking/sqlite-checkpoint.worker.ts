/**
 * The tracking file's WAL checkpoints, on a thread of their own, started by the writer
 * (sqlite-writer.worker.ts). A checkpoint copies WAL frames into the database file and
 * fsyncs both; run by SQLite's autocheckpoint inside the writer's commits, they held
 * the writer (and so every acknowledgement) for 3-15 ms at a time and up to a second
 * under a busy disk (bench:ingest: 3.7 s of the writer's 14 s went to the commits of its
 * expansions, 3.5 s of it checkpointing). This connection runs PASSIVE checkpoints: they
 * take no writer lock and never wait, so the writer is never held up by this thread.
 * The same idea as the platform database's checkpointer (platform/db/wal-checkpointer.ts).
 */
import { DatabaseSync } from "node:sqlite";
import { parentPort, workerData } from "node:worker_threads";

export interface CheckpointOptions {
  file: string;
}

/** The WAL's frames and how many of them are now in the database file (both -1 when the pass failed). */
export interface CheckpointReply {
  log: number;
  checkpointed: number;
}

const port = parentPort;
if (port === null) throw new Error("sqlite-checkpoint.worker.ts runs as a worker thread");
const db = new DatabaseSync((workerData as CheckpointOptions).file, { timeout: 0 });
// NORMAL: the checkpoint fsyncs the WAL before copying and the database file after.
db.exec("PRAGMA synchronous = NORMAL");
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");

port.on("message", (message: unknown) => {
  if (message === "close") {
    db.close();
    port.close();
    return;
  }
  let reply: CheckpointReply;
  try {
    const row = checkpoint.get() as { log: number; checkpointed: number } | undefined;
    reply = { log: Number(row?.log ?? -1), checkpointed: Number(row?.checkpointed ?? -1) };
  } catch {
    reply = { log: -1, checkpointed: -1 };
  }
  port.postMessage(reply);
});
