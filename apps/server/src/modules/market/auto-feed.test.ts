import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../platform/config.ts";
import { ManualClock } from "./clock.ts";
import { loadMarketConfig } from "./config.ts";
import { AUTO_TIMEOUT_MS, createMarket } from "./index.ts";

/** A TCP server that accepts connections and never answers: an exchange that hangs. */
let silent: net.Server;
let silentUrl: string;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  silent = net.createServer((s) => sockets.add(s));
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  const a = silent.address();
  silentUrl = `http://127.0.0.1:${typeof a === "object" && a !== null ? a.port : 0}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
});

async function closedPortUrl(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const a = probe.address();
  await new Promise((r) => probe.close(r));
  return `http://127.0.0.1:${typeof a === "object" && a !== null ? a.port : 0}`;
}

const logged: string[] = [];
const log = {
  info: (_o: object, msg: string) => logged.push(msg),
  warn: (_o: object, msg: string) => logged.push(msg),
};
const clock = () => new ManualClock(Date.UTC(2026, 11, 5));

describe("MARKET_FEED=auto", () => {
  it("runs the model when the exchange refuses the connection", async () => {
    const config = loadMarketConfig({ NODE_ENV: "production", MARKET_FEED_URL: await closedPortUrl() });
    expect(config.feed).toBe("auto");
    logged.length = 0;
    const market = await createMarket({ config, clock: clock(), log });
    expect(market.feedName).toBe("model");
    expect(market.status().live).toBe(false);
    expect(logged).toContain("market: Simulated market");
  });

  it("gives up on an exchange that does not answer within 3 s", async () => {
    const config = loadMarketConfig({ NODE_ENV: "production", MARKET_FEED_URL: silentUrl });
    const started = Date.now();
    const market = await createMarket({ config, clock: clock(), log });
    const waited = Date.now() - started;
    expect(market.feedName).toBe("model");
    expect(waited).toBeGreaterThanOrEqual(AUTO_TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(AUTO_TIMEOUT_MS + 5_000);
  }, 15_000);

  it("is not the default outside production", () => {
    expect(loadMarketConfig({ NODE_ENV: "test" }).feed).toBe("model");
  });
});

describe("MARKET_FEED=ccxt:<id>", () => {
  it("refuses an unknown exchange, naming the valid ones", async () => {
    const config = loadMarketConfig({ NODE_ENV: "test", MARKET_FEED: "ccxt:nosuchexchange" });
    const err = await createMarket({ config, clock: clock(), log }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(String((err as Error).message)).toMatch(
      /^MARKET_FEED: unknown exchange nosuchexchange; valid: .*binance.*bitget.*bybit.*okx/,
    );
  });

  it("refuses a malformed feed name", () => {
    expect(() => loadMarketConfig({ MARKET_FEED: "live" })).toThrow(ConfigError);
  });
});
