import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { setImmediate as turn } from "node:timers/promises";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openSqlite } from "./sqlite.ts";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-wal-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const row = (i: number) => [i, "x".repeat(3000)];

it("checkpoints on its own thread: the connection's autocheckpoint is off, the WAL starts over, every row stays", async () => {
  const file = path.join(dir, "t.db");
  const db = openSqlite(file, { checkpoint: { every: 5, resetFrames: 40 } });
  await db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const stats = db.checkpoints;
  if (stats === null) throw new Error("a file database has a checkpointer");
  let n = 0;
  const insert = async () => {
    n++;
    await db.transaction(async (tx) => {
      await tx.run("INSERT INTO t (id, body) VALUES (?, ?)", row(n));
    });
    // Let the thread's replies in, as a server's event loop would between requests.
    await turn();
    if (n % 20 === 0) await new Promise((r) => setTimeout(r, 2));
  };
  // The thread starts on the first pass; write until it has caught up once.
  while (stats.resets === 0 && n < 20_000) await insert();
  expect(stats.resets).toBeGreaterThan(0);
  expect(stats.fallback).toBe(false);
  expect(
    (await db.get<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint"))?.wal_autocheckpoint,
  ).toBe(0);
  const walSize = () => fs.statSync(`${file}-wal`).size;
  const before = walSize();
  const resets = stats.resets;
  // 400 more rows (~1,000 WAL frames, 4 MB) fit in the file the WAL already had: it keeps starting over.
  for (let i = 0; i < 400; i++) await insert();
  expect(stats.resets).toBeGreaterThan(resets);
  expect(walSize()).toBeLessThan(before + 400 * 4096);
  expect((await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM t"))?.n).toBe(n);
  await db.close();

  const again = new DatabaseSync(file);
  expect(again.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n });
  again.close();
});

it("when the thread fails, the connection checkpoints itself again and nothing is lost", async () => {
  const file = path.join(dir, "fallback.db");
  const workerUrl = new URL("data:text/javascript,throw new Error('no checkpoints here')");
  const db = openSqlite(file, { checkpoint: { every: 5, workerUrl } });
  await db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const stats = db.checkpoints;
  if (stats === null) throw new Error("a file database has a checkpointer");
  let n = 0;
  while (!stats.fallback && n < 5_000) {
    n++;
    await db.run("INSERT INTO t (id, body) VALUES (?, ?)", row(n));
    await turn();
    if (n % 20 === 0) await new Promise((r) => setTimeout(r, 2));
  }
  expect(stats.fallback).toBe(true);
  expect(
    (await db.get<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint"))?.wal_autocheckpoint,
  ).toBe(1000);
  await db.run("INSERT INTO t (id, body) VALUES (?, ?)", row(n + 1));
  expect((await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM t"))?.n).toBe(n + 1);
  await db.close();
});

it("a database that commits little never starts the thread, and no COMMIT checkpoints meanwhile", async () => {
  const db = openSqlite(path.join(dir, "small.db"), { checkpoint: { every: 100, idleMs: 60_000 } });
  await db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY)");
  for (let i = 1; i <= 10; i++) await db.run("INSERT INTO t (id) VALUES (?)", [i]);
  expect(db.checkpoints?.passes).toBe(0);
  expect(
    (await db.get<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint"))?.wal_autocheckpoint,
  ).toBe(0);
  await db.close();
});

it("once the writes pause, the thread copies the WAL and starts it over itself", async () => {
  const file = path.join(dir, "pause.db");
  const db = openSqlite(file, { checkpoint: { every: 1000, quietAfter: 20, quietMs: 10, idleMs: 60_000 } });
  await db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const stats = db.checkpoints;
  if (stats === null) throw new Error("a file database has a checkpointer");
  const burst = async (from: number) => {
    for (let i = from; i < from + 30; i++) {
      await db.transaction(async (tx) => {
        await tx.run("INSERT INTO t (id, body) VALUES (?, ?)", row(i));
      });
    }
  };
  await burst(1);
  // Back to back, the writes never paused: no pass yet (fewer than `every` commits).
  expect(stats.passes).toBe(0);
  await expect.poll(() => stats.resets, { timeout: 5000 }).toBe(1);
  const walAfterFirst = fs.statSync(`${file}-wal`).size;
  await burst(31);
  // The WAL started over: the second burst wrote over the first one's frames (appended,
  // the file would have doubled).
  expect(fs.statSync(`${file}-wal`).size).toBeLessThan(walAfterFirst * 1.5);
  await expect.poll(() => stats.resets, { timeout: 5000 }).toBe(2);
  expect((await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM t"))?.n).toBe(60);
  await db.close();
  const again = new DatabaseSync(file);
  expect(again.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 60 });
  again.close();
});

it("an in-memory database has no checkpointer", async () => {
  const db = openSqlite(":memory:");
  expect(db.checkpoints).toBeNull();
  await db.close();
});
