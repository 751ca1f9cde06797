import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type MirrorLevel, QueuedOrder, shownAt, TakenLiquidity, walkMirror } from "./mirror-fills.ts";
import { Side, Tif } from "./types.ts";

// The worked example of docs/trading.md: asks 100 x 3, 101 x 5, 102 x 10 (ticks x lots).
const asks: MirrorLevel[] = [
  [100, 3],
  [101, 5],
  [102, 10],
];
const bids: MirrorLevel[] = [
  [99, 4],
  [98, 6],
];

describe("walkMirror", () => {
  it("walks the levels, resting a GTC limit's rest at its price", () => {
    const taken = new TakenLiquidity();
    const r = walkMirror({ side: Side.Buy, lots: 10, limit: 101, tif: Tif.GTC }, asks, taken);
    expect(r.fills).toEqual([
      [100, 3],
      [101, 5],
    ]);
    expect([r.filledLots, r.restingLots, r.cancelledLots, r.rejected]).toEqual([8, 2, 0, false]);
  });

  it("does not give the same displayed liquidity to the next paper order until the level refreshes", () => {
    const taken = new TakenLiquidity();
    walkMirror({ side: Side.Buy, lots: 4, limit: null, tif: Tif.IOC }, asks, taken);
    const second = walkMirror({ side: Side.Buy, lots: 4, limit: null, tif: Tif.IOC }, asks, taken);
    expect(second.fills).toEqual([[101, 4]]);
    // The exchange's next book shows 100 unchanged and 101 refreshed to 7 lots.
    const next: MirrorLevel[] = [
      [100, 3],
      [101, 7],
      [102, 10],
    ];
    taken.onBook(bids, next);
    const third = walkMirror({ side: Side.Buy, lots: 8, limit: null, tif: Tif.IOC }, next, taken);
    expect(third.fills).toEqual([
      [101, 7],
      [102, 1],
    ]);
  });

  it("cancels what a market or IOC order cannot take, refuses an unfillable FOK and a crossing post-only", () => {
    const taken = new TakenLiquidity();
    const ioc = walkMirror({ side: Side.Buy, lots: 30, limit: 101, tif: Tif.IOC }, asks, taken);
    expect([ioc.filledLots, ioc.restingLots, ioc.cancelledLots]).toEqual([8, 0, 22]);
    const fresh = new TakenLiquidity();
    const fok = walkMirror({ side: Side.Sell, lots: 11, limit: 98, tif: Tif.FOK }, bids, fresh);
    expect([fok.rejected, fok.filledLots, fresh.size]).toEqual([true, 0, 0]);
    const fokOk = walkMirror({ side: Side.Sell, lots: 10, limit: 98, tif: Tif.FOK }, bids, fresh);
    expect(fokOk.fills).toEqual([
      [99, 4],
      [98, 6],
    ]);
    const gtx = walkMirror({ side: Side.Buy, lots: 1, limit: 100, tif: Tif.GTX }, asks, new TakenLiquidity());
    expect(gtx.rejected).toBe(true);
    const rests = walkMirror(
      { side: Side.Buy, lots: 1, limit: 99, tif: Tif.GTX },
      asks,
      new TakenLiquidity(),
    );
    expect([rests.rejected, rests.restingLots]).toEqual([false, 1]);
  });

  it("fills a FOK from what earlier orders left, not from what the exchange still displays", () => {
    const taken = new TakenLiquidity();
    // A GTC buy takes 100 x 3 and 2 of the 5 at 101; the exchange still shows both unchanged.
    walkMirror({ side: Side.Buy, lots: 5, limit: 101, tif: Tif.GTC }, asks, taken);
    // Displayed within 101: 8 lots; left: 3. A FOK for 4 takes nothing and records nothing.
    const short = walkMirror({ side: Side.Buy, lots: 4, limit: 101, tif: Tif.FOK }, asks, taken);
    expect([short.rejected, short.filledLots, short.cancelledLots, taken.available("asks", 101, 5)]).toEqual([
      true,
      0,
      4,
      3,
    ]);
    const whole = walkMirror({ side: Side.Buy, lots: 3, limit: 101, tif: Tif.FOK }, asks, taken);
    expect([whole.rejected, whole.fills]).toEqual([false, [[101, 3]]]);
    // Nothing left within 101: an IOC takes nothing and rests nothing.
    const ioc = walkMirror({ side: Side.Buy, lots: 1, limit: 101, tif: Tif.IOC }, asks, taken);
    expect([ioc.filledLots, ioc.restingLots, ioc.cancelledLots]).toEqual([0, 0, 1]);
  });

  it("never takes more than displayed, whatever the sequence of orders and books", () => {
    const level = fc.tuple(fc.integer({ min: 100, max: 110 }), fc.integer({ min: 1, max: 20 }));
    const book = fc
      .uniqueArray(level, { selector: (l) => l[0], maxLength: 6 })
      .map((ls) => ls.sort((a, b) => a[0] - b[0]) as MirrorLevel[]);
    const step = fc.record({ book: fc.option(book), lots: fc.integer({ min: 1, max: 30 }) });
    fc.assert(
      fc.property(book, fc.array(step, { maxLength: 20 }), (first, steps) => {
        const taken = new TakenLiquidity();
        let shown = first;
        const took = new Map<number, number>();
        for (const s of steps) {
          if (s.book !== null) {
            taken.onBook([], s.book);
            for (const [p] of took) if (shownAt(s.book, p) !== shownAt(shown, p)) took.delete(p);
            shown = s.book;
          }
          const r = walkMirror({ side: Side.Buy, lots: s.lots, limit: null, tif: Tif.IOC }, shown, taken);
          for (const [p, q] of r.fills) took.set(p, (took.get(p) ?? 0) + q);
          for (const [p, q] of took) expect(q).toBeLessThanOrEqual(shownAt(shown, p));
          expect(r.filledLots + r.cancelledLots).toBe(s.lots);
        }
      }),
    );
  });
});

describe("QueuedOrder", () => {
  it("fills at its price only past the size displayed ahead of it, following the traded volume", () => {
    const order = new QueuedOrder(Side.Buy, 99, 5, shownAt(bids, 99));
    expect(order.onTrade(99, 3)).toBe(0);
    expect(order.lotsAhead).toBe(1);
    expect(order.onTrade(100, 10)).toBe(0);
    expect(order.onTrade(99, 3)).toBe(2);
    expect(order.onTrade(98, 2)).toBe(2);
    expect(order.onTrade(98, 9)).toBe(1);
    expect(order.lotsLeft).toBe(0);
    expect(order.onTrade(97, 1)).toBe(0);
  });

  it("a sell fills on trades above its price", () => {
    const order = new QueuedOrder(Side.Sell, 101, 2, 5);
    expect(order.onTrade(100, 9)).toBe(0);
    expect(order.onTrade(102, 1)).toBe(1);
    expect(order.onTrade(101, 5)).toBe(0);
    expect(order.onTrade(101, 1)).toBe(1);
  });
});
