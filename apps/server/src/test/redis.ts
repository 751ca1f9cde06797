import { Redis } from "ioredis";
import { afterAll } from "vitest";

/**
 * A Redis client for a suite's `TEST_REDIS_URL` tests, keys under a prefix unique to this
 * run (`meridian:test:<pid>:<time>:<namespace>:`), deleted with the client after the
 * suite. Connects on first use; no fallback: with TEST_REDIS_URL set, an unreachable
 * Redis fails the suite.
 */
export function testRedis(namespace: string): { prefix: string; redis: () => Promise<Redis> } {
  const prefix = `meridian:test:${process.pid}:${Date.now()}:${namespace}:`;
  let client: Redis | undefined;

  const redis = async (): Promise<Redis> => {
    if (client !== undefined) return client;
    const url = process.env.TEST_REDIS_URL;
    if (url === undefined) throw new Error("TEST_REDIS_URL is not set");
    const next = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await next.connect();
    } catch (error) {
      next.disconnect();
      throw error;
    }
    client = next;
    return next;
  };

  afterAll(async () => {
    if (client === undefined) return;
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  });

  return { prefix, redis };
}
