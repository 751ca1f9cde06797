import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from "./rate-limit.ts";

const redisUrl = process.env.TEST_REDIS_URL;
const clients: Redis[] = [];
afterAll(async () => {
  for (const client of clients) await client.quit();
});

const makers: { name: string; make: () => Promise<RateLimiter> }[] = [
  { name: "memory", make: async () => createMemoryRateLimiter() },
];
if (redisUrl) {
  makers.push({
    name: "redis",
    make: async () => {
      // NOTE: no fallback: with TEST_REDIS_URL set, an unreachable Redis fails the suite.
      const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
      await redis.connect();
      clients.push(redis);
      return createRedisRateLimiter(redis, { prefix: `meridian:test:${process.pid}:${Date.now()}:` });
    },
  });
}

describe.each(makers)("rate limiter ($name)", ({ make }) => {
  it("allows up to the limit per window, then refuses with the time to reset", async () => {
    const limiter = await make();
    const rule = { limit: 3, windowMs: 60_000 };
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit("user:1", rule));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results[3]?.resetMs).toBeGreaterThan(50_000);
    expect((await limiter.hit("user:2", rule)).allowed).toBe(true);
  });

  it("opens a new window once the old one expires", async () => {
    const limiter = await make();
    const rule = { limit: 1, windowMs: 50 };
    expect((await limiter.hit("burst", rule)).allowed).toBe(true);
    expect((await limiter.hit("burst", rule)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect((await limiter.hit("burst", rule)).allowed).toBe(true);
  });

  it("counts concurrent hits exactly", async () => {
    const limiter = await make();
    const rule = { limit: 10, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 25 }, () => limiter.hit("crowd", rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });
});
