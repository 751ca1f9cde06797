/**
 * The API fuzz (`api-fuzz.test.ts`) against PostgreSQL and Redis, as a deployment runs:
 * no 5xx, bounded `{code, msg, data}` errors, no row changed by a refused request, the
 * server alive. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set, in a schema and
 * under a Redis key prefix of its own (both removed afterwards); FUZZ_INT_RUNS cases
 * (default 120, about half a minute) from FUZZ_SEED.
 */
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountsService } from "./modules/accounts/index.ts";
import type { PlatformDb } from "./platform/db/internal.ts";
import { openPostgres } from "./platform/db/postgres.ts";
import { routeTable } from "./platform/http/route-table.ts";
import { closeRedis, connectRedis } from "./platform/redis.ts";
import { loginNewUser, TEST_HOST } from "./test/accounts.ts";
import { type FuzzSessions, runApiFuzz, type TableRoute } from "./test/api-fuzz.ts";
import { testRedis } from "./test/redis.ts";
import { buildTestApp } from "./test/support.ts";

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const RUNS = Number(process.env.FUZZ_INT_RUNS ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_127);
const { prefix, redis: cleanupRedis } = testRedis("apifuzz");

describe.skipIf(pgUrl === undefined || redisUrl === undefined)("API fuzz on PostgreSQL and Redis", () => {
  const schema = `apifuzz_${process.pid}_${Date.now().toString(36)}`;
  let admin: pg.Client;
  let db: PlatformDb;
  let redis: Redis;
  let app: FastifyInstance;
  let sessions: FuzzSessions;
  const routes: TableRoute[] = [];

  beforeAll(async () => {
    await cleanupRedis(); // the suite's cleanup client: deletes the prefix afterwards
    admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    db = openPostgres({ connectionString: pgUrl ?? "", schema, max: 4 });
    const client = await connectRedis(redisUrl, prefix);
    if (client === undefined) throw new Error("TEST_REDIS_URL did not connect");
    redis = client;
    let service: AccountsService | undefined;
    app = await buildTestApp({
      db,
      redis,
      routes(api) {
        service = api.accounts.service;
      },
    });
    if (service === undefined) throw new Error("the accounts module is missing");
    await app.ready();
    for (const entry of routeTable(app))
      if (entry.method !== "HEAD" && (entry.url.startsWith("/v1/") || entry.url === "/healthz"))
        routes.push({ method: entry.method, url: entry.url });
    sessions = { user: await loginNewUser(service, "user"), admin: await loginNewUser(service, "admin") };
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
    if (redis !== undefined) await closeRedis(redis);
    await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end();
  });

  it(
    "no 5xx, bounded envelopes, no row changed by a refused request, server alive",
    async () => {
      const statuses = await runApiFuzz({
        app,
        db,
        routes,
        sessions,
        host: TEST_HOST,
        runs: RUNS,
        seed: SEED,
      });
      expect((await app.inject({ url: "/healthz" })).statusCode).toBe(200);
      const login = await app.inject({ method: "POST", url: "/v1/user/login", payload: {} });
      expect(login.statusCode).toBeLessThan(500);
      expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
      // The fuzz went through this deployment's Redis: its keys carry the prefix.
      expect((await redis.keys("*")).length).toBeGreaterThan(0);
      if (process.env.FUZZ_REPORT) console.log(JSON.stringify(Object.fromEntries(statuses)));
    },
    Math.max(90_000, RUNS * 1000),
  );
});
