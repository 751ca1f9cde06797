import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { testRedis } from "../../test/redis.ts";
import type { PlatformDb } from "../db/internal.ts";
import { loadMigrations, migrate } from "../db/migrate.ts";
import { MIGRATIONS_DIR } from "../db/migrations/index.ts";
import { AppError } from "../errors.ts";
import { DbAttemptStore } from "./db-store.ts";
import {
  type AttemptCounter,
  AttemptLimiter,
  type AttemptPolicy,
  type AttemptStore,
  BUSY_RETRY_MS,
  PENDING_STALE_MS,
} from "./limiter.ts";
import { RedisAttemptStore } from "./redis-store.ts";

const MIN = 60_000;
const POLICY: AttemptPolicy = { threshold: 5, baseMs: MIN, capMs: 15 * MIN, forgetAfterMs: 60 * MIN };
const { prefix: redisPrefix, redis } = testRedis("attempts");

interface Maker {
  name: string;
  open(): Promise<{ store: () => AttemptStore; close(): Promise<void> }>;
}

const makers: Maker[] = reopenableDbTargets("attempts").map((target) => ({
  name: `db ${target.name}`,
  open: async () => {
    const opened = await target.open();
    const db: PlatformDb = opened.db();
    await migrate(db, await loadMigrations(MIGRATIONS_DIR));
    return {
      // A second store on the same database stands for a second server process.
      store: () => new DbAttemptStore(db),
      close: async () => {
        await db.close();
        await opened.cleanup();
      },
    };
  },
}));
if (process.env.TEST_REDIS_URL !== undefined) {
  let seq = 0;
  makers.push({
    name: "redis",
    open: async () => {
      const r = await redis();
      const ns = `${redisPrefix}${seq++}:`;
      return { store: () => new RedisAttemptStore(r, ns), close: async () => {} };
    },
  });
}

function account(key: string, policy = POLICY): AttemptCounter {
  return { key, policy, onSuccess: "reset" };
}

/** Fires `n` parallel attempts through two limiters on one store; the secret is `right`. */
async function crowd(
  limiters: AttemptLimiter[],
  counters: AttemptCounter[],
  guesses: string[],
  right: string,
): Promise<{ checked: string[]; answers: ("ok" | "wrong" | "refused")[] }> {
  const checked: string[] = [];
  const answers = await Promise.all(
    guesses.map(async (guess, i) => {
      const limiter = limiters[i % limiters.length] ?? limiters[0];
      if (limiter === undefined) throw new Error("no limiter");
      try {
        const ok = await limiter.attempt(counters, async () => {
          checked.push(guess);
          // A slow hash: every parallel try is in flight at once.
          await new Promise((resolve) => setTimeout(resolve, 20));
          return guess === right;
        });
        return ok ? "ok" : "wrong";
      } catch (error) {
        if (error instanceof AppError && error.status === 429) return "refused";
        throw error;
      }
    }),
  );
  return { checked, answers };
}

