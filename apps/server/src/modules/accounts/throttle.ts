/**
 * Brute-force limits for password and code checks, per account and per IP.
 *
 * After `threshold` failures a key is blocked for a short window that doubles with
 * each further block (1, 2, 4, 8 min) and is capped at 15 min, so an attacker cannot
 * lock a victim out for long. When a window ends the right password (and second
 * factor) logs in and clears the account's counter.
 */
export interface AttemptStore {
  /** Milliseconds until the key may try again (0 when it may try now). */
  blockedFor(key: string, now: number): Promise<number>;
  /** Records a failure; returns the new block in ms (0 when still under the threshold). */
  fail(key: string, now: number): Promise<number>;
  reset(key: string): Promise<void>;
}

export interface ThrottlePolicy {
  threshold: number;
  baseMs: number;
  capMs: number;
  /** Counters with no failure for this long are forgotten. */
  forgetAfterMs: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = {
  threshold: 5,
  baseMs: 60_000,
  capMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
};
export const IP_POLICY: ThrottlePolicy = {
  threshold: 30,
  baseMs: 60_000,
  capMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

interface Entry {
  failures: number;
  blocks: number;
  blockedUntil: number;
  lastFailure: number;
}

/** One process's memory: fine for a single server; a shared store would back several. */
export class MemoryAttemptStore implements AttemptStore {
  readonly #policy: ThrottlePolicy;
  readonly #entries = new Map<string, Entry>();

  constructor(policy: ThrottlePolicy) {
    this.#policy = policy;
  }

  async blockedFor(key: string, now: number): Promise<number> {
    const e = this.#entries.get(key);
    if (e === undefined) return 0;
    return Math.max(0, e.blockedUntil - now);
  }

  async fail(key: string, now: number): Promise<number> {
    this.#sweep(now);
    const p = this.#policy;
    let e = this.#entries.get(key);
    if (e === undefined || now - e.lastFailure > p.forgetAfterMs) {
      e = { failures: 0, blocks: 0, blockedUntil: 0, lastFailure: now };
      this.#entries.set(key, e);
    }
    e.failures += 1;
    e.lastFailure = now;
    if (e.failures < p.threshold) return 0;
    const ms = Math.min(p.capMs, p.baseMs * 2 ** e.blocks);
    e.blocks += 1;
    e.failures = 0;
    e.blockedUntil = now + ms;
    return ms;
  }

  async reset(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  #sweep(now: number): void {
    if (this.#entries.size < 10_000) return;
    for (const [key, e] of this.#entries) {
      if (now - e.lastFailure > this.#policy.forgetAfterMs && e.blockedUntil < now) this.#entries.delete(key);
    }
  }
}
