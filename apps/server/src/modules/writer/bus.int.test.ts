/**
 * The writer's pushes over Redis pub/sub reach the followers in order, and a follower that
 * may have missed some says so (`onGap`), so that its streams make their clients reload:
 * when its subscription connection drops and comes back, and when a publish is skipped.
 * Needs TEST_DATABASE_URL and TEST_REDIS_URL (the election runs on PostgreSQL).
 */
import type { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/index.ts";
import { loadMigrations, migrate } from "../../platform/db/migrate.ts";
import { MIGRATIONS_DIR } from "../../platform/db/migrations/index.ts";
import { openPostgres } from "../../platform/db/postgres.ts";
import type { Logger } from "../../platform/logger.ts";
import { closeRedis, connectRedis, redisChannel } from "../../platform/redis.ts";
import { WriterBus } from "./bus.ts";
import { WriterRole } from "./role.ts";

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const quiet = { info() {}, warn() {}, error() {}, fatal() {} } as unknown as Logger;

const waitFor = async (what: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!what()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.skipIf(pgUrl === undefined || redisUrl === undefined)(
  "the writer's pushes between instances",
  () => {
    const schema = `wbus_${process.pid}_${Date.now().toString(36)}`;
    const prefix = `test:${schema}:`;
    let admin: pg.Client;
    const dbs: PlatformDb[] = [];
    const clients: Redis[] = [];
    const buses: WriterBus[] = [];
    let writer: WriterBus;
    let writerRole: WriterRole;
    let follower: WriterBus;
    let followerRole: WriterRole;
    let redis: Redis;

    const bus = async () => {
      const db = openPostgres({ connectionString: pgUrl ?? "", schema, max: 2 });
      dbs.push(db);
      const role = await WriterRole.elect(db, quiet, { leaseMs: 5_000 });
      const r = (await connectRedis(redisUrl, prefix)) as Redis;
      clients.push(r);
      const b = new WriterBus(r, role, quiet);
      await b.start();
      buses.push(b);
      return { role, bus: b };
    };

    beforeAll(async () => {
      admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      const db = openPostgres({ connectionString: pgUrl ?? "", schema, max: 2 });
      dbs.push(db);
      await migrate(db, await loadMigrations(MIGRATIONS_DIR));
      const w = await bus();
      writer = w.bus;
      writerRole = w.role;
      const f = await bus();
      follower = f.bus;
      followerRole = f.role;
      redis = clients[0] as Redis;
    });
    afterAll(async () => {
      for (const b of buses) await b.stop();
      for (const r of clients) await closeRedis(r);
      for (const db of dbs) await db.close();
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    });

    it("delivers every publish in order and reports no gap while nothing is lost", async () => {
      const seen: string[] = [];
      const gaps: string[] = [];
      const off = follower.onStream("user", (accountId, texts) => seen.push(`${accountId}:${texts.join()}`));
      const offGap = follower.onGap((reason) => gaps.push(reason));
      for (let i = 0; i < 50; i++) {
        writer.publish("user", 7, [`t${i}`]);
        await new Promise((r) => setImmediate(r));
      }
      await waitFor(() => seen.length === 50);
      expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => `7:t${i}`));
      expect(gaps).toEqual([]);
      off();
      offGap();
    });

    it("reports a gap when a publish number is skipped", async () => {
      const gaps: string[] = [];
      const offGap = follower.onGap((reason) => gaps.push(reason));
      const seen: string[] = [];
      const off = follower.onStream("user", (_a, texts) => seen.push(...texts));
      writer.publish("user", 7, ["before"]);
      // The follower has the writer's last number before the skip is published.
      await waitFor(() => seen.includes("before"));
      off();
      // A publish the writer made that never reached Redis: the next number arrives instead.
      const events = redisChannel(redis, "writer:events");
      await redis.publish(
        events,
        JSON.stringify({ f: writerRole.id, s: 10_000, i: [["user", 7, ["late"]]] }),
      );
      await waitFor(() => gaps.length === 1);
      expect(gaps[0]).toMatch(/missing/);
      offGap();
    });

    it("reports a gap when its subscription connection dropped and came back", async () => {
      const gaps: string[] = [];
      const offGap = follower.onGap((reason) => gaps.push(reason));
      const list = (await redis.call("CLIENT", "LIST", "TYPE", "pubsub")) as string;
      const line = list.split("\n").find((l) => l.includes(`name=meridian-bus-${followerRole.id}`));
      expect(line).toBeDefined();
      const id = /\bid=(\d+)/.exec(line ?? "")?.[1] as string;
      await redis.call("CLIENT", "KILL", "ID", id);
      await waitFor(() => gaps.length === 1);
      expect(gaps[0]).toMatch(/reconnected/);
      // Resubscribed: pushes flow again.
      const seen: string[] = [];
      const off = follower.onStream("user", (_a, texts) => seen.push(...texts));
      writer.publish("user", 7, ["after"]);
      await waitFor(() => seen.includes("after"));
      off();
      offGap();
    });
  },
);
