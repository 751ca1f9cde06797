import { describe, expect, it } from "vitest";
import { testRedis } from "../../test/redis.ts";
import { MemoryReplayStore, RedisReplayStore } from "./replay.ts";

const redisUrl = process.env.TEST_REDIS_URL;
const { prefix: runPrefix, redis } = testRedis("gw:replay");

describe("replay store (memory)", () => {
  it("refuses a second use within the time to live and accepts it after", async () => {
    let now = 1_000;
    const store = new MemoryReplayStore(() => now);
    expect(await store.seen("trace:k:1", 100)).toBe(false);
    expect(await store.seen("trace:k:1", 100)).toBe(true);
    now += 100;
    expect(await store.seen("trace:k:1", 100)).toBe(false);
  });

  it("keeps refusing live ids across its sweeps (1,000 ids/s for 250 s, 2 min to live)", async () => {
    let now = 0;
    const store = new MemoryReplayStore(() => now);
    const ttl = 120_000;
    let refusedFresh = 0;
    for (let i = 0; i < 250_000; i++) {
      now = i;
      if (await store.seen(`trace:k:${i}`, ttl)) refusedFresh++;
      // Past the first sweep (100,000 ids), an id recorded 119.999 s ago is still refused,
      // and one recorded exactly 2 minutes ago has expired.
      if (i % 10_007 === 0 && i >= ttl) {
        expect(await store.seen(`trace:k:${i - ttl + 1}`, ttl)).toBe(true);
        expect(await store.seen(`trace:k:${i - ttl}`, ttl)).toBe(false);
      }
    }
    expect(refusedFresh).toBe(0);
  });
});

describe.skipIf(redisUrl === undefined)("replay store (redis)", () => {
  it("refuses a trace id seen by another store on the same Redis", async () => {
    const r = await redis();
    const a = new RedisReplayStore(r, runPrefix);
    const b = new RedisReplayStore(r, runPrefix);
    expect(await a.seen("trace:k:1", 60_000)).toBe(false);
    expect(await b.seen("trace:k:1", 60_000)).toBe(true);
    expect(await a.seen("trace:k:1", 60_000)).toBe(true);
    expect(await b.seen("trace:k:2", 60_000)).toBe(false);
    const ttl = await r.pttl(`${runPrefix}trace:k:1`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("lets exactly one of 20 concurrent uses through", async () => {
    const r = await redis();
    const a = new RedisReplayStore(r, runPrefix);
    const b = new RedisReplayStore(r, runPrefix);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).seen("trace:k:crowd", 60_000)),
    );
    expect(results.filter((s) => s === false)).toHaveLength(1);
  });

  it("forgets an id once its time to live has passed", async () => {
    const r = await redis();
    const store = new RedisReplayStore(r, runPrefix);
    expect(await store.seen("trace:k:short", 50)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await r.exists(`${runPrefix}trace:k:short`)).toBe(0);
    expect(await store.seen("trace:k:short", 50)).toBe(false);
  });

  it("uses the gw:replay: namespace by default", async () => {
    const r = await redis();
    const id = `${runPrefix.replaceAll(":", "-")}default`;
    expect(await new RedisReplayStore(r).seen(id, 5_000)).toBe(false);
    expect(await r.exists(`gw:replay:${id}`)).toBe(1);
    await r.del(`gw:replay:${id}`);
  });
});
