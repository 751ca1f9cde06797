import { expect, it } from "vitest";
import { ManualClock, type MarketClock } from "./clock.ts";
import type { MarketConfig } from "./config.ts";
import { createMarket } from "./index.ts";
import type { MarketUpdate } from "./service.ts";

const START = Date.UTC(2026, 0, 15, 12, 0, 40);
const config: MarketConfig = {
  tickMs: 250,
  feed: "model",
  seed: 7,
  paused: true,
  candlesDir: "/nonexistent",
};

/** A manual clock whose `soon` waits until `runSoon`, like setImmediate after I/O. */
class SteppedClock extends ManualClock implements MarketClock {
  readonly queued: Array<() => void> = [];
  override soon(fn: () => void): void {
    this.queued.push(fn);
  }
  runSoon(): void {
    for (let fn = this.queued.shift(); fn !== undefined; fn = this.queued.shift()) fn();
  }
}

it("applies a feed batch one symbol per loop turn, keeping each symbol's trades in order and batches in order", async () => {
  const clock = new SteppedClock(START);
  const market = await createMarket({ clock, config });
  const updates: MarketUpdate[] = [];
  market.onUpdate((u) => updates.push(u));
  market.startFeed();
  clock.advance(250);
  // The tick applied one symbol; the others wait for the loop.
  expect(updates).toHaveLength(1);
  expect(updates[0]?.trades.size).toBe(1);
  clock.advance(250);
  expect(updates).toHaveLength(1);
  clock.runSoon();
  const perSymbol = new Map<string, number[]>();
  for (const u of updates) {
    expect(u.trades.size).toBe(1);
    for (const [symbol, trades] of u.trades)
      perSymbol.set(symbol, [...(perSymbol.get(symbol) ?? []), ...trades.map((t) => t.time)]);
  }
  expect(perSymbol.size).toBe(market.symbols.length);
  for (const times of perSymbol.values()) {
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  }
  // Stopping applies what was printed but not yet applied.
  const before = updates.length;
  clock.advance(250);
  market.stopFeedLoop();
  expect(updates.length - before).toBe(market.symbols.length);
  expect(clock.queued.length).toBeGreaterThan(0);
  clock.runSoon();
  expect(updates.length - before).toBe(market.symbols.length);
});

it("catchUp applies every trade due since the feed's epoch inside startFeed", async () => {
  const clock = new SteppedClock(START);
  const market = await createMarket({ clock, config });
  const updates: MarketUpdate[] = [];
  market.onUpdate((u) => updates.push(u));
  market.startFeed(undefined, { catchUp: true });
  // 40 s past the minute at 250 ms a trade: 161 slots per symbol, all applied already.
  expect(updates).toHaveLength(1);
  const trades = updates[0]?.trades;
  expect(trades?.size).toBe(market.symbols.length);
  for (const list of trades?.values() ?? []) expect(list).toHaveLength(161);
  expect(clock.queued).toHaveLength(0);
});
