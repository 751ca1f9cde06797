import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineInstrument, type InstrumentSpec } from "../instrument.ts";
import { EventLog } from "../matching/event-log.ts";
import { OrderBook } from "../matching/order-book.ts";
import { Side, Stp, Tif } from "../matching/types.ts";
import { asAsset, asLots, asSymbol, asTicks } from "../units.ts";
import { buildLadder, diffLadder } from "./liquidity-maker.ts";

function btc(): InstrumentSpec {
  const r = defineInstrument({
    symbol: asSymbol("BTCUSDT"),
    base: asAsset("BTC"),
    quote: asAsset("USDT"),
    tickSize: "0.01",
    lotSize: "0.00001",
    minNotional: "5",
  });
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
}

describe("liquidity maker", () => {
  const spec = btc();
  const base = { spec, refPrice: asTicks(6_500_000), seed: 11, volatility: 0.01 };

  it("quotes a ladder around the reference: a few ticks of spread, depth on both sides", () => {
    const ladder = buildLadder(base);
    const bids = ladder.filter((q) => q.side === 0);
    const asks = ladder.filter((q) => q.side === 1);
    expect(bids).toHaveLength(20);
    expect(asks).toHaveLength(20);
    const bestBid = bids[0]?.price ?? 0;
    const bestAsk = asks[0]?.price ?? 0;
    expect(bestAsk - bestBid).toBeGreaterThanOrEqual(2);
    expect(bestAsk - bestBid).toBeLessThanOrEqual(6);
    for (let i = 1; i < bids.length; i++) expect(bids[i]?.price ?? 0).toBeLessThan(bids[i - 1]?.price ?? 0);
    for (let i = 1; i < asks.length; i++)
      expect(asks[i]?.price ?? 0).toBeGreaterThan(asks[i - 1]?.price ?? 0);
    for (const q of ladder) expect(q.price * q.qty).toBeGreaterThanOrEqual(spec.minNotionalUnits);
  });

  it("sizes decay away from the touch", () => {
    const bids = buildLadder({ ...base, touchQty: asLots(100_000) }).filter((q) => q.side === 0);
    const near = bids.slice(0, 5).reduce((n, q) => n + q.qty, 0);
    const far = bids.slice(-5).reduce((n, q) => n + q.qty, 0);
    expect(near).toBeGreaterThan(far);
  });

  it("is a pure function of its inputs", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 10_000_000 }), fc.nat(), (ref, seed) => {
        const p = { ...base, refPrice: asTicks(ref), seed };
        expect(buildLadder(p)).toEqual(buildLadder(p));
      }),
      { numRuns: 50 },
    );
  });

  it("a small move of the reference keeps most quotes (and their queue priority)", () => {
    const before = buildLadder(base);
    const after = buildLadder({ ...base, refPrice: asTicks(base.refPrice + 7) });
    const diff = diffLadder(before, after);
    expect(diff.place.length).toBeLessThan(before.length / 4);
    expect(diff.cancel.length).toBe(diff.place.length);
    const same = diffLadder(before, before);
    expect(same).toEqual({ cancel: [], place: [] });
  });

  it("gives a paper market order depth and slippage", () => {
    const log = new EventLog();
    const book = new OrderBook(spec, log);
    let id = 1;
    for (const q of buildLadder(base))
      book.limit(id++, 1, q.side, q.price, q.qty, Tif.GTC, Stp.ExpireMaker, 0);
    const asksBefore = book.depth(Side.Sell, 3);
    book.market(
      id++,
      2,
      Side.Buy,
      asLots((asksBefore[0]?.[1] ?? 0) + (asksBefore[1]?.[1] ?? 0) + 1),
      Stp.ExpireMaker,
      1,
    );
    const prices = new Set(log.events.flatMap((e) => (e.type === "trade" ? [e.price] : [])));
    expect(prices.size).toBe(3);
  });
});
