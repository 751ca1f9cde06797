import Fastify from "fastify";
import type { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { RedisReplayStore } from "./modules/gateway-sign/index.ts";
import type { FeedTrade } from "./modules/market/index.ts";
import { type ClusterMarket, MarketCluster } from "./modules/market/index.ts";
import { AttemptLimiter, RedisAttemptStore } from "./platform/attempts/index.ts";
import { createRedisRateLimiter } from "./platform/rate-limit.ts";
import { closeRedis, connectRedis } from "./platform/redis.ts";
import { testRedis } from "./test/redis.ts";

const url = process.env.TEST_REDIS_URL;
// The cleanup client deletes everything under `base` when the suite ends.
const { prefix: base, redis: raw } = testRedis("prefix");
const clients: Redis[] = [];

async function deployment(name: string): Promise<Redis> {
  const client = await connectRedis(url, `${base}${name}:`);
  if (client === undefined) throw new Error("TEST_REDIS_URL is not set");
  clients.push(client);
  return client;
}

afterAll(async () => {
  await raw(); // make sure the cleanup client exists, whatever ran
  for (const c of clients) await closeRedis(c);
});

/** A market that records what the cluster makes it do. */
function recordingMarket() {
  const applied: FeedTrade[][] = [];
  let tap: ((trades: readonly FeedTrade[]) => void) | undefined;
  const market: ClusterMarket = {
    apply: (trades) => void applied.push([...trades]),
    anchorFeed: () => {},
    startFeed: (t) => {
      tap = t;
    },
    stopFeedLoop: () => {
      tap = undefined;
    },
    followBooks: () => {},
    applyDepth: () => {},
    changedDepths: () => [],
  };
  return { market, applied, publish: (trades: FeedTrade[]) => tap?.(trades) };
}

const log = Fastify({ logger: false }).log;

describe.skipIf(url === undefined)("two deployments on one Redis (REDIS_PREFIX)", () => {
  it("puts every key under the deployment's prefix", async () => {
    const a = await deployment("a");
    await new RedisReplayStore(a).seen("trace-1", 60_000);
    const keys = await (await raw()).keys(`${base}*`);
    expect(keys).toContain(`${base}a:gw:replay:trace-1`);
    expect(keys.every((k) => k.startsWith(`${base}a:`))).toBe(true);
  });

  it("keeps attempt limits, rate limits and replay caches apart", async () => {
    const [a, b] = [await deployment("a"), await deployment("b")];
    const policy = { threshold: 2, baseMs: 60_000, capMs: 60_000, forgetAfterMs: 60_000 };
    const counter = [{ key: "pwd:user:1", policy, onSuccess: "reset" as const }];
    const limitA = new AttemptLimiter(new RedisAttemptStore(a));
    const limitB = new AttemptLimiter(new RedisAttemptStore(b));
    for (let i = 0; i < 2; i++) await limitA.attempt(counter, async () => false);
    await expect(limitA.attempt(counter, async () => true)).rejects.toMatchObject({ status: 429 });
    expect(await limitB.attempt(counter, async () => true)).toBe(true);

    const rule = { limit: 1, windowMs: 60_000 };
    const rlA = createRedisRateLimiter(a);
    const rlB = createRedisRateLimiter(b);
    expect((await rlA.hit("ip:1", rule)).allowed).toBe(true);
    expect((await rlA.hit("ip:1", rule)).allowed).toBe(false);
    expect((await rlB.hit("ip:1", rule)).allowed).toBe(true);

    expect(await new RedisReplayStore(a).seen("trace-2", 60_000)).toBe(false);
    expect(await new RedisReplayStore(a).seen("trace-2", 60_000)).toBe(true);
    expect(await new RedisReplayStore(b).seen("trace-2", 60_000)).toBe(false);
  });

  it("gives each deployment its own price leader and never mixes their price feeds", async () => {
    const [a, b] = [await deployment("mkt-a"), await deployment("mkt-b")];
    const leaderA = recordingMarket();
    const followerA = recordingMarket();
    const leaderB = recordingMarket();
    const clusters = [
      new MarketCluster(a, leaderA.market, log, { instanceId: "a1" }),
      new MarketCluster(a, followerA.market, log, { instanceId: "a2" }),
      new MarketCluster(b, leaderB.market, log, { instanceId: "b1" }),
    ];
    try {
      for (const c of clusters) await c.start();
      expect(clusters.map((c) => c.isLeader)).toEqual([true, false, true]);
      const tradeA: FeedTrade = { symbol: "BTCUSDT", time: 1, price: 100, qty: 1, buyerMaker: false };
      const tradeB: FeedTrade = { symbol: "BTCUSDT", time: 2, price: 200, qty: 1, buyerMaker: true };
      leaderB.publish([tradeB]);
      leaderA.publish([tradeA]);
      await expect.poll(() => followerA.applied.length, { timeout: 5000 }).toBe(1);
      // B's batch went out first: had it reached A's follower, it would be here by now.
      expect(followerA.applied).toEqual([[tradeA]]);
    } finally {
      for (const c of clusters) await c.stop();
    }
  });
});
