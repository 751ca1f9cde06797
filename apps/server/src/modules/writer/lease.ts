import type { Queryable } from "../../platform/db/types.ts";

/** PostgreSQL's clock in epoch milliseconds: every instance measures the lease on one clock. */
const NOW_MS = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

/** True when the holder's lease session no longer exists (its process died). */
const HOLDER_GONE =
  "(writer_lease.holder_pid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = writer_lease.holder_pid))";

/** The lease row as read by a follower. */
export interface LeaseState {
  epoch: number;
  holder: string | null;
  /** Milliseconds until the lease lapses (negative: lapsed). */
  remainingMs: number;
}

/** A commit refused because the writer that made it is no longer the lease holder. */
export class FencedError extends Error {
  readonly held: number;
  readonly current: number;

  constructor(held: number, current: number) {
    super(`writer fenced: epoch ${held} was replaced by ${current}`);
    this.name = "FencedError";
    this.held = held;
    this.current = current;
  }
}

/**
 * The writer lease in PostgreSQL (table `writer_lease`, one row). A candidate takes it
 * only once it lapsed, incrementing the epoch; the holder renews it; every trading
 * commit reads the epoch under a share lock inside its transaction (`fence`), so a
 * takeover waits for a commit in progress and any commit after it by the old holder is
 * refused. Election and fencing are PostgreSQL's row locks and transactions; the lease
 * clock is the database's (`clock_timestamp()`), never an instance's.
 */
export class WriterLease {
  private readonly db: Queryable;
  readonly leaseMs: number;

  /**
   * `db`: where the lease statements run. Give it a session of its own (one connection
   * for the life of the process, `pinned`): its backend pid is stored with the lease, and
   * when that session is gone (the process died, its socket closed) followers take over
   * at once instead of waiting for the lease to lapse.
   */
  constructor(db: Queryable, leaseMs: number, pinned = false) {
    this.db = db;
    this.leaseMs = leaseMs;
    this.pid = pinned ? "pg_backend_pid()" : "NULL";
  }

  /** What the holder's pid is set to: this session's backend pid, or NULL (not pinned: lapse only). */
  private readonly pid: string;

  async read(): Promise<LeaseState> {
    const row = await this.db.get<{
      epoch: number | string;
      holder: string | null;
      remaining: number | string;
      gone: boolean | number;
    }>(
      `SELECT epoch, holder, expires_at - ${NOW_MS} AS remaining, ${HOLDER_GONE} AS gone FROM writer_lease WHERE id = 1`,
    );
    if (row === undefined) throw new Error("writer_lease row missing (migrations not applied?)");
    return {
      epoch: Number(row.epoch),
      holder: row.gone === true || row.gone === 1 ? null : row.holder,
      remainingMs: Number(row.remaining),
    };
  }

  /** Takes the lease when it is free, lapsed, or its holder's session is gone; the new epoch, or null. */
  async acquire(holder: string): Promise<number | null> {
    const row = await this.db.get<{ epoch: number | string }>(
      `UPDATE writer_lease SET epoch = epoch + 1, holder = ?, holder_pid = ${this.pid}, expires_at = ${NOW_MS} + ?
       WHERE id = 1 AND (holder IS NULL OR expires_at < ${NOW_MS} OR ${HOLDER_GONE}) RETURNING epoch`,
      [holder, this.leaseMs],
    );
    return row === undefined ? null : Number(row.epoch);
  }

  /** Extends the lease; false when another instance holds it now (this one is deposed). */
  async renew(holder: string, epoch: number): Promise<boolean> {
    const r = await this.db.run(
      `UPDATE writer_lease SET expires_at = ${NOW_MS} + ? WHERE id = 1 AND epoch = ? AND holder = ?`,
      [this.leaseMs, epoch, holder],
    );
    return r.changes === 1;
  }

  /** Gives the lease up at a clean shutdown, so the next instance need not wait for it to lapse. */
  async release(holder: string, epoch: number): Promise<void> {
    await this.db.run(
      "UPDATE writer_lease SET holder = NULL, holder_pid = NULL, expires_at = 0 WHERE id = 1 AND epoch = ? AND holder = ?",
      [epoch, holder],
    );
  }

  /**
   * Inside a commit transaction: refuses it unless `epoch` still holds the lease. The
   * share lock makes a takeover wait for this transaction; a session stopped inside it
   * (SIGSTOP) is ended by `idle_in_transaction_session_timeout` (twice the lease), so it
   * delays a takeover by at most that.
   */
  async fence(tx: Queryable, epoch: number): Promise<void> {
    await tx.run(`SET LOCAL idle_in_transaction_session_timeout = ${Math.max(1000, 2 * this.leaseMs)}`);
    const row = await tx.get<{ epoch: number | string }>(
      "SELECT epoch FROM writer_lease WHERE id = 1 FOR SHARE",
    );
    const current = row === undefined ? -1 : Number(row.epoch);
    if (current !== epoch) throw new FencedError(epoch, current);
  }
}
