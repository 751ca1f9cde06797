/**
 * The harness itself: a crashed server restarts on the same data directory, and a
 * graceful stop ends the process cleanly.
 */
import { existsSync, readdirSync } from "node:fs";
import { expect, test } from "vitest";
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
