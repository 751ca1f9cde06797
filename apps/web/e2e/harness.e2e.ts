/**
 * The harness itself: a crashed server restarts on the same data directory, a graceful
 * stop ends the process cleanly, and a server started from the suite's seeded template
 * database holds what its own first start would have seeded.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { expect, test } from "vitest";
import { SEED_TEMPLATE_ENV } from "../../../scripts/lib/server-process.ts";
import { startServer } from "./harness.ts";

test("a SIGKILLed server restarts on the same data directory", async () => {
  const first = await startServer();
  const exit = await first.kill("SIGKILL");
  expect(exit.signal).toBe("SIGKILL");
  await expect(fetch(`${first.url}/healthz`)).rejects.toThrow();
  // SQLite lives in DATA_DIR: the crash left it there for the next process.
  expect(readdirSync(first.dataDir).length).toBeGreaterThan(0);

  const second = await startServer({ dataDir: first.dataDir });
  try {
    expect(second.dataDir).toBe(first.dataDir);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
  } finally {
    await second.stop();
  }
});

test("stop() shuts the server down gracefully", async () => {
  const server = await startServer();
  await server.stop();
  expect(existsSync(server.dataDir)).toBe(true);
  const again = await server.kill("SIGTERM");
  expect(again.code).toBe(0);
});

/** Rows per table of a SQLite database file (a stopped server's, or the template). */
function rowCounts(file: string): Record<string, number> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => {
        const row = db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number };
        return [name, Number(row.n)];
      }),
    );
  } finally {
    db.close();
  }
}

test("a server started from the suite's seeded template holds what a first start seeds", async () => {
  // scripts/e2e-global-setup.ts made it; without it every server seeds on its own.
  const template = process.env[SEED_TEMPLATE_ENV] ?? "";
  expect(template).toMatch(/meridian\.db$/);
  const [fromTemplate, seededHere] = await Promise.all([startServer(), startServer({ seedTemplate: false })]);
  await Promise.all([fromTemplate.stop(), seededHere.stop()]);
  // The template held every seed but the demo accounts, whose passwords go to this log.
  expect(fromTemplate.output()).toMatch(/"seeded":\["accounts-demo"\]/);
  expect(fromTemplate.output()).toMatch(/demo trader: +demo@meridian\.example +password: \S+/);
  expect(seededHere.output()).toMatch(/"seeded":\["accounts-demo","content",/);
  // Every table the seeds fill holds as many rows either way. (Tables a running server
  // writes on its own, such as the proof-of-reserves snapshots, differ with how long each ran.)
  const seededTables = Object.entries(rowCounts(template)).filter(([, rows]) => rows > 0);
  expect(seededTables.map(([table]) => table)).toEqual(expect.arrayContaining(["airdrops", "schema_seeds"]));
  const templateRows = rowCounts(path.join(fromTemplate.dataDir, "meridian.db"));
  const ownRows = rowCounts(path.join(seededHere.dataDir, "meridian.db"));
  for (const [table] of seededTables)
    expect({ table, rows: templateRows[table] }).toEqual({ table, rows: ownRows[table] });
});
