import { type AnyPerpContract, listInstruments, type MirrorLevel, requireAnyPerp } from "@meridian/domain";
import { describe, expect, it } from "vitest";
import type { PerpBook, ShownPairBook } from "./book.ts";
import { PairScale, PerpMirror } from "./mirror.ts";
import type { FutOrderRow } from "./repo.ts";

/**
 * The futures side of the live fill model (docs/trading.md, the futures worked example):
 * the pair's book in a perpetual's units, taking per perpetual, and the queue in exact
 * sizes. BTCUSDT's pair: tick 0.01, lot 0.00001; the BTCUSDT perpetual: tick 0.1, lot
 * 0.001; BTCUSD: tick 0.1, contracts of 100 USD.
 */
const listed = listInstruments();
if (!listed.ok) throw new Error("listings invalid");
const spot = listed.value.find((i) => i.spec.symbol === "BTCUSDT")?.spec;
if (spot === undefined) throw new Error("no BTCUSDT pair");
const USDT_M = requireAnyPerp("BTCUSDT");
const COIN_M = requireAnyPerp("BTCUSD");

/** Spot price text to ticks of 0.01, size text to lots of 0.00001. */
const px = (t: string) => Math.round(Number(t) * 100);
const sz = (t: string) => Math.round(Number(t) * 100_000);
const shownOf = (asks: [string, string][], bids: [string, string][]): ShownPairBook => ({
  spec: spot,
  asks: asks.map(([p, q]) => [px(p), sz(q)] as MirrorLevel),
  bids: bids.map(([p, q]) => [px(p), sz(q)] as MirrorLevel),
});

const EXAMPLE = shownOf(
  [
    ["97050.04", "0.0080"],
    ["97050.08", "0.0035"],
    ["97050.30", "0.4000"],
  ],
  [
    ["97049.90", "0.2500"],
    ["97049.85", "0.1000"],
  ],
);

/** A live feed's book for the engine: the pair's book as `shown` says. */
function fakeBook(state: { shown: ShownPairBook | undefined }): PerpBook {
  return {
    levels: () => [],
    top: () => ({ bid: 0, ask: 0 }),
    index: () => 0,
    onPrice: () => () => {},
    mirrored: () => true,
    pairSpec: () => spot,
    shown: () => state.shown,
  };
}

/** When the tests' orders join the queue. */
const QUEUED_AT = 1_000;
let nextId = 1;
function resting(c: AnyPerpContract, side: "BUY" | "SELL", priceTicks: number, lots: number): FutOrderRow {
  return {
    id: nextId++,
    accountId: 1,
    symbol: c.symbol,
    side,
    positionSide: "BOTH",
    type: "LIMIT",
    priceTicks,
    stopTicks: null,
    qtyLots: lots,
    filledLots: 0,
    filledNotional: 0n,
    reduceOnly: false,
    closePosition: false,
    clientOrderId: "x",
    status: "NEW",
    reason: null,
    createdAt: 0,
    updatedAt: 0,
  };
}

/** What the prints (all printed at `time`) give each queued order, in order. */
function printsGive(
  m: PerpMirror,
  c: AnyPerpContract,
  trades: [string, string][],
  time = QUEUED_AT,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  m.prints(
    c,
    trades.map(([p, q]) => [px(p), sz(q)]),
    trades.map(() => time),
    () => true,
    (o, lots) => {
      out.push([o.id, lots]);
      o.filledLots += lots;
      return o.filledLots < o.qtyLots;
    },
  );
  return out;
}

describe("the pair's book in a perpetual's units", () => {
  it("rounds prices to the perpetual's tick, never better than shown, and cuts summed sizes to lots", () => {
    const s = new PairScale(spot, USDT_M);
    expect(s.levels("asks", EXAMPLE.asks)).toEqual([
      [970501, 11],
      [970503, 400],
    ]);
    expect(s.levels("bids", EXAMPLE.bids)).toEqual([
      [970499, 250],
      [970498, 100],
    ]);
    // Coin-M: the dollar value of the levels at one price, in contracts of 100 USD.
    expect(new PairScale(spot, COIN_M).levels("asks", EXAMPLE.asks)[0]).toEqual([970501, 11]);
  });
});

