import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const main = path.join(path.dirname(fileURLToPath(import.meta.url)), "main.ts");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "meridian-main-"));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts the server as `npm start` does, with one variable set wrong. */
function start(env: Record<string, string>) {
  return spawnSync(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dataDir, PORT: "0", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("a bad setting stops the start", () => {
  it("with one line naming a module's variable and the values it accepts", () => {
    const result = start({ MARKET_FEED: "live" });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      "Invalid environment: MARKET_FEED must be one of model, replay, auto or ccxt:<exchange id>\n",
    );
    // It stopped before opening anything: no migrations, no listening.
    expect(result.stdout).toBe("");
  });

  it("with one line for the platform's own variables", () => {
    const result = start({ SQLITE_SYNCHRONOUS: "off" });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      "Invalid environment: SQLITE_SYNCHRONOUS must be one of group, full, normal\n",
    );
  });
});
