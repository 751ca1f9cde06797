import type { Depth, MarketTrade, Ticker } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { depthOf, MAX_TRADES, MarketStore, tradesOf } from "./market-store.ts";

const depth = (symbol: string, lastUpdateId: number): Depth => ({
  symbol,
  lastUpdateId,
  bids: [["99", "1"]],
  asks: [["101", "1"]],
  time: 0,
});
const trade = (id: number): MarketTrade => ({
  id,
  price: "100",
  qty: "1",
  quoteQty: "100",
  time: id,
  isBuyerMaker: false,
});
const ticker = (symbol: string, lastPrice: string) => ({ symbol, lastPrice }) as Ticker;

/** A store whose frames the test runs by hand. */
function manualStore(symbol = "BTCUSDT") {
  const frames: Array<() => void> = [];
  const store = new MarketStore(
    symbol,
    {
      symbols: [],
      tickers: [ticker("BTCUSDT", "100"), ticker("ETHUSDT", "10")],
      depth: depth("BTCUSDT", 5),
      trades: [trade(1)],
    },
    (fn) => frames.push(fn),
  );
  const flush = () => {
    for (const fn of frames.splice(0)) fn();
  };
  return { store, frames, flush };
}

describe("MarketStore", () => {
  it("starts from the server snapshot and keeps it for hydration", () => {
    const { store } = manualStore();
    store.setTicker(ticker("BTCUSDT", "101"));
    expect(store.getState().tickers.BTCUSDT?.lastPrice).toBe("101");
    expect(store.getInitialState().tickers.BTCUSDT?.lastPrice).toBe("100");
    expect(depthOf(store.getInitialState(), "BTCUSDT")?.lastUpdateId).toBe(5);
  });

  it("tells its listeners once per frame, however many pushes arrived", () => {
    const { store, frames, flush } = manualStore();
    let calls = 0;
    const off = store.subscribe(() => calls++);
    for (let i = 0; i < 50; i++) store.setTicker(ticker("ETHUSDT", String(10 + i)));
    store.addTrade("BTCUSDT", trade(2));
    expect(frames).toHaveLength(1);
    expect(calls).toBe(0);
    flush();
    expect(calls).toBe(1);
    expect(store.getState().tickers.ETHUSDT?.lastPrice).toBe("59");
    off();
    store.setTicker(ticker("ETHUSDT", "1"));
    flush();
    expect(calls).toBe(1);
  });

  it("keeps a slice's identity when another slice changes", () => {
    const { store } = manualStore();
    const book = depthOf(store.getState(), "BTCUSDT");
    const trades = tradesOf(store.getState(), "BTCUSDT");
    store.setTicker(ticker("ETHUSDT", "11"));
    expect(depthOf(store.getState(), "BTCUSDT")).toBe(book);
    expect(tradesOf(store.getState(), "BTCUSDT")).toBe(trades);
  });

  it("never replaces a newer book of the same symbol with an older one", () => {
    const { store } = manualStore();
    store.setDepth(depth("BTCUSDT", 4));
    expect(depthOf(store.getState(), "BTCUSDT")?.lastUpdateId).toBe(5);
    store.setDepth(depth("BTCUSDT", 7));
    expect(depthOf(store.getState(), "BTCUSDT")?.lastUpdateId).toBe(7);
    store.setDepth(depth("ETHUSDT", 1));
    expect(depthOf(store.getState(), "BTCUSDT")).toBeNull();
    expect(depthOf(store.getState(), "ETHUSDT")?.lastUpdateId).toBe(1);
  });

  it("adds trades once each, newest first, capped, and starts over for another symbol", () => {
    const { store } = manualStore();
    store.addTrade("BTCUSDT", trade(2));
    store.addTrade("BTCUSDT", trade(2));
    expect(tradesOf(store.getState(), "BTCUSDT").map((t) => t.id)).toEqual([2, 1]);
    for (let i = 3; i < MAX_TRADES + 10; i++) store.addTrade("BTCUSDT", trade(i));
    expect(tradesOf(store.getState(), "BTCUSDT")).toHaveLength(MAX_TRADES);
    store.addTrade("ETHUSDT", trade(1000));
    expect(tradesOf(store.getState(), "BTCUSDT")).toEqual([]);
    expect(tradesOf(store.getState(), "ETHUSDT").map((t) => t.id)).toEqual([1000]);
  });
});
