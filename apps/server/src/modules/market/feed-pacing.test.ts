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

it("applies a feed batch one symbol per loop turn, in order, and tells the listeners once per batch", async () => {
  const clock = new SteppedClock(START);
  const market = await createMarket({ clock, config });
  const updates: MarketUpdate[] = [];
  market.onUpdate((u) => updates.push(u));
  market.startFeed();
  const btcBefore = market.lastTicks("BTCUSDT");
  clock.advance(250);
  // The tick applied the first symbol only; the others and the update wait for the loop.
  expect(updates).toHaveLength(0);
  expect(clock.queued).toHaveLength(1);
  clock.advance(250);
  expect(updates).toHaveLength(0);
  clock.runSoon();
  // Two batches, two updates, each with every symbol, in time order.
  expect(updates).toHaveLength(2);
  const times = new Map<string, number[]>();
  for (const u of updates) {
    expect(u.trades.size).toBe(market.symbols.length);
    for (const [symbol, trades] of u.trades)
      times.set(symbol, [...(times.get(symbol) ?? []), ...trades.map((t) => t.time)]);
  }
  for (const list of times.values()) {
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect([...list].sort((a, b) => a - b)).toEqual(list);
  }
  expect(market.lastTicks("BTCUSDT")).not.toBe(0);
  expect(btcBefore).toBeGreaterThan(0);
  // Stopping applies what was printed but not yet applied, and tells the listeners.
  clock.advance(250);
  market.stopFeedLoop();
  expect(updates).toHaveLength(3);
  expect(updates[2]?.trades.size).toBe(market.symbols.length);
  clock.runSoon();
  expect(updates).toHaveLength(3);
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
