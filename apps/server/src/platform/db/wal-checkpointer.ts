import { channel } from "node:diagnostics_channel";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { CheckpointOptions, CheckpointReply, CheckpointRequest } from "./sqlite-checkpoint.worker.ts";

/** What the checkpointer needs from the connection it serves. */
export interface CheckpointHost {
  /** Sets the main connection's `wal_autocheckpoint` (0 while the thread does the work). */
  setAutocheckpoint(pages: number): void;
  /** Runs `fn` while no write transaction can start (queued writers wait asynchronously). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

export interface WalCheckpointerOptions {
  /** Commits after which a pass runs at once, quiet or not (default 500: continuous writes). */
  every?: number;
  /** Commits after which a pass runs as soon as the writes pause for `quietMs` (default 100). */
  quietAfter?: number;
  /** How long without a commit counts as a pause in the writes (default 20 ms). */
  quietMs?: number;
  /** WAL frames at which writes pause for one catching-up pass so the WAL can start over (default 8192, 32 MiB of 4 KiB pages). */
  resetFrames?: number;
  /** Fewer than `quietAfter` commits are checkpointed this long after the first of them (default 1000 ms). */
  idleMs?: number;
  /** The thread's module (tests swap in one that fails). */
  workerUrl?: URL;
}

export interface CheckpointStats {
  /** Passes the thread completed. */
  passes: number;
  /** Times the thread started the WAL over. */
  resets: number;
  /** True once the thread failed: the connection checkpoints itself again (SQLite's autocheckpoint). */
  fallback: boolean;
}

/**
 * Each pass and each WAL restart, `{ kind: "pass" | "restart", start, end }` in
 * `performance.now()` milliseconds (a restart's span is the time writers waited),
 * published only while someone listens (bench/lib/server-probe.ts, ORDERS_BENCH_DIAG=1).
 */
export const checkpointChannel = channel("meridian:db:checkpoint");

/** `fn`'s span on `checkpointChannel` as `kind`, when someone listens. */
async function timed<T>(kind: "pass" | "restart", fn: () => Promise<T>): Promise<T> {
  if (!checkpointChannel.hasSubscribers) return fn();
  const start = performance.now();
  try {
    return await fn();
  } finally {
    checkpointChannel.publish({ kind, start, end: performance.now() });
  }
}

const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/** Failed passes in a row after which the main connection checkpoints itself again. */
const MAX_ERRORS = 3;

