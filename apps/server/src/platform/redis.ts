import { Redis } from "ioredis";

/**
 * Connects when REDIS_URL is set; rejects (start fails loudly) when it is set but unreachable.
 *
 * NOTE: every key goes out under `prefix` (REDIS_PREFIX) through ioredis' `keyPrefix`,
 * script KEYS included, so two deployments on one Redis never share a counter, lease or
 * replay entry. Pub/sub channels are not keys: name them with `redisChannel`.
 */
export async function connectRedis(
  url: string | undefined,
  prefix = "meridian:",
): Promise<Redis | undefined> {
  if (url === undefined) return undefined;
  const redis = new Redis(url, {
    keyPrefix: prefix,
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    connectTimeout: 5000,
    // Keep the process alive across a Redis restart, but never queue unbounded work.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // Errors surface on the commands that fail; an unhandled 'error' event would crash the process.
  redis.on("error", () => {});
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error("Redis unreachable at REDIS_URL", { cause: error });
  }
  return redis;
}

export async function closeRedis(redis: Redis | undefined): Promise<void> {
  if (redis === undefined) return;
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}

/** A pub/sub channel name under the client's key prefix (ioredis prefixes keys only). */
export function redisChannel(redis: Pick<Redis, "options">, name: string): string {
  return `${redis.options.keyPrefix ?? ""}${name}`;
}
