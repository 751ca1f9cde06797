import {
  type AttemptPolicy,
  type AttemptStore,
  BUSY_RETRY_MS,
  type OnSuccess,
  PENDING_STALE_MS,
} from "./limiter.ts";

/** The subset of ioredis this store uses. */
export interface AttemptRedis {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  hget(key: string, field: string): Promise<string | null>;
}

// Each step is one script, so concurrent tries from any number of processes see one
// counter. The key outlives both its block and its forget window, then vanishes.
const READ = `
local h = redis.call('HMGET', KEYS[1], 'failures', 'pending', 'pendingAt', 'blocks', 'blockedUntil', 'lastAt')
local failures = tonumber(h[1]) or 0
local pending = tonumber(h[2]) or 0
local pendingAt = tonumber(h[3]) or 0
local blocks = tonumber(h[4]) or 0
local blockedUntil = tonumber(h[5]) or 0
local lastAt = tonumber(h[6]) or 0
local function save(now, forget)
  redis.call('HSET', KEYS[1], 'failures', failures, 'pending', pending, 'pendingAt', pendingAt,
    'blocks', blocks, 'blockedUntil', blockedUntil, 'lastAt', lastAt)
  redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(blockedUntil, now + forget) - now))
end
`;

const TAKE_LUA = `${READ}
local now = tonumber(ARGV[1])
local threshold = tonumber(ARGV[2])
local forget = tonumber(ARGV[3])
if blockedUntil > now then return blockedUntil - now end
if now - lastAt > forget then failures = 0; blocks = 0 end
if now - pendingAt > ${PENDING_STALE_MS} then pending = 0 end
if failures + pending >= threshold then return ${BUSY_RETRY_MS} end
pending = pending + 1
pendingAt = now
lastAt = now
save(now, forget)
return 0
`;

const FAIL_LUA = `${READ}
local now = tonumber(ARGV[1])
local threshold = tonumber(ARGV[2])
local base = tonumber(ARGV[3])
local cap = tonumber(ARGV[4])
local forget = tonumber(ARGV[5])
if pending > 0 then pending = pending - 1 end
failures = failures + 1
lastAt = now
local ms = 0
if failures >= threshold then
  ms = math.min(cap, base * 2 ^ math.min(blocks, 30))
  blocks = blocks + 1
  failures = 0
  blockedUntil = now + ms
end
save(now, forget)
return ms
`;

const SUCCEED_LUA = `${READ}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local now = tonumber(ARGV[1])
if pending > 0 then pending = pending - 1 end
if ARGV[2] == 'reset' then failures = 0; blocks = 0; blockedUntil = 0 end
lastAt = now
redis.call('HSET', KEYS[1], 'failures', failures, 'pending', pending, 'blocks', blocks, 'blockedUntil', blockedUntil, 'lastAt', lastAt)
return 0
`;

/**
 * Counters as Redis hashes under `namespace` (the client's own REDIS_PREFIX comes first),
 * shared by every server process on that Redis.
 */
export class RedisAttemptStore implements AttemptStore {
  readonly kind = "redis";
  readonly #redis: AttemptRedis;
  readonly #namespace: string;

  constructor(redis: AttemptRedis, namespace = "attempts:") {
    this.#redis = redis;
    this.#namespace = namespace;
  }

  async take(key: string, policy: AttemptPolicy, now: number): Promise<number> {
    const wait = await this.#redis.eval(
      TAKE_LUA,
      1,
      this.#namespace + key,
      Math.floor(now),
      policy.threshold,
      policy.forgetAfterMs,
    );
    return Number(wait);
  }

  async fail(key: string, policy: AttemptPolicy, now: number): Promise<number> {
    const ms = await this.#redis.eval(
      FAIL_LUA,
      1,
      this.#namespace + key,
      Math.floor(now),
      policy.threshold,
      policy.baseMs,
      policy.capMs,
      policy.forgetAfterMs,
    );
    return Number(ms);
  }

  async succeed(key: string, mode: OnSuccess, now: number): Promise<void> {
    await this.#redis.eval(SUCCEED_LUA, 1, this.#namespace + key, Math.floor(now), mode);
  }

  async blockedFor(key: string, now: number): Promise<number> {
    const until = await this.#redis.hget(this.#namespace + key, "blockedUntil");
    return until === null ? 0 : Math.max(0, Number(until) - now);
  }
}