describe("taking from the mirrored book", () => {
  it("walks level by level; what it took is gone until the level shows changed; per perpetual", () => {
    const state = { shown: EXAMPLE as ShownPairBook | undefined };
    const m = new PerpMirror(fakeBook(state));
    const market = m.walk(USDT_M, "BUY", 50, null);
    expect(market.result.fills).toEqual([
      [970501, 11],
      [970503, 39],
    ]);
    for (const [t, l] of market.result.fills) market.took(t, l);
    const limit = m.walk(USDT_M, "BUY", 20, 970501);
    expect([limit.result.fills, limit.result.restingLots]).toEqual([[], 20]);
    // BTCUSD has its own book on an exchange: 10 of its 11 contracts there.
    const coin = m.walk(COIN_M, "BUY", 10, null);
    expect(coin.result.fills).toEqual([[970501, 10]]);
    // Only what filled counts: the coin-M walk recorded nothing, so it finds the level again.
    expect(m.walk(COIN_M, "BUY", 10, null).result.fills).toEqual([[970501, 10]]);
    // The exchange shows 97,050.08 grown to 0.0045: the level (0.0125, 12 lots) is whole again.
    state.shown = shownOf(
      [
        ["97050.04", "0.0080"],
        ["97050.08", "0.0045"],
        ["97050.30", "0.4000"],
      ],
      [],
    );
    m.onBook(USDT_M);
    expect(m.walk(USDT_M, "BUY", 20, 970501).result.fills).toEqual([[970501, 12]]);
    // No book: nothing to take, a market order cancels it all.
    state.shown = undefined;
    expect(m.walk(USDT_M, "BUY", 5, null).result).toMatchObject({ fills: [], cancelledLots: 5 });
  });
});

describe("resting futures orders in the exchange's queue", () => {
  it("fills past the size displayed ahead, through its price, prints smaller than a lot adding up", () => {
    const m = new PerpMirror(fakeBook({ shown: EXAMPLE }));
    const o = resting(USDT_M, "BUY", 970499, 30);
    m.enqueue(USDT_M, o, QUEUED_AT);
    expect(
      printsGive(m, USDT_M, [
        ["97049.90", "0.2000"],
        ["97049.90", "0.0574"],
        ["97049.85", "0.0230"],
      ]),
    ).toEqual([
      [o.id, 7],
      [o.id, 23],
    ]);
    // Trades above a buy's price never fill it.
    const high = resting(USDT_M, "BUY", 970499, 1);
    m.enqueue(USDT_M, high, QUEUED_AT);
    expect(printsGive(m, USDT_M, [["97049.95", "5"]])).toEqual([]);
  });

  it("coin-M: the dollars traded through its price, in contracts, the rest carried", () => {
    const m = new PerpMirror(fakeBook({ shown: EXAMPLE }));
    const o = resting(COIN_M, "BUY", 970499, 5);
    m.enqueue(COIN_M, o, QUEUED_AT);
    // 291.15 USD: 2 contracts; 116.46 more: 407.61 in all, 4 contracts.
    expect(printsGive(m, COIN_M, [["97049.80", "0.0030"]])).toEqual([[o.id, 2]]);
    expect(printsGive(m, COIN_M, [["97049.00", "0.0012"]])).toEqual([[o.id, 2]]);
  });

  it("a sell at a price the pair shows no size at queues behind nothing; a load queues again", () => {
    const m = new PerpMirror(fakeBook({ shown: EXAMPLE }));
    const o = resting(USDT_M, "SELL", 970502, 3);
    m.enqueue(USDT_M, o, QUEUED_AT);
    // Printed before it queued (a feed's recent trades sent again on subscribing): not its own.
    expect(printsGive(m, USDT_M, [["97050.30", "1"]], QUEUED_AT - 1)).toEqual([]);
    expect(printsGive(m, USDT_M, [["97050.20", "0.002"]])).toEqual([[o.id, 2]]);
    expect(m.needsRequeue(USDT_M.symbol)).toBe(true);
    m.markRequeued(USDT_M.symbol);
    expect([m.needsRequeue(USDT_M.symbol), m.hasQueued(USDT_M.symbol)]).toEqual([false, true]);
    m.reset();
    expect([m.needsRequeue(USDT_M.symbol), m.hasQueued(USDT_M.symbol)]).toEqual([true, false]);
  });
});