/**
 * Moves WAL checkpoints off the event loop. SQLite's autocheckpoint runs inside the
 * COMMIT that crosses 1000 WAL pages, and a checkpoint fsyncs the WAL and the database
 * file: on a busy disk that COMMIT holds the event loop for tens of milliseconds, every
 * few hundred orders. Here a worker thread with its own connection runs PASSIVE
 * checkpoints (they never block writers).
 *
 * When: as soon as the writes pause (`quietMs` without a commit) once `quietAfter`
 * commits are waiting, and at once after `every` commits if they never pause. A pass in
 * a pause copies every frame; the thread then starts the WAL over itself, while the
 * connection's writers wait (the worker's `restart`): the first write after a WAL
 * restart fsyncs the new WAL header, and when that write was a COMMIT on the event loop
 * it took 5-15 ms, and 100-400 ms when it met the thread's own fsyncs (bench:orders,
 * where passes ran every 100 commits in the middle of bursts of orders, and SQLite's
 * autocheckpoint until the thread was up). So the connection's autocheckpoint is off
 * from the start, and no COMMIT on the event loop fsyncs anything.
 *
 * NOTE: a WAL restarts from its beginning only when a writer finds every frame copied.
 * Under writes that never pause the pass never sees the WAL's end (commits land while it
 * fsyncs), so the file would grow without bound: once it passes `resetFrames`, the same
 * restart runs (a pass over what the previous pass left, then the one-frame write) while
 * writers wait on the connection's mutex (asynchronously: the event loop keeps serving;
 * only writes are delayed, by one short pass).
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
  readonly #quietAfter: number;
  readonly #quietMs: number;
  readonly #resetFrames: number;
  readonly #idleMs: number;
  readonly #workerUrl: URL;
  #worker: Worker | null = null;
  #waiting: ((reply: CheckpointReply | null) => void) | null = null;
  #pending = 0;
  #busy = false;
  #stopping = false;
  #idle: NodeJS.Timeout | null = null;
  #quiet: NodeJS.Timeout | null = null;
  #errors = 0;

  constructor(file: string, host: CheckpointHost, options: WalCheckpointerOptions = {}) {
    this.#file = file;
    this.#host = host;
    this.#every = options.every ?? 500;
    this.#quietAfter = Math.min(options.quietAfter ?? 100, this.#every);
    this.#quietMs = options.quietMs ?? 20;
    this.#resetFrames = options.resetFrames ?? 8192;
    this.#idleMs = options.idleMs ?? 1000;
    this.#workerUrl = options.workerUrl ?? new URL("./sqlite-checkpoint.worker.ts", import.meta.url);
    // Off from the start: until the thread's first pass the WAL just grows (by at most
    // `every` commits), where SQLite's autocheckpoint would copy and fsync inside a COMMIT
    // (measured: a 386 ms COMMIT a second into bench:orders, before the thread was up).
    host.setAutocheckpoint(0);
  }

  /** Call after each committed write. */
  committed(): void {
    if (this.#stopping || this.stats.fallback) return;
    this.#pending++;
    if (!this.#busy) this.#schedule();
  }

  /** Starts a pass now, when the writes pause, or after the idle time, by what is waiting. */
  #schedule(): void {
    if (this.#pending >= this.#every) void this.#pass();
    else if (this.#pending >= this.#quietAfter) {
      // Pushed back by every commit: fires once the writes pause.
      if (this.#quiet === null) {
        this.#quiet = setTimeout(() => {
          this.#quiet = null;
          if (!this.#busy && this.#pending > 0 && !this.#stopping) void this.#pass();
        }, this.#quietMs);
        this.#quiet.unref();
      } else this.#quiet.refresh();
    } else if (this.#pending > 0 && this.#idle === null) {
      this.#idle = setTimeout(() => {
        this.#idle = null;
        if (!this.#busy && this.#pending > 0 && !this.#stopping) void this.#pass();
      }, this.#idleMs);
      this.#idle.unref();
    }
  }

  /** Stops the thread (after the pass it may be running); the connection then closes as usual. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#clearTimers();
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

  #clearTimers(): void {
    if (this.#idle !== null) clearTimeout(this.#idle);
    if (this.#quiet !== null) clearTimeout(this.#quiet);
    this.#idle = null;
    this.#quiet = null;
  }

  async #pass(): Promise<void> {
    this.#clearTimers();
    this.#busy = true;
    this.#pending = 0;
    try {
      const first = await timed("pass", () => this.#request());
      if (first === null) return;
      if (first.log < 0) {
        // The checkpoint itself failed (an I/O error, say): SQLite's own autocheckpoint
        // on the main connection reports such errors where they belong, on a write.
        if (++this.#errors >= MAX_ERRORS) this.#fallBack();
        return;
      }
      this.#errors = 0;
      this.stats.passes++;
      // Everything copied (a pass in a pause), or a WAL that outgrew resetFrames: start it
      // over from the thread while writers wait, so no COMMIT on the event loop does it.
      const copied = first.log > 0 && first.checkpointed === first.log;
      if ((copied || first.log >= this.#resetFrames) && !this.#stopping) {
        const again = await timed("restart", () => this.#host.exclusive(() => this.#request("restart")));
        if (again === null) return;
        if (again.restarted === true) this.stats.resets++;
      }
    } finally {
      this.#busy = false;
    }
    // Commits that landed during the pass.
    if (!this.#stopping && !this.stats.fallback) this.#schedule();
  }

  /** One PASSIVE checkpoint on the thread (and with `restart` the WAL started over); null when the thread is gone. */
  #request(kind: CheckpointRequest = "checkpoint"): Promise<CheckpointReply | null> {
    const worker = this.#start();
    if (worker === null) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.#waiting = resolve;
      worker.postMessage(kind);
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
      const reply = message as Partial<CheckpointReply> | null;
      if (typeof reply?.log !== "number" || typeof reply.checkpointed !== "number") return;
      const waiting = this.#waiting;
      this.#waiting = null;
      waiting?.({ log: reply.log, checkpointed: reply.checkpointed, restarted: reply.restarted === true });
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
