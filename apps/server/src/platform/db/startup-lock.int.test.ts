import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { Logger } from "../logger.ts";
import type { PlatformDb } from "./internal.ts";
import { loadMigrations, type Migration, migrate } from "./migrate.ts";
import { MIGRATIONS_DIR } from "./migrations/index.ts";
import { openPostgres } from "./postgres.ts";
import { runSeeds, type Seed } from "./seed.ts";

const url = process.env.TEST_DATABASE_URL;
const silent = { info() {}, warn() {}, child: () => silent } as unknown as Logger;

/**
 * Instances started together on an empty PostgreSQL schema: without the start-up lock two
 * of them create `schema_seeds` at once and one fails on a duplicate key in pg_type
 * (measured: 8 failures in 5 rounds of 3), or both seed.
 */
describe.skipIf(url === undefined)("the start-up lock (PostgreSQL)", () => {
  let admin: pg.Client;
  let migrations: Migration[];
  const schemas: string[] = [];
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    migrations = await loadMigrations(MIGRATIONS_DIR);
  });
  afterAll(async () => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  async function freshSchema(): Promise<string> {
    const schema = `startlock_${process.pid}_${schemas.length}_${Date.now().toString(36)}`;
    schemas.push(schema);
    await admin.query(`CREATE SCHEMA "${schema}"`);
    return schema;
  }

  test("three instances migrating and seeding at once all succeed, and each seed runs once", async () => {
    for (let round = 0; round < 3; round++) {
      const schema = await freshSchema();
      const dbs: PlatformDb[] = [0, 1, 2].map(() =>
        openPostgres({ connectionString: url as string, schema, max: 3 }),
      );
      let seeded = 0;
      const seeds: Seed[] = [
        {
          name: "count",
          seed: async () => {
            seeded++;
          },
        },
      ];
      try {
        const results = await Promise.allSettled(
          dbs.map((db) =>
            db.exclusive("startup", async () => {
              await migrate(db, migrations);
              await runSeeds(db, seeds, silent);
            }),
          ),
        );
        expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual([
          "ok",
          "ok",
          "ok",
        ]);
        expect(seeded).toBe(1);
      } finally {
        for (const db of dbs) await db.close();
      }
    }
  }, 120_000);

  test("holders take turns, per schema and name", async () => {
    const schema = await freshSchema();
    const other = await freshSchema();
    const [a, b, c] = [schema, schema, other].map((s) =>
      openPostgres({ connectionString: url as string, schema: s, max: 2 }),
    );
    const events: string[] = [];
    const hold = (db: PlatformDb, label: string, name = "startup") =>
      db.exclusive(name, async () => {
        events.push(`${label} in`);
        events.push(`${label} out`);
      });
    // Conditions, not times: a holds the lock until c and d have been in and b waits on it.
    const waiting = async () =>
      (
        await (admin as pg.Client).query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity s USING (pid)
           WHERE l.locktype = 'advisory' AND NOT l.granted AND s.query LIKE '%pg_advisory_lock(%'`,
        )
      ).rows[0]?.n ?? 0;
    try {
      await hold(a as PlatformDb, "warm-up");
      events.length = 0;
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let entered = () => {};
      const aIn = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const first = (a as PlatformDb).exclusive("startup", async () => {
        events.push("a in");
        entered();
        await released;
        events.push("a out");
      });
      await aIn;
      const second = hold(b as PlatformDb, "b");
      // another schema, or another name: not held up
      await hold(c as PlatformDb, "c");
      await hold(b as PlatformDb, "d", "other");
      await vi.waitFor(async () => expect(await waiting()).toBeGreaterThan(0), {
        timeout: 30_000,
        interval: 20,
      });
      expect(events).toEqual(["a in", "c in", "c out", "d in", "d out"]);
      release();
      await Promise.all([first, second]);
      expect(events.slice(-3)).toEqual(["a out", "b in", "b out"]);
      // a holder that throws releases the lock
      await expect(
        (a as PlatformDb).exclusive("startup", async () => {
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      await (b as PlatformDb).exclusive("startup", async () => {});
    } finally {
      for (const db of [a, b, c]) await db?.close();
    }
  }, 60_000);
});
