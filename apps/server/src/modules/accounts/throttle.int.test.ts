import { describe, expect, it } from "vitest";
import { testRedis } from "../../test/redis.ts";
import {
  ACCOUNT_POLICY,
  type AttemptStore,
  MemoryAttemptStore,
  RedisAttemptStore,
  type ThrottlePolicy,
} from "./throttle.ts";

const redisUrl = process.env.TEST_REDIS_URL;
const { prefix: runPrefix, redis } = testRedis("acct:throttle");

let storeSeq = 0;
const makers: { name: string; make: (policy: ThrottlePolicy) => Promise<AttemptStore> }[] = [
  { name: "memory", make: async (policy) => new MemoryAttemptStore(policy) },
];
if (redisUrl !== undefined) {
  makers.push({
    name: "redis",
    make: async (policy) => new RedisAttemptStore(await redis(), policy, `${runPrefix}${storeSeq++}:`),
  });
}

const MIN = 60_000;
const T0 = 1_700_000_000_000;

async function failTimes(store: AttemptStore, key: string, n: number, now: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await store.fail(key, now));
  return out;
}

describe.each(makers)("attempt store ($name)", ({ make }) => {
  it("blocks after the threshold for 1, 2, 4, 8 min, then holds at the 15 min cap", async () => {
    const store = await make(ACCOUNT_POLICY);
    let now = T0;
    expect(await failTimes(store, "a@x.test", 4, now)).toEqual([0, 0, 0, 0]);
    expect(await store.blockedFor("a@x.test", now)).toBe(0);
    const blocks: number[] = [];
    for (let round = 0; round < 6; round++) {
      const results = await failTimes(store, "a@x.test", round === 0 ? 1 : 5, now);
      const ms = results.at(-1) ?? 0;
      expect(results.slice(0, -1).every((r) => r === 0)).toBe(true);
      blocks.push(ms);
      expect(await store.blockedFor("a@x.test", now)).toBe(ms);
      expect(await store.blockedFor("a@x.test", now + ms - 1000)).toBe(1000);
      now += ms;
      expect(await store.blockedFor("a@x.test", now)).toBe(0);
    }
    expect(blocks).toEqual([1 * MIN, 2 * MIN, 4 * MIN, 8 * MIN, 15 * MIN, 15 * MIN]);
    expect(await store.blockedFor("other@x.test", now)).toBe(0);
  });

  it("forgets a key after an hour without failures, and on reset", async () => {
    const store = await make(ACCOUNT_POLICY);
    expect(await failTimes(store, "b@x.test", 5, T0)).toEqual([0, 0, 0, 0, MIN]);
    expect(await failTimes(store, "b@x.test", 5, T0 + MIN)).toEqual([0, 0, 0, 0, 2 * MIN]);
    // Within the hour the doubling carries on; after it the key starts over at 1 min.
    const later = T0 + MIN + ACCOUNT_POLICY.forgetAfterMs + 1;
    expect(await failTimes(store, "b@x.test", 5, later)).toEqual([0, 0, 0, 0, MIN]);
    await store.reset("b@x.test");
    expect(await store.blockedFor("b@x.test", later)).toBe(0);
    expect(await failTimes(store, "b@x.test", 5, later)).toEqual([0, 0, 0, 0, MIN]);
  });

  it("counts 20 concurrent failures exactly once each", async () => {
    const store = await make(ACCOUNT_POLICY);
    const results = await Promise.all(Array.from({ length: 20 }, () => store.fail("crowd@x.test", T0)));
    expect(results.filter((ms) => ms === 0)).toHaveLength(16);
    expect(results.filter((ms) => ms > 0).sort((a, b) => a - b)).toEqual([MIN, 2 * MIN, 4 * MIN, 8 * MIN]);
    expect(await store.fail("crowd@x.test", T0)).toBe(0);
  });
});

describe.skipIf(redisUrl === undefined)("attempt store (redis, shared)", () => {
  it("two instances on one Redis share one counter", async () => {
    const r = await redis();
    const prefix = `${runPrefix}shared:`;
    const a = new RedisAttemptStore(r, ACCOUNT_POLICY, prefix);
    const b = new RedisAttemptStore(r, ACCOUNT_POLICY, prefix);
    expect(await a.fail("1.2.3.4", T0)).toBe(0);
    expect(await b.fail("1.2.3.4", T0)).toBe(0);
    expect(await a.fail("1.2.3.4", T0)).toBe(0);
    expect(await b.fail("1.2.3.4", T0)).toBe(0);
    expect(await a.fail("1.2.3.4", T0)).toBe(MIN);
    expect(await b.blockedFor("1.2.3.4", T0)).toBe(MIN);
    const spread = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).fail("1.2.3.4", T0 + MIN)),
    );
    expect(spread.filter((ms) => ms > 0).sort((x, y) => x - y)).toEqual([
      2 * MIN,
      4 * MIN,
      8 * MIN,
      15 * MIN,
    ]);
    await b.reset("1.2.3.4");
    expect(await a.blockedFor("1.2.3.4", T0 + MIN)).toBe(0);
  });

  it("keys carry an expiry past the block and the forget window, and vanish after it", async () => {
    const r = await redis();
    const prefix = `${runPrefix}ttl:`;
    const store = new RedisAttemptStore(r, ACCOUNT_POLICY, prefix);
    await store.fail("c@x.test", Date.now());
    const ttl = await r.pttl(`${prefix}c@x.test`);
    expect(ttl).toBeGreaterThan(ACCOUNT_POLICY.forgetAfterMs - 5000);
    expect(ttl).toBeLessThanOrEqual(ACCOUNT_POLICY.forgetAfterMs);

    const brief: ThrottlePolicy = { threshold: 2, baseMs: 120, capMs: 500, forgetAfterMs: 60 };
    const short = new RedisAttemptStore(r, brief, prefix);
    const now = Date.now();
    await short.fail("d@x.test", now);
    expect(await short.fail("d@x.test", now)).toBe(120);
    // The block (120 ms) outlasts the forget window (60 ms): the expiry follows the longer one.
    expect(await r.pttl(`${prefix}d@x.test`)).toBeGreaterThan(60);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await r.exists(`${prefix}d@x.test`)).toBe(0);
  });
});
