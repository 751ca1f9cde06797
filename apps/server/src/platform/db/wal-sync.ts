import { channel } from "node:diagnostics_channel";
import fs from "node:fs/promises";
import { performance } from "node:perf_hooks";

/**
 * Each WAL sync, `{ start, end }` in `performance.now()` milliseconds, published only
 * while someone listens (bench/lib/server-probe.ts with ORDERS_BENCH_DIAG=1).
 */
export const walSyncChannel = channel("meridian:db:wal-sync");

/**
 * Durable commits without an fsync on the event loop: with `synchronous = NORMAL` SQLite
 * writes a commit's WAL frames but does not sync them; `durable()` resolves once an
 * fdatasync of the WAL file that began after it was called has finished. The sync runs
 * on libuv's thread pool, and every commit that lands while one sync runs shares the
 * next one (group commit), so N concurrent commits cost about two syncs, not N.
 *
 * fdatasync flushes the file, not the descriptor: this handle's sync covers the frames
 * the SQLite connection wrote through its own. SQLite still syncs the WAL before each
 * checkpoint and its header when it starts the WAL over (NORMAL does that much).
 */
export class WalSync {
  readonly #walPath: string;
  #handle: Promise<fs.FileHandle> | undefined;
  /** The sync now running, if any. */
  #running: Promise<void> | undefined;
  /** The sync that starts when the running one ends: shared by every caller meanwhile. */
  #queued: Promise<void> | undefined;
  #closed = false;

  constructor(dbFile: string) {
    this.#walPath = `${dbFile}-wal`;
  }

  durable(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#running === undefined) return this.#start();
    // The running sync may have begun before this commit's frames were written.
    this.#queued ??= this.#running.then(
      () => this.#start(),
      () => this.#start(),
    );
    return this.#queued;
  }

  #start(): Promise<void> {
    this.#queued = undefined;
    const run = (async () => {
      this.#handle ??= fs.open(this.#walPath, "r+");
      let handle: fs.FileHandle;
      try {
        handle = await this.#handle;
      } catch (error) {
        this.#handle = undefined;
        throw error;
      }
      const start = walSyncChannel.hasSubscribers ? performance.now() : 0;
      await handle.datasync();
      if (start > 0) walSyncChannel.publish({ start, end: performance.now() });
    })();
    this.#running = run;
    const clear = () => {
      if (this.#running === run) this.#running = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([this.#running, this.#queued]);
    const handle = this.#handle;
    this.#handle = undefined;
    if (handle !== undefined) await (await handle).close();
  }
}
