import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { openDb } from "./index.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "durability-int-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Records every fdatasync any FileHandle makes: when it began and when it ended. */
async function watchDatasync(): Promise<{ calls: { began: number; ended: number }[]; tick: () => number }> {
  const probe = await fsp.open(path.join(dir, "probe"), "w");
  const proto = Object.getPrototypeOf(probe) as { datasync(): Promise<void> };
  await probe.close();
  const original = proto.datasync;
  const calls: { began: number; ended: number }[] = [];
  let tick = 0;
  vi.spyOn(proto, "datasync").mockImplementation(async function (this: unknown) {
    const call = { began: ++tick, ended: 0 };
    calls.push(call);
    await original.call(this);
    call.ended = ++tick;
  });
  return { calls, tick: () => ++tick };
}

describe("main SQLite database durability", () => {
  it("uses synchronous FULL or NORMAL as told", async () => {
    const full = openDb({
      databaseUrl: undefined,
      dataDir: path.join(dir, "full"),
      sqliteSynchronous: "full",
    });
    const normal = openDb({
      databaseUrl: undefined,
      dataDir: path.join(dir, "normal"),
      sqliteSynchronous: "normal",
    });
    try {
      // SQLite reports 2 for FULL, 1 for NORMAL.
      expect(await full.get<{ synchronous: number }>("PRAGMA synchronous")).toEqual({ synchronous: 2 });
      expect(await normal.get<{ synchronous: number }>("PRAGMA synchronous")).toEqual({ synchronous: 1 });
      expect(await full.get<{ journal_mode: string }>("PRAGMA journal_mode")).toEqual({
        journal_mode: "wal",
      });
    } finally {
      await full.close();
      await normal.close();
    }
  });

  it("by default acknowledges a commit only after a WAL sync that began after it, shared by concurrent commits", async () => {
    const db = openDb({ databaseUrl: undefined, dataDir: path.join(dir, "group") });
    try {
      await db.run("CREATE TABLE orders (id INTEGER PRIMARY KEY, qty TEXT NOT NULL)");
      const { calls: syncs, tick: mark } = await watchDatasync();
      const commits = Array.from({ length: 20 }, async (_, i) => {
        const started = mark();
        if (i % 2 === 0) {
          await db.transaction(async (tx) => {
            await tx.run("INSERT INTO orders (id, qty) VALUES (?, ?)", [i, "0.0001"]);
          });
        } else {
          await db.run("INSERT INTO orders (id, qty) VALUES (?, ?)", [i, "0.0001"]);
        }
        return { started, acknowledged: mark() };
      });
      const done = await Promise.all(commits);
      for (const c of done) {
        // Some sync began after this commit was asked for and ended before it was answered.
        expect(syncs.some((s) => s.began > c.started && s.ended > 0 && s.ended < c.acknowledged)).toBe(true);
      }
      // Group commit: far fewer syncs than commits.
      expect(syncs.length).toBeGreaterThanOrEqual(1);
      expect(syncs.length).toBeLessThanOrEqual(4);
      expect(await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM orders")).toEqual({ n: 20 });
      // Reads never wait for a sync.
      const before = syncs.length;
      await db.get("SELECT 1 AS one");
      expect(syncs.length).toBe(before);
    } finally {
      await db.close();
    }
  });
});
