import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ManualClock } from "./clock.ts";
import { loadMarketConfig } from "./config.ts";
import { createMarket } from "./index.ts";

const START = Date.UTC(2026, 0, 15, 12, 0, 0);

describe("replay feed (CSV candles)", () => {
  const config = { ...loadMarketConfig({ NODE_ENV: "test" }), feed: "replay" as const };
  const rows = readFileSync(path.join(config.candlesDir, "BTCUSDT-1m.csv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","));

  it("ends history with the file's candles, shifted to end at start, with >= 500 candles per interval", async () => {
    const clock = new ManualClock(START);
    const market = await createMarket({ clock, config });
    expect(market.feedName).toBe("replay");
    const m1 = market.klines("BTCUSDT", "1m", 1000) ?? [];
    const last = m1[m1.length - 1];
    const lastRow = rows[rows.length - 1] ?? [];
    expect(last).toMatchObject({
      openTime: START - 60_000,
      open: lastRow[1],
      high: lastRow[2],
      low: lastRow[3],
      close: lastRow[4],
    });
    for (const interval of ["5m", "1h", "1d"] as const) {
      expect(market.klines("BTCUSDT", interval, 1000)?.length, interval).toBeGreaterThanOrEqual(500);
    }
    // Symbols without a file come from the model.
    expect(market.price("SOLUSDT")).toBe("190.00");
  });

  it("replays the file from its start, continuing from the last close, four trades a candle", async () => {
    const clock = new ManualClock(START);
    const market = await createMarket({ clock, config });
    market.startFeed();
    const lastClose = Number(rows[rows.length - 1]?.[4]);
    const first = rows[0] ?? [];
    clock.advance(60_000);
    const trades = market.trades("BTCUSDT", 10) ?? [];
    expect(trades.length).toBeGreaterThanOrEqual(4);
    const candle = market.klines("BTCUSDT", "1m", 2, START)?.[1];
    const scale = lastClose / Number(first[1]);
    expect(Number(candle?.open)).toBeCloseTo(Number(first[1]) * scale, 1);
    expect(Number(candle?.high)).toBeCloseTo(Number(first[2]) * scale, 1);
    expect(Number(candle?.low)).toBeCloseTo(Number(first[3]) * scale, 1);
    market.stopFeedLoop();
  });
});
