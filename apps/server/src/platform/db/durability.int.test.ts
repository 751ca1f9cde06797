import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "./index.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "durability-int-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("main SQLite database durability", () => {
  it("commits with synchronous FULL unless told NORMAL", async () => {
    const full = openDb({ databaseUrl: undefined, dataDir: path.join(dir, "full") });
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
});
