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

/** One process's memory: fine for a single server; RedisAttemptStore backs several. */
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

/** The subset of ioredis this store uses. */
export interface AttemptRedis {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  hget(key: string, field: string): Promise<string | null>;
  del(...keys: string[]): Promise<number>;
}

// The same rules as MemoryAttemptStore in one script, so concurrent failures from several
// processes each count once. The expiry outlives both the block and the forget window,
// after which the memory store would start over anyway.
const FAIL_LUA = `
local now = tonumber(ARGV[1])
local threshold = tonumber(ARGV[2])
local base = tonumber(ARGV[3])
local cap = tonumber(ARGV[4])
local forget = tonumber(ARGV[5])
local h = redis.call('HMGET', KEYS[1], 'failures', 'blocks', 'blockedUntil', 'lastFailure')
local failures = tonumber(h[1]) or 0
local blocks = tonumber(h[2]) or 0
local blockedUntil = tonumber(h[3]) or 0
local last = tonumber(h[4])
if last == nil or now - last > forget then
  failures = 0
  blocks = 0
  blockedUntil = 0
end
failures = failures + 1
local ms = 0
if failures >= threshold then
  ms = math.min(cap, base * 2 ^ blocks)
  blocks = blocks + 1
  failures = 0
  blockedUntil = now + ms
end
redis.call('HSET', KEYS[1], 'failures', failures, 'blocks', blocks, 'blockedUntil', blockedUntil, 'lastFailure', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(blockedUntil, now + forget) - now))
return ms
`;

/** Shared by every server process: one hash per key under `prefix`, expiring on its own. */
export class RedisAttemptStore implements AttemptStore {
  readonly #redis: AttemptRedis;
  readonly #policy: ThrottlePolicy;
  readonly #prefix: string;

  constructor(redis: AttemptRedis, policy: ThrottlePolicy, prefix = "acct:throttle:") {
    this.#redis = redis;
    this.#policy = policy;
    this.#prefix = prefix;
  }

  async blockedFor(key: string, now: number): Promise<number> {
    const until = await this.#redis.hget(`${this.#prefix}${key}`, "blockedUntil");
    return until === null ? 0 : Math.max(0, Number(until) - now);
  }

  async fail(key: string, now: number): Promise<number> {
    const p = this.#policy;
    const ms = await this.#redis.eval(
      FAIL_LUA,
      1,
      `${this.#prefix}${key}`,
      Math.floor(now),
      p.threshold,
      p.baseMs,
      p.capMs,
      p.forgetAfterMs,
    );
    return Number(ms);
  }

  async reset(key: string): Promise<void> {
    await this.#redis.del(`${this.#prefix}${key}`);
  }
}
