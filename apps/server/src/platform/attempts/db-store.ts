import type { Db } from "../db/types.ts";
import {
  type AttemptPolicy,
  type AttemptStore,
  BUSY_RETRY_MS,
  blockMs,
  type OnSuccess,
  PENDING_STALE_MS,
} from "./limiter.ts";

interface CounterRow {
  failures: number;
  blocked_until: number;
}

/** Rows idle this long (and not blocked) are deleted now and then. */
const SWEEP_IDLE_MS = 24 * 60 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;

/** Blocks before the doubling reaches the cap: past it SQL uses the cap and never shifts further. */
function blocksToCap(policy: AttemptPolicy): number {
  let b = 0;
  while (b < 30 && blockMs(policy, b) < policy.capMs) b++;
  return b;
}

/**
 * Counters as rows of `attempt_counters`, on SQLite or PostgreSQL. Every step is one
 * conditional UPDATE, atomic on both: PostgreSQL re-checks the WHERE against the row a
 * concurrent writer committed, SQLite runs one statement at a time. So the check
 * "failures + pending < threshold" and the reservation cannot be split by a parallel try.
 */
export class DbAttemptStore implements AttemptStore {
  readonly kind = "db";
  readonly #db: Db;
  #lastSweep = 0;

  constructor(db: Db) {
    this.#db = db;
  }

  async #ensure(key: string, now: number): Promise<void> {
    await this.#db.run(
      "INSERT INTO attempt_counters (counter_key, last_at) VALUES (?, ?) ON CONFLICT (counter_key) DO NOTHING",
      [key, now],
    );
  }

  async take(key: string, policy: AttemptPolicy, now: number): Promise<number> {
    await this.#sweep(now);
    await this.#ensure(key, now);
    const forgetBefore = now - policy.forgetAfterMs;
    const staleBefore = now - PENDING_STALE_MS;
    const res = await this.#db.run(
      `UPDATE attempt_counters SET
         failures = CASE WHEN last_at < ? THEN 0 ELSE failures END,
         blocks = CASE WHEN last_at < ? THEN 0 ELSE blocks END,
         pending = CASE WHEN pending_at < ? THEN 1 ELSE pending + 1 END,
         pending_at = ?,
         last_at = ?
       WHERE counter_key = ? AND blocked_until <= ?
         AND (CASE WHEN last_at < ? THEN 0 ELSE failures END)
           + (CASE WHEN pending_at < ? THEN 0 ELSE pending END) < ?`,
      [
        forgetBefore,
        forgetBefore,
        staleBefore,
        now,
        now,
        key,
        now,
        forgetBefore,
        staleBefore,
        policy.threshold,
      ],
    );
    if (res.changes === 1) return 0;
    const row = await this.#db.get<CounterRow>(
      "SELECT failures, blocked_until FROM attempt_counters WHERE counter_key = ?",
      [key],
    );
    const until = Number(row?.blocked_until ?? 0);
    return until > now ? until - now : BUSY_RETRY_MS;
  }

  async fail(key: string, policy: AttemptPolicy, now: number): Promise<number> {
    await this.#ensure(key, now);
    const t = policy.threshold;
    const row = await this.#db.get<CounterRow>(
      `UPDATE attempt_counters SET
         pending = CASE WHEN pending > 0 THEN pending - 1 ELSE 0 END,
         failures = CASE WHEN failures + 1 >= ? THEN 0 ELSE failures + 1 END,
         blocks = CASE WHEN failures + 1 >= ? THEN blocks + 1 ELSE blocks END,
         blocked_until = CASE WHEN failures + 1 >= ?
           THEN CAST(? AS BIGINT) + CASE WHEN blocks >= ? THEN CAST(? AS BIGINT)
                                          ELSE CAST(? AS BIGINT) * (CAST(1 AS BIGINT) << blocks) END
           ELSE blocked_until END,
         last_at = ?
       WHERE counter_key = ?
       RETURNING failures, blocked_until`,
      [t, t, t, now, blocksToCap(policy), policy.capMs, policy.baseMs, now, key],
    );
    // failures only returns to 0 on the failure that starts a block.
    if (row === undefined || Number(row.failures) !== 0) return 0;
    return Math.max(0, Number(row.blocked_until) - now);
  }

  async succeed(key: string, mode: OnSuccess, now: number): Promise<void> {
    const pending = "pending = CASE WHEN pending > 0 THEN pending - 1 ELSE 0 END";
    await this.#db.run(
      mode === "reset"
        ? `UPDATE attempt_counters SET ${pending}, failures = 0, blocks = 0, blocked_until = 0, last_at = ? WHERE counter_key = ?`
        : `UPDATE attempt_counters SET ${pending}, last_at = ? WHERE counter_key = ?`,
      [now, key],
    );
  }

  async blockedFor(key: string, now: number): Promise<number> {
    const row = await this.#db.get<CounterRow>(
      "SELECT failures, blocked_until FROM attempt_counters WHERE counter_key = ?",
      [key],
    );
    return Math.max(0, Number(row?.blocked_until ?? 0) - now);
  }

  async #sweep(now: number): Promise<void> {
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = now;
    await this.#db.run("DELETE FROM attempt_counters WHERE last_at < ? AND blocked_until < ?", [
      now - SWEEP_IDLE_MS,
      now,
    ]);
  }
}
