/**
 * Live prices in a real browser (issue 28): the production server mirrors a second
 * Meridian process, the upstream exchange, through ccxt's bitget class
 * (`MARKET_FEED=ccxt:bitget`, `MARKET_FEED_URL`). The trading page says where its prices
 * come from beside the price, says the market data is unavailable while the upstream is
 * gone, and goes live again after it returns.
 */

import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type Browser,
  freePort,
  launchBrowser,
  newPage,
  type RunningServer,
  repoRoot,
  startServer,
} from "./harness.ts";

const UPSTREAM_ENTRY = path.join(repoRoot, "apps/server/src/test/upstream-exchange.ts");

async function startUpstream(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [UPSTREAM_ENTRY], {
    env: { ...process.env, MARKET_FEED: "model", PORT: String(port), LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("upstream ")) resolve();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`upstream exited ${code}: ${out}`)));
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await gone;
}

let port: number;
let upstream: ChildProcess;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  port = await freePort();
  upstream = await startUpstream(port);
  [server, browser] = await Promise.all([
    startServer({
      env: {
        MARKET_FEED: "ccxt:bitget",
        MARKET_FEED_URL: `http://127.0.0.1:${port}`,
        MARKET_SYMBOLS: "BTCUSDT,ETHUSDT",
      },
    }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (upstream !== undefined) await kill(upstream);
});

/** Logged-out pages log the spec's "get user info error"; the shell's nonce trips a hydration warning. */
const allowErrors = ["get user info error", "hydrated but some attributes"];

describe("live prices", () => {
  test("the page names the exchange, says when its data is gone and goes live again", async () => {
    const page = await newPage(browser, { allowErrors });
    await page.goto(`${server.url}/spot/BTCUSDT`);
    const badge = page.getByTestId("feed-status");
    await expect.poll(() => badge.textContent()).toBe("Live prices from bitget");
    expect(await page.getByTestId("book-ask").count()).toBeGreaterThan(5);

    await kill(upstream);
    await expect.poll(() => badge.textContent()).toBe("Market data unavailable for BTCUSDT");
    expect(await badge.getAttribute("data-state")).not.toBe("live");

    upstream = await startUpstream(port);
    await expect.poll(() => badge.textContent(), { timeout: 40_000 }).toBe("Live prices from bitget");
  });
});
