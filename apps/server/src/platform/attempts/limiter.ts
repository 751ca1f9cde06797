import { AccountCode } from "@meridian/contracts";
import { AppError } from "../errors.ts";

/**
 * How many secret checks a key may have before it is blocked, and for how long.
 *
 * After `threshold` failed checks the key is blocked for `baseMs`, doubling with each
 * further block up to `capMs` (so an attacker cannot lock a victim out for long). A key
 * with no attempt for `forgetAfterMs` starts over.
 */
export interface AttemptPolicy {
  threshold: number;
  baseMs: number;
  capMs: number;
  forgetAfterMs: number;
}

/**
 * What a success does to a counter: `reset` forgets its failures (the account's owner
 * proved themselves); `refund` only gives the attempt back (a shared key such as an IP
 * address, where one user's success says nothing about another's guesses).
 */
export type OnSuccess = "reset" | "refund";

export interface AttemptCounter {
  /** Namespaced by the caller, e.g. `login:acct:a@b.test`, `ip:203.0.113.9`. */
  key: string;
  policy: AttemptPolicy;
  onSuccess: OnSuccess;
}

/**
 * The atomic part: one counter per key that counts an attempt BEFORE its secret is
 * checked. `failures + pending` never exceeds the threshold, so N parallel tries get at
 * most `threshold` checks between them. Implementations: a database row (SQLite and
 * PostgreSQL, conditional UPDATE) and Redis (one Lua script per step).
 */
export interface AttemptStore {
  readonly kind: "db" | "redis";
  /** Reserves one attempt: 0 when granted, else the milliseconds to wait (nothing reserved). */
  take(key: string, policy: AttemptPolicy, now: number): Promise<number>;
  /** The reserved attempt failed: it stays counted. Returns the block it started in ms (0: none). */
  fail(key: string, policy: AttemptPolicy, now: number): Promise<number>;
  /** The reserved attempt succeeded (or was never checked: `refund`). */
  succeed(key: string, mode: OnSuccess, now: number): Promise<void>;
  /** Milliseconds the key is still blocked (0: not blocked). */
  blockedFor(key: string, now: number): Promise<number>;
}

/**
 * An attempt reserved on every counter of a `begin` call. Settle it exactly once: `failed`
 * when the secret was wrong, `succeeded` when it was right, `refund` when the secret was
 * never checked (e.g. the request failed for another reason first).
 */
export interface AttemptTicket {
  failed(): Promise<number>;
  succeeded(): Promise<void>;
  refund(): Promise<void>;
}

/** A reserved attempt that nobody settles is let go after this long (a crashed request). */
export const PENDING_STALE_MS = 30_000;
/** The wait answered while the threshold is taken up by checks still running. */
export const BUSY_RETRY_MS = 1_000;

export function throttledError(retryAfterMs: number): AppError {
  return new AppError(AccountCode.LOGIN_THROTTLED, "Too many attempts; try again later", {
    status: 429,
    data: { retryAfterMs },
    headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  });
}

/**
 * The attempt-limit primitive: count first, then check.
 *
 * ```ts
 * const ok = await limiter.attempt(
 *   [{ key: `pwd:user:${id}`, policy: ACCOUNT_POLICY, onSuccess: "reset" },
 *    { key: `ip:${ip}`, policy: IP_POLICY, onSuccess: "refund" }],
 *   () => verifyPassword(hash, given),
 * );
 * if (!ok) throw wrongPassword();
 * ```
 *
 * `attempt` throws the 429 `throttledError` (code 11002, `data.retryAfterMs`) without
 * running `check` when any counter is spent; a `check` that throws counts as a failure.
 */
export class AttemptLimiter {
  readonly store: AttemptStore;
  readonly #now: () => number;

  constructor(store: AttemptStore, now: () => number = Date.now) {
    this.store = store;
    this.#now = now;
  }

  /** Reserves one attempt on each counter in order; throws 429 (refunding the ones taken) when one is spent. */
  async begin(counters: readonly AttemptCounter[]): Promise<AttemptTicket> {
    const taken: AttemptCounter[] = [];
    for (const c of counters) {
      const wait = await this.store.take(c.key, c.policy, this.#now());
      if (wait > 0) {
        await Promise.all(taken.map((t) => this.store.succeed(t.key, "refund", this.#now())));
        throw throttledError(wait);
      }
      taken.push(c);
    }
    let settled = false;
    const once = () => {
      if (settled) throw new Error("attempt ticket settled twice");
      settled = true;
    };
    return {
      failed: async () => {
        once();
        let block = 0;
        for (const c of taken) block = Math.max(block, await this.store.fail(c.key, c.policy, this.#now()));
        return block;
      },
      succeeded: async () => {
        once();
        for (const c of taken) await this.store.succeed(c.key, c.onSuccess, this.#now());
      },
      refund: async () => {
        once();
        for (const c of taken) await this.store.succeed(c.key, "refund", this.#now());
      },
    };
  }

  /** Reserve, check, settle: the verdict of `check`, which never runs beyond the limit. */
  async attempt(counters: readonly AttemptCounter[], check: () => Promise<boolean>): Promise<boolean> {
    const ticket = await this.begin(counters);
    let ok: boolean;
    try {
      ok = await check();
    } catch (error) {
      await ticket.failed();
      throw error;
    }
    if (ok) await ticket.succeeded();
    else await ticket.failed();
    return ok;
  }

  /**
   * Counts a use that is never refunded (sending a code): refused with 429 once any
   * counter has been spent `threshold` times, until its block ends.
   */
  async spend(counters: readonly AttemptCounter[]): Promise<void> {
    const ticket = await this.begin(counters);
    await ticket.failed();
  }

  /** The longest block among `keys` (0: none), without counting anything. */
  async blockedFor(keys: readonly string[]): Promise<number> {
    let wait = 0;
    for (const key of keys) wait = Math.max(wait, await this.store.blockedFor(key, this.#now()));
    return wait;
  }
}

/** The block length after `blocks` earlier blocks: base, doubling, capped. */
export function blockMs(policy: AttemptPolicy, blocks: number): number {
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(blocks, 30));
}
