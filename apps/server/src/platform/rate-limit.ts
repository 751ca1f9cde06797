import type { Redis } from "ioredis";

export interface RateLimitRule {
  /** Most hits allowed per window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Hits left in this window (0 when refused). */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/**
 * Fixed-window counter: `hit` counts one request against `key` and says whether it is
 * within `rule`. Two implementations: Redis (shared by every process) and in-memory.
 */
export interface RateLimiter {
  readonly kind: "redis" | "memory";
  hit(key: string, rule: RateLimitRule): Promise<RateLimitResult>;
}

function result(count: number, rule: RateLimitRule, resetMs: number): RateLimitResult {
  return {
    allowed: count <= rule.limit,
    remaining: Math.max(0, rule.limit - count),
    resetMs: Math.max(0, resetMs),
  };
}

/** One process only; expired windows are swept as the map grows. */
export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const SWEEP_AT = 10_000;
  return {
    kind: "memory",
    async hit(key, rule) {
      const t = now();
      if (windows.size >= SWEEP_AT) {
        for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      }
      let window = windows.get(key);
      if (window === undefined || window.resetAt <= t) {
        window = { count: 0, resetAt: t + rule.windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return result(window.count, rule, window.resetAt - t);
    },
  };
}

// INCR and PEXPIRE in one script, so a crash between them cannot leave a key without expiry.
const FIXED_WINDOW_LUA = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/**
 * Shared across processes. When Redis fails the request is let through (and `onError`
 * told): a rate limiter outage must not take the API down.
 */
export function createRedisRateLimiter(
  redis: Redis,
  options: { prefix?: string; onError?: (error: unknown) => void } = {},
): RateLimiter {
  // The client's own REDIS_PREFIX comes before this one.
  const prefix = options.prefix ?? "rl:";
  return {
    kind: "redis",
    async hit(key, rule) {
      try {
        const reply = (await redis.eval(FIXED_WINDOW_LUA, 1, `${prefix}${key}`, String(rule.windowMs))) as [
          number,
          number,
        ];
        return result(Number(reply[0]), rule, Number(reply[1]));
      } catch (error) {
        options.onError?.(error);
        return { allowed: true, remaining: rule.limit, resetMs: rule.windowMs };
      }
    },
  };
}
