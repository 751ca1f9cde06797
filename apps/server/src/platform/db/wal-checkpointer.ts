import { Worker } from "node:worker_threads";
import type { CheckpointOptions, CheckpointReply } from "./sqlite-checkpoint.worker.ts";

/** What the checkpointer needs from the connection it serves. */
export interface CheckpointHost {
  /** Sets the main connection's `wal_autocheckpoint` (0 while the thread does the work). */
  setAutocheckpoint(pages: number): void;
  /** Runs `fn` while no write transaction can start (queued writers wait asynchronously). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

export interface WalCheckpointerOptions {
  /** Commits between background passes (default 100, about SQLite's 1000-page autocheckpoint at ~10 pages a commit). */
  every?: number;
  /** WAL frames at which writes pause for one catching-up pass so the WAL can start over (default 8192, 32 MiB of 4 KiB pages). */
  resetFrames?: number;
  /** Fewer than `every` commits are checkpointed after this long without one (default 1000 ms). */
  idleMs?: number;
  /** The thread's module (tests swap in one that fails). */
  workerUrl?: URL;
}

export interface CheckpointStats {
  /** Passes the thread completed. */
  passes: number;
  /** Catching-up passes that left the WAL fully copied, so the next write restarts it. */
  resets: number;
  /** True once the thread failed: the connection checkpoints itself again (SQLite's autocheckpoint). */
  fallback: boolean;
}

const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/** Failed passes in a row after which the main connection checkpoints itself again. */
const MAX_ERRORS = 3;

/**
 * Moves WAL checkpoints off the event loop. SQLite's autocheckpoint runs inside the
 * COMMIT that crosses 1000 WAL pages, and a checkpoint fsyncs the WAL and the database
 * file: on a busy disk that COMMIT holds the event loop for tens of milliseconds, every
 * few hundred orders. Here a worker thread with its own connection runs PASSIVE
 * checkpoints (they never block writers) every `every` commits, and the main
 * connection's autocheckpoint is off while that thread is up.
 *
 * NOTE: a WAL restarts from its beginning only when a writer finds every frame copied.
 * Under steady writes the background pass never sees the WAL's end (commits land while
 * it fsyncs), so the file would grow without bound. Once it passes `resetFrames`, one
 * pass runs while writers wait on the connection's mutex (asynchronously: the event
 * loop keeps serving; only writes are delayed, by one short pass); the next write then
 * starts the WAL over.
 *
 * The thread starts on the first pass (short-lived databases never start one). If it
 * fails, or its checkpoints fail three times in a row, the connection goes back to
 * SQLite's own autocheckpoint.
 */
export class WalCheckpointer {
  readonly stats: CheckpointStats = { passes: 0, resets: 0, fallback: false };
  readonly #file: string;
  readonly #host: CheckpointHost;
  readonly #every: number;
  readonly #resetFrames: number;
  readonly #idleMs: number;
  readonly #workerUrl: URL;
  #worker: Worker | null = null;
  #waiting: ((reply: CheckpointReply | null) => void) | null = null;
  #pending = 0;
  #busy = false;
  #stopping = false;
  #idle: NodeJS.Timeout | null = null;
  #errors = 0;

  constructor(file: string, host: CheckpointHost, options: WalCheckpointerOptions = {}) {
    this.#file = file;
    this.#host = host;
    this.#every = options.every ?? 100;
    this.#resetFrames = options.resetFrames ?? 8192;
    this.#idleMs = options.idleMs ?? 1000;
    this.#workerUrl = options.workerUrl ?? new URL("./sqlite-checkpoint.worker.ts", import.meta.url);
  }

  /** Call after each committed write. */
  committed(): void {
    if (this.#stopping || this.stats.fallback) return;
    this.#pending++;
    if (this.#busy) return;
    if (this.#pending >= this.#every) void this.#pass();
    else if (this.#idle === null) {
      this.#idle = setTimeout(() => {
        this.#idle = null;
        if (!this.#busy && this.#pending > 0) void this.#pass();
      }, this.#idleMs);
      this.#idle.unref();
    }
  }

  /** Stops the thread (after the pass it may be running); the connection then closes as usual. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    const worker = this.#worker;
    if (worker === null) return;
    this.#worker = null;
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    worker.postMessage("close");
    await exited;
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.(null);
  }

  async #pass(): Promise<void> {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    this.#busy = true;
    this.#pending = 0;
    try {
      const first = await this.#request();
      if (first === null) return;
      if (first.log < 0) {
        // The checkpoint itself failed (an I/O error, say): SQLite's own autocheckpoint
        // on the main connection reports such errors where they belong, on a write.
        if (++this.#errors >= MAX_ERRORS) this.#fallBack();
        return;
      }
      this.#errors = 0;
      this.stats.passes++;
      if (first.log >= this.#resetFrames && !this.#stopping) {
        const again = await this.#host.exclusive(() => this.#request());
        if (again === null) return;
        this.stats.passes++;
        if (again.log >= 0 && again.log === again.checkpointed) this.stats.resets++;
      }
    } finally {
      this.#busy = false;
    }
    if (this.#pending >= this.#every && !this.#stopping && !this.stats.fallback) void this.#pass();
  }

  /** One PASSIVE checkpoint on the thread; null when the thread is gone. */
  #request(): Promise<CheckpointReply | null> {
    const worker = this.#start();
    if (worker === null) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.#waiting = resolve;
      worker.postMessage("checkpoint");
    });
  }

  #start(): Worker | null {
    if (this.#worker !== null) return this.#worker;
    if (this.#stopping || this.stats.fallback) return null;
    const worker = new Worker(this.#workerUrl, {
      workerData: { file: this.#file } satisfies CheckpointOptions,
    });
    worker.unref();
    worker.on("message", (message: unknown) => {
      if (message === "ready") {
        if (!this.#stopping) this.#host.setAutocheckpoint(0);
        return;
      }
      const reply = message as Partial<CheckpointReply> | null;
      if (typeof reply?.log !== "number" || typeof reply.checkpointed !== "number") return;
      const waiting = this.#waiting;
      this.#waiting = null;
      waiting?.({ log: reply.log, checkpointed: reply.checkpointed });
    });
    const failed = () => {
      if (this.#worker === worker) this.#fallBack();
    };
    worker.on("error", failed);
    worker.on("exit", failed);
    this.#worker = worker;
    return worker;
  }

  /** Hands checkpoints back to the main connection (SQLite's autocheckpoint) for good. */
  #fallBack(): void {
    const worker = this.#worker;
    this.#worker = null;
    this.stats.fallback = true;
    if (!this.#stopping) this.#host.setAutocheckpoint(SQLITE_DEFAULT_AUTOCHECKPOINT);
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.(null);
    if (worker !== null) void worker.terminate();
  }
}