describe.each(makers)("attempt limiter ($name)", (maker) => {
  let env: Awaited<ReturnType<Maker["open"]>>;
  beforeAll(async () => {
    env = await maker.open();
  });
  afterAll(() => env.close());

  it("checks at most the threshold of 50 parallel wrong tries, then refuses the right one", async () => {
    let now = 1_700_000_000_000;
    const clock = () => now;
    const limiters = [new AttemptLimiter(env.store(), clock), new AttemptLimiter(env.store(), clock)];
    const guesses = Array.from({ length: 50 }, (_, i) => `wrong-${i}`);
    const { checked, answers } = await crowd(limiters, [account("crowd")], guesses, "right");
    expect(checked.length).toBe(5);
    expect(answers.filter((a) => a === "wrong")).toHaveLength(5);
    expect(answers.filter((a) => a === "refused")).toHaveLength(45);
    const late = await crowd(limiters, [account("crowd")], ["right"], "right");
    expect(late).toEqual({ checked: [], answers: ["refused"] });
    await expect(limiters[0]?.blockedFor(["crowd"])).resolves.toBe(MIN);
    // After the block the right secret gets through and clears the count.
    now += MIN;
    expect((await crowd(limiters, [account("crowd")], ["right"], "right")).answers).toEqual(["ok"]);
    expect((await crowd(limiters, [account("crowd")], ["a", "b", "c", "d"], "x")).checked).toHaveLength(4);
  });

  it("never checks more than the threshold even with the right secret among 50 parallel tries", async () => {
    const limiter = new AttemptLimiter(env.store(), () => 1_700_000_000_000);
    const guesses = Array.from({ length: 50 }, (_, i) => (i === 25 ? "right" : `wrong-${i}`));
    const { checked, answers } = await crowd([limiter], [account("mixed")], guesses, "right");
    expect(checked.length).toBeLessThanOrEqual(5);
    // The right one came after the budget was taken: refused unchecked, like the rest.
    expect(checked).not.toContain("right");
    expect(answers[25]).toBe("refused");
  });

  it("doubles the block up to the cap, and forgets a quiet key", async () => {
    let now = 1_700_000_000_000;
    const store = env.store();
    const limiter = new AttemptLimiter(store, () => now);
    const blocks: number[] = [];
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 4; i++) await limiter.attempt([account("grow")], async () => false);
      const ticket = await limiter.begin([account("grow")]);
      const ms = await ticket.failed();
      blocks.push(ms);
      await expect(limiter.begin([account("grow")])).rejects.toMatchObject({
        status: 429,
        data: { retryAfterMs: ms },
      });
      now += ms;
    }
    expect(blocks).toEqual([MIN, 2 * MIN, 4 * MIN, 8 * MIN, 15 * MIN, 15 * MIN]);
    now += POLICY.forgetAfterMs + 1;
    for (let i = 0; i < 4; i++) await limiter.attempt([account("grow")], async () => false);
    expect(await (await limiter.begin([account("grow")])).failed()).toBe(MIN);
  });

  it("refunds shared counters on success and the ones taken before a refusal", async () => {
    const now = 1_700_000_000_000;
    const limiter = new AttemptLimiter(env.store(), () => now);
    const ip: AttemptCounter = { key: "ip:shared", policy: POLICY, onSuccess: "refund" };
    // Ten users behind one address log in fine: successes never use up the address.
    for (let i = 0; i < 10; i++) expect(await limiter.attempt([ip], async () => true)).toBe(true);
    for (let i = 0; i < 4; i++) await limiter.attempt([ip, account("victim")], async () => false);
    // "victim" has one try left, the address one too; a fifth failure blocks both.
    await limiter.attempt([ip, account("victim")], async () => false);
    await expect(limiter.begin([account("other"), ip])).rejects.toMatchObject({ status: 429 });
    // "other" was taken before the address refused: refunded, so its five tries are intact.
    for (let i = 0; i < 4; i++) await limiter.attempt([account("other")], async () => false);
    expect(await (await limiter.begin([account("other")])).failed()).toBe(MIN);
  });

  it("answers busy while checks are in flight, and lets a crashed reservation go", async () => {
    let now = 1_700_000_000_000;
    const limiter = new AttemptLimiter(env.store(), () => now);
    const tickets = [];
    for (let i = 0; i < 5; i++) tickets.push(await limiter.begin([account("inflight")]));
    await expect(limiter.begin([account("inflight")])).rejects.toMatchObject({
      data: { retryAfterMs: BUSY_RETRY_MS },
    });
    await tickets[0]?.succeeded();
    const next = await limiter.begin([account("inflight")]);
    await next.refund();
    // Four reservations are never settled (their process died): they lapse.
    now += PENDING_STALE_MS + 1;
    for (let i = 0; i < 5; i++) tickets.push(await limiter.begin([account("inflight")]));
    expect(tickets).toHaveLength(10);
  });

  it("a check that throws counts as a failure", async () => {
    const limiter = new AttemptLimiter(env.store(), () => 1_700_000_000_000);
    for (let i = 0; i < 5; i++) {
      await expect(
        limiter.attempt([account("throws")], async () => {
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
    }
    await expect(limiter.attempt([account("throws")], async () => true)).rejects.toMatchObject({
      status: 429,
    });
  });
});
