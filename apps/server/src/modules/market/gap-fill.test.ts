import type { Kline } from "@meridian/contracts";
import { type Bar, CandleSeries, tradeBar } from "@meridian/domain";
import { describe, expect, it } from "vitest";
import { fedMarket } from "../../test/fed-market.ts";
import type { FeedStartOptions, FeedTrade, MarketFeed } from "./feed.ts";

const MIN = 60_000;
const START = Date.UTC(2026, 0, 15, 12, 0, 0);

/**
 * An exchange as the market sees a mirroring feed: it prints trades, loses the
 * connection, and answers the minute bars of any stretch from everything it printed.
 */
class Exchange implements MarketFeed {
  readonly name = "ccxt:exchange";
  readonly symbols = ["BTCUSDT"];
  readonly mirrorsBooks = true;
  readonly printed: FeedTrade[] = [];
  asked: Array<[number, number]> = [];
  private sink: ((t: readonly FeedTrade[]) => void) | undefined;
  private options: FeedStartOptions = {};
  history(): readonly Bar[] {
    return [];
  }
  anchor(): void {}
  start(sink: (t: readonly FeedTrade[]) => void, options: FeedStartOptions = {}): () => void {
    this.sink = sink;
    this.options = options;
    return () => undefined;
  }
  /** A trade at `time`; heard by the market only while connected. */
  print(time: number, price: number, heard: boolean): void {
    const t = { symbol: "BTCUSDT", time, price, qty: 1000, buyerMaker: false };
    this.printed.push(t);
    if (heard) this.sink?.([t]);
  }
  lose(): void {
    this.options.down?.("BTCUSDT");
  }
  async gapBars(_symbol: string, from: number, to: number): Promise<readonly Bar[]> {
    this.asked.push([from, to]);
    const s = new CandleSeries(MIN, 1_000);
    for (const t of this.printed) s.apply(tradeBar(t.time, t.price, t.qty, 0n));
    return s.list(1_000).map((c) => ({ ...c, time: c.openTime, span: MIN, quoteVolume: 0n }));
  }
}

describe("a live feed's outage on the chart", () => {
  it("is drawn from the exchange's minute bars once trades are heard again", async () => {
    const exchange = new Exchange();
    const market = await fedMarket(exchange, START);
    // Heard: 12:00-12:01; lost 12:01:30 to 12:05:10 while the exchange traded up to 120,000;
    // heard again from 12:05:10.
    exchange.print(START + 10_000, 10_000_000, true);
    exchange.print(START + 70_000, 10_100_000, true);
    exchange.lose();
    for (let m = 2; m <= 4; m++) {
      exchange.print(START + m * MIN + 5_000, 11_000_000 + m * 200_000, false);
      exchange.print(START + m * MIN + 40_000, 11_000_000 + m * 100_000, false);
    }
    exchange.print(START + 5 * MIN + 10_000, 10_200_000, true);
    await expect.poll(() => exchange.asked.length).toBe(1);
    expect(exchange.asked[0]).toEqual([START + 70_000, START + 5 * MIN + 10_000]);
    await expect
      .poll(
        () => (market.klines("BTCUSDT", "1m", 10) ?? []).find((k) => k.openTime === START + 2 * MIN)?.high,
      )
      .not.toBe("101000.00");
    const closes = (k: Kline[] | undefined) =>
      (k ?? []).map((c) => [c.openTime - START, c.high, c.low, c.close]);
    expect(closes(market.klines("BTCUSDT", "1m", 6))).toEqual([
      [0, "100000.00", "100000.00", "100000.00"],
      [MIN, "101000.00", "101000.00", "101000.00"],
      [2 * MIN, "114000.00", "112000.00", "112000.00"],
      [3 * MIN, "116000.00", "113000.00", "113000.00"],
      [4 * MIN, "118000.00", "114000.00", "114000.00"],
      [5 * MIN, "102000.00", "102000.00", "102000.00"],
    ]);
    // The 5-minute candle holds the gap's extremes beside the trades heard around it.
    const [five] = market.klines("BTCUSDT", "5m", 2) ?? [];
    expect([five?.high, five?.low, five?.close]).toEqual(["118000.00", "100000.00", "114000.00"]);
    market.stopFeedLoop();
  });
});
