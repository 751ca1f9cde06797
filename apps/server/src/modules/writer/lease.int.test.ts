import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/index.ts";
import { loadMigrations, migrate } from "../../platform/db/migrate.ts";
import { MIGRATIONS_DIR } from "../../platform/db/migrations/index.ts";
import { openPostgres } from "../../platform/db/postgres.ts";
import type { Logger } from "../../platform/logger.ts";
import { FencedError } from "./lease.ts";
import { WriterRole } from "./role.ts";
import { pinnedSession } from "./session.ts";

const pgUrl = process.env.TEST_DATABASE_URL;
const quiet = { info() {}, warn() {}, error() {}, fatal() {} } as unknown as Logger;

const waitFor = async (what: () => boolean, ms = 15_000) => {
  const until = Date.now() + ms;
  while (!what()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.skipIf(pgUrl === undefined)("the writer lease on PostgreSQL", () => {
  const schema = `wlease_${process.pid}_${Date.now().toString(36)}`;
  let admin: pg.Client;
  const dbs: PlatformDb[] = [];
  const open = () => {
    const db = openPostgres({ connectionString: pgUrl ?? "", schema, max: 4 });
    dbs.push(db);
    return db;
  };
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await migrate(open(), await loadMigrations(MIGRATIONS_DIR));
  });
  afterAll(async () => {
    for (const db of dbs) await db.close();
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
    await admin.end();
  });

  it("refuses every commit of a writer that was paused past its lease and replaced", async () => {
    const deposed: string[] = [];
    const dbA = open();
    const a = await WriterRole.elect(dbA, quiet, {
      leaseMs: 600,
      pollMs: 50,
      onDeposed: (r) => deposed.push(r),
    });
    const b = await WriterRole.elect(open(), quiet, { leaseMs: 600, pollMs: 50 });
    expect(a.state).toBe("writer");
    expect(b.state).toBe("follower");
    // a commits while it holds the lease.
    await dbA.transaction(async (tx) => {
      await a.fence(tx);
    });
    // a is "paused": it never renews (its loop is not started); b takes over once the lease lapses.
    await b.start();
    await waitFor(() => b.isWriter);
    expect(b.epoch).toBe((a.epoch ?? 0) + 1);
    // a resumes and tries to commit: refused inside the transaction, and it knows it is deposed.
    const attempt = dbA.transaction(async (tx) => {
      await a.fence(tx);
      await tx.run("UPDATE writer_lease SET holder = holder WHERE id = 1");
    });
    await expect(attempt).rejects.toBeInstanceOf(FencedError);
    expect(a.state).toBe("deposed");
    expect(deposed).toHaveLength(1);
    // Even a renewal cannot bring it back: the epoch moved on.
    const [row] = (await admin.query(`SELECT epoch, holder FROM "${schema}".writer_lease`)).rows as {
      epoch: string;
      holder: string;
    }[];
    expect(Number(row?.epoch)).toBe(b.epoch);
    expect(row?.holder).toBe(b.id);
    await b.stop();
  });

  it("makes a takeover wait for a commit in progress", async () => {
    const dbA = open();
    const a = await WriterRole.elect(dbA, quiet, { leaseMs: 200, pollMs: 50 });
    expect(a.state).toBe("writer");
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let committed = false;
    let fenced = false;
    const commit = dbA.transaction(async (tx) => {
      await a.fence(tx);
      fenced = true;
      await held;
    });
    void commit.then(() => {
      committed = true;
    });
    // The lease lapses while the commit holds the row (the session would be ended after 1 s).
    await waitFor(() => fenced);
    await new Promise((r) => setTimeout(r, 300));
    // b's attempt to take the lapsed lease waits on the row a's commit holds.
    let electedAt = 0;
    const electing = WriterRole.elect(open(), quiet, { leaseMs: 200, pollMs: 50 }).then((r) => {
      electedAt = Date.now();
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(electedAt).toBe(0);
    const releasedAt = Date.now();
    release();
    await commit;
    expect(committed).toBe(true);
    const b = await electing;
    expect(b.state).toBe("writer");
    expect(electedAt).toBeGreaterThanOrEqual(releasedAt);
    // a's next commit is refused.
    await expect(dbA.transaction((tx) => a.fence(tx))).rejects.toBeInstanceOf(FencedError);
    await b.stop();
  });

  it("takes over at once when the holder's lease session is gone, before the lease lapses", async () => {
    const url = new URL(pgUrl ?? "");
    url.searchParams.set("options", `-c search_path=${schema}`);
    const sessionA = pinnedSession(url.toString());
    const sessionB = pinnedSession(url.toString());
    const a = await WriterRole.elect(sessionA, quiet, { leaseMs: 60_000, pollMs: 50, pinned: true });
    const b = await WriterRole.elect(sessionB, quiet, { leaseMs: 60_000, pollMs: 50, pinned: true });
    expect(a.state).toBe("writer");
    expect(b.state).toBe("follower");
    await b.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(b.isWriter).toBe(false);
    // a's process dies: its connection closes (here: the session ends).
    const diedAt = Date.now();
    await sessionA.close();
    await waitFor(() => b.isWriter, 10_000);
    expect(Date.now() - diedAt).toBeLessThan(10_000);
    await b.stop();
    await sessionB.close();
  });

  it("is always the writer on one process, with nothing to fence", async () => {
    const single = WriterRole.single(quiet);
    expect(single.isWriter).toBe(true);
    expect(single.clustered).toBe(false);
    await single.fence({} as never);
  });
});
