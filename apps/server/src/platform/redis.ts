import { Redis } from "ioredis";

/** Connects when REDIS_URL is set; rejects (start fails loudly) when it is set but unreachable. */
export async function connectRedis(url: string | undefined): Promise<Redis | undefined> {
  if (url === undefined) return undefined;
  const redis = new Redis(url, {
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
