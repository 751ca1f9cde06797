import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ddl } from "./ddl.ts";
import { type PlatformDb, TransactionMisuseError } from "./internal.ts";
import { loadMigrations, type Migration, migrate } from "./migrate.ts";
import { MIGRATIONS_DIR } from "./migrations/index.ts";
import { openPostgres } from "./postgres.ts";
import { runSeeds } from "./seed.ts";
import { openSqlite } from "./sqlite.ts";
import type { Dialect } from "./types.ts";

interface Target {
  name: Dialect;
  /** Opens a connection to the same database (a second process, as far as locking goes). */
  open(): PlatformDb;
  cleanup(): Promise<void>;
}

function sqliteTarget(): Target {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-db-"));
  const file = path.join(dir, "test.db");
  return {
    name: "sqlite",
    open: () => openSqlite(file),
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresTarget(url: string): Promise<Target> {
  const schema = `t_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  // NOTE: no catch: with TEST_DATABASE_URL set, an unreachable server fails the suite.
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  return {
    name: "postgres",
    open: () => openPostgres({ connectionString: url, schema, max: 4 }),
    cleanup: async () => {
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

const fixtureMigrations: Migration[] = [
  {
    id: "202601010000_accounts",
    up: (dialect) => {
      const t = ddl(dialect);
      return `CREATE TABLE accounts (
        id ${t.id},
        name TEXT NOT NULL UNIQUE,
        balance_minor ${t.bigint} NOT NULL DEFAULT 0,
        balance_text TEXT NOT NULL DEFAULT '0',
        active ${t.bool} NOT NULL DEFAULT 1,
        avatar ${t.blob},
        created_at ${t.bigint} NOT NULL DEFAULT ${t.nowMs}
      );`;
    },
  },
  {
    id: "202601010100_counters",
    up: () => [
      "CREATE TABLE counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL)",
      "INSERT INTO counters (name, n) VALUES ('hits', 0)",
    ],
  },
];

const targets: (() => Promise<Target>)[] = [async () => sqliteTarget()];
const postgresUrl = process.env.TEST_DATABASE_URL;
if (postgresUrl) targets.push(() => postgresTarget(postgresUrl));

describe.each(targets.map((make, index) => ({ make, label: index === 0 ? "sqlite" : "postgres" })))(
  "database ($label)",
  ({ make }) => {
    let target: Target;
    let db: PlatformDb;

    beforeAll(async () => {
      target = await make();
      db = target.open();
      await migrate(db, fixtureMigrations);
    });
    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it("creates, reads, updates and deletes", async () => {
      const inserted = await db.get<{ id: number }>(
        "INSERT INTO accounts (name, balance_minor) VALUES (?, ?) RETURNING id",
        ["alice", 1500],
      );
      expect(typeof inserted?.id).toBe("number");
      const row = await db.get<{ name: string; balance_minor: number; active: number; created_at: number }>(
        "SELECT name, balance_minor, active, created_at FROM accounts WHERE id = ?",
        [inserted?.id ?? -1],
      );
      expect(row).toMatchObject({ name: "alice", balance_minor: 1500, active: 1 });
      expect(Math.abs((row?.created_at ?? 0) - Date.now())).toBeLessThan(60_000);
      expect(
        (await db.run("UPDATE accounts SET balance_minor = balance_minor + ? WHERE name = ?", [500, "alice"]))
          .changes,
      ).toBe(1);
      expect(
        (await db.get<{ b: number }>("SELECT balance_minor AS b FROM accounts WHERE name = ?", ["alice"]))?.b,
      ).toBe(2000);
      const upsert = await db.run("INSERT INTO accounts (name) VALUES (?) ON CONFLICT (name) DO NOTHING", [
        "alice",
      ]);
      expect(upsert.changes).toBe(0);
      expect((await db.run("DELETE FROM accounts WHERE name = ?", ["alice"])).changes).toBe(1);
      expect(await db.get("SELECT id FROM accounts WHERE name = ?", ["alice"])).toBeUndefined();
      expect(await db.all("SELECT id FROM accounts WHERE name = ?", ["alice"])).toEqual([]);
    });

    it("commits a transaction that resolves", async () => {
      const result = await db.transaction(async (tx) => {
        await tx.run("INSERT INTO accounts (name) VALUES (?)", ["bob"]);
        await tx.run("INSERT INTO accounts (name) VALUES (?)", ["carol"]);
        return "done";
      });
      expect(result).toBe("done");
      const rows = await db.all<{ name: string }>(
        "SELECT name FROM accounts WHERE name IN (?, ?) ORDER BY name",
        ["bob", "carol"],
      );
      expect(rows.map((r) => r.name)).toEqual(["bob", "carol"]);
    });

    it("rolls back a transaction that throws, and rethrows", async () => {
      await expect(
        db.transaction(async (tx) => {
          await tx.run("INSERT INTO accounts (name) VALUES (?)", ["dave"]);
          throw new Error("business rule failed");
        }),
      ).rejects.toThrow("business rule failed");
      expect(await db.get("SELECT id FROM accounts WHERE name = ?", ["dave"])).toBeUndefined();
      // A failing statement inside rolls back too.
      await expect(
        db.transaction(async (tx) => {
          await tx.run("INSERT INTO accounts (name) VALUES (?)", ["erin"]);
          await tx.run("INSERT INTO accounts (name) VALUES (?)", ["erin"]);
        }),
      ).rejects.toThrow();
      expect(await db.get("SELECT id FROM accounts WHERE name = ?", ["erin"])).toBeUndefined();
    });

    it("serialises concurrent read-modify-write transactions (no lost update)", async () => {
      const lock = db.dialect === "postgres" ? " FOR UPDATE" : "";
      const increments = 20;
      await Promise.all(
        Array.from({ length: increments }, () =>
          db.transaction(async (tx) => {
            const row = await tx.get<{ n: number }>(`SELECT n FROM counters WHERE name = ?${lock}`, ["hits"]);
            await new Promise((resolve) => setTimeout(resolve, 1));
            await tx.run("UPDATE counters SET n = ? WHERE name = ?", [(row?.n ?? 0) + 1, "hits"]);
          }),
        ),
      );
      expect((await db.get<{ n: number }>("SELECT n FROM counters WHERE name = ?", ["hits"]))?.n).toBe(
        increments,
      );
    });

    it("never lets a statement outside a transaction see or join its uncommitted work", async () => {
      let inserted = () => {};
      const gate = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      // Registered here, so it runs in this (outside) async context, not the transaction's.
      const outside = gate.then(() => db.get("SELECT id FROM accounts WHERE name = ?", ["frank"]));
      await db
        .transaction(async (tx) => {
          await tx.run("INSERT INTO accounts (name) VALUES (?)", ["frank"]);
          inserted();
          // SQLite: the outside read queues behind this transaction; PostgreSQL: it reads committed data.
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new Error("roll back");
        })
        .catch(() => {});
      expect(await outside).toBeUndefined();
      expect(await db.get("SELECT id FROM accounts WHERE name = ?", ["frank"])).toBeUndefined();
    });

    it("refuses db.* inside a transaction callback and a tx used after it finished", async () => {
      await expect(
        db.transaction(async () => {
          await db.get("SELECT 1 AS one");
        }),
      ).rejects.toBeInstanceOf(TransactionMisuseError);
      let leaked: { get: PlatformDb["get"] } | undefined;
      await db.transaction(async (tx) => {
        leaked = tx;
      });
      await expect(leaked?.get("SELECT 1 AS one")).rejects.toBeInstanceOf(TransactionMisuseError);
    });

    it("leaves ? inside string literals, quoted identifiers and comments alone", async () => {
      const row = await db.get<{ q: string; v: string; w: string; "odd?name": string }>(
        `SELECT 'is it ?' AS q, CAST(? AS TEXT) AS v, -- a comment with ?
         'it''s ?' AS "odd?name", /* another ? */ CAST(? AS TEXT) AS w`,
        ["first", "second"],
      );
      expect(row).toEqual({ q: "is it ?", v: "first", "odd?name": "it's ?", w: "second" });
    });

    it("round-trips money as BIGINT minor units and TEXT decimals without rounding", async () => {
      const big = 9_007_199_254_740_993n; // 2^53 + 1: not representable as a number
      const decimal = "123456789012345678901234.123456789";
      await db.run("INSERT INTO accounts (name, balance_minor, balance_text) VALUES (?, ?, ?)", [
        "whale",
        big,
        decimal,
      ]);
      await db.run("INSERT INTO accounts (name, balance_minor) VALUES (?, ?)", ["minnow", -42n]);
      const whale = await db.get<{ m: bigint | string; t: string }>(
        "SELECT balance_minor AS m, balance_text AS t FROM accounts WHERE name = ?",
        ["whale"],
      );
      expect(String(whale?.m)).toBe("9007199254740993");
      expect(typeof whale?.m).not.toBe("number");
      expect(whale?.t).toBe(decimal);
      const minnow = await db.get<{ m: number }>("SELECT balance_minor AS m FROM accounts WHERE name = ?", [
        "minnow",
      ]);
      expect(minnow?.m).toBe(-42);
      const counted = await db.get<{ c: number }>("SELECT COUNT(*) AS c FROM accounts WHERE name IN (?, ?)", [
        "whale",
        "minnow",
      ]);
      expect(counted?.c).toBe(2);
    });

    it("stores bytes", async () => {
      const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
      await db.run("INSERT INTO accounts (name, avatar) VALUES (?, ?)", ["bytes", bytes]);
      const row = await db.get<{ avatar: Uint8Array }>("SELECT avatar FROM accounts WHERE name = ?", [
        "bytes",
      ]);
      expect([...(row?.avatar ?? [])]).toEqual([...bytes]);
    });

    it("applies migrations once, however often and however concurrently it runs", async () => {
      expect(await migrate(db, fixtureMigrations)).toEqual([]);
      const more: Migration[] = [
        ...fixtureMigrations,
        {
          id: "202601020000_notes",
          up: () => "CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)",
        },
      ];
      const other = target.open();
      try {
        // Two connections racing, as two processes would. node:sqlite is synchronous, so two
        // connections in one process would block each other's event loop: there they take turns.
        const [a, b] =
          target.name === "postgres"
            ? await Promise.all([migrate(db, more), migrate(other, more)])
            : [await migrate(db, more), await migrate(other, more)];
        expect([...a, ...b]).toEqual(["202601020000_notes"]);
      } finally {
        await other.close();
      }
      const recorded = await db.all<{ id: string }>("SELECT id FROM schema_migrations ORDER BY id");
      expect(recorded.map((r) => r.id)).toEqual([
        "202601010000_accounts",
        "202601010100_counters",
        "202601020000_notes",
      ]);
    });

    it("rolls back a failing migration as a whole", async () => {
      const broken: Migration[] = [
        ...fixtureMigrations,
        { id: "202601030000_ok", up: () => "CREATE TABLE fine (id TEXT PRIMARY KEY)" },
        { id: "202601030100_broken", up: () => "CREATE TABLE fine (id TEXT PRIMARY KEY)" },
      ];
      await expect(migrate(db, broken)).rejects.toThrow();
      expect(
        await db.get("SELECT id FROM schema_migrations WHERE id = ?", ["202601030000_ok"]),
      ).toBeUndefined();
    });

    it("applies the project's own migrations cleanly", async () => {
      const fresh = target.name === "sqlite" ? openSqlite(":memory:") : target.open();
      try {
        const migrations = await loadMigrations(MIGRATIONS_DIR);
        if (target.name === "postgres") await fresh.exec("DROP TABLE IF EXISTS schema_migrations");
        const applied = await migrate(fresh, migrations);
        expect(applied).toEqual(migrations.map((m) => m.id));
        expect(await migrate(fresh, migrations)).toEqual([]);
      } finally {
        await fresh.close();
      }
    });

    it("runs each seed once per version", async () => {
      let runs = 0;
      const seed = {
        name: "demo",
        seed: async (seedDb: { run: PlatformDb["run"] }) => {
          runs += 1;
          await seedDb.run("INSERT INTO accounts (name) VALUES (?) ON CONFLICT (name) DO NOTHING", ["demo"]);
        },
      };
      const log = { child: () => log } as unknown as Parameters<typeof runSeeds>[2];
      expect(await runSeeds(db, [seed], log)).toEqual(["demo"]);
      expect(await runSeeds(db, [seed], log)).toEqual([]);
      expect(await runSeeds(db, [{ ...seed, version: 2 }], log)).toEqual(["demo"]);
      expect(runs).toBe(2);
    });
  },
);

describe("loadMigrations", () => {
  it("loads YYYYMMDDHHMM_name.ts files in name order and ignores the rest", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-migrations-"));
    try {
      fs.writeFileSync(path.join(dir, "202601020000_b.ts"), "export function up() { return 'SELECT 2'; }\n");
      fs.writeFileSync(path.join(dir, "202601010000_a.ts"), "export function up() { return 'SELECT 1'; }\n");
      fs.writeFileSync(path.join(dir, "index.ts"), "export const x = 1;\n");
      fs.writeFileSync(path.join(dir, "notes.md"), "not a migration\n");
      const loaded = await loadMigrations(dir);
      expect(loaded.map((m) => m.id)).toEqual(["202601010000_a", "202601020000_b"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
