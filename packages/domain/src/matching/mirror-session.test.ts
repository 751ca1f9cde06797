import { describe, expect, it } from "vitest";
import recorded from "../../test/fixtures/mirror-session-btcusdt.json" with { type: "json" };
import { type MirrorLevel, QueuedOrder, shownAt } from "./mirror-fills.ts";
import { Side } from "./types.ts";

/**
 * The queue model over a recorded session: the books and trades of a Meridian upstream
 * (the seeded model) mirrored through ccxt, in ticks and lots, as the live feed heard
 * them (`apps/server/src/test/record-mirror-session.ts`). Orders rest at the touch of
 * every tenth book and live through the rest of the session.
 */
interface Book {
  readonly bids: readonly MirrorLevel[];
  readonly asks: readonly MirrorLevel[];
}
type Event = { readonly book: Book } | { readonly trade: MirrorLevel };

const level = (l: readonly number[]): MirrorLevel => {
  const [price, lots] = l;
  if (price === undefined || lots === undefined) throw new Error(`not a level: ${JSON.stringify(l)}`);
  return [price, lots];
};
const events: readonly Event[] = recorded.events.map((e) =>
  e.trade !== undefined
    ? { trade: level(e.trade) }
    : { book: { bids: (e.book?.bids ?? []).map(level), asks: (e.book?.asks ?? []).map(level) } },
);
/** One BTC (the upstream's lot is 0.00001): big enough to fill in part, small enough to fill whole. */
const LOTS = 100_000;

interface Placed {
  readonly at: number;
  readonly order: QueuedOrder;
  readonly ahead: number;
  readonly fills: number[];
  /** The book crossed its price (an ask at or below a buy, a bid at or above a sell) before it filled whole. */
  crossedBeforeFilled: boolean;
}

function replay(): Placed[] {
  const placed: Placed[] = [];
  let books = 0;
  events.forEach((e, at) => {
    if ("book" in e) {
      for (const p of placed) {
        if (p.order.lotsLeft === 0) continue;
        const crossed =
          p.order.side === Side.Buy
            ? (e.book.asks[0]?.[0] ?? Infinity) <= p.order.price
            : (e.book.bids[0]?.[0] ?? 0) >= p.order.price;
        if (crossed) p.crossedBeforeFilled = true;
      }
      if (books++ % 10 !== 0) return;
      for (const [side, levels] of [
        [Side.Buy, e.book.bids],
        [Side.Sell, e.book.asks],
      ] as const) {
        const touch = levels[0];
        if (touch === undefined) continue;
        const ahead = shownAt(levels, touch[0]);
        placed.push({
          at,
          order: new QueuedOrder(side, touch[0], LOTS, ahead),
          ahead,
          fills: [],
          crossedBeforeFilled: false,
        });
      }
    } else {
      const [price, lots] = e.trade;
      for (const p of placed) {
        const filled = p.order.onTrade(price, lots);
        if (filled > 0) p.fills.push(filled);
      }
    }
  });
  return placed;
}

/** What a resting order gets from the trades after it: every lot through, at its price past the queue. */
function expected(p: Placed): number {
  let through = 0;
  let atPrice = 0;
  for (const e of events.slice(p.at + 1)) {
    if (!("trade" in e)) continue;
    const [price, lots] = e.trade;
    const past = p.order.side === Side.Buy ? price < p.order.price : price > p.order.price;
    if (past) through += lots;
    else if (price === p.order.price) atPrice += lots;
  }
  return Math.min(LOTS, through + Math.max(0, atPrice - p.ahead));
}

describe("the queue model over a recorded mirrored session", () => {
  const placed = replay();

  it("is a session with books and trades", () => {
    expect(events.filter((e) => "book" in e).length).toBeGreaterThan(100);
    expect(events.filter((e) => "trade" in e).length).toBeGreaterThan(100);
    expect(placed.length).toBeGreaterThan(20);
  });

  it("fills each resting order with the volume traded through its price and past its queue", () => {
    for (const p of placed) {
      const got = p.fills.reduce((a, b) => a + b, 0);
      expect(got).toBe(expected(p));
      expect(got).toBe(LOTS - p.order.lotsLeft);
    }
  });

  it("fills some orders in part, some whole, and holds some at the touch behind their queue", () => {
    const filled = placed.map((p) => LOTS - p.order.lotsLeft);
    expect(filled.some((f) => f === LOTS)).toBe(true);
    expect(filled.some((f) => f > 0 && f < LOTS)).toBe(true);
    expect(placed.some((p) => p.ahead > 0 && p.order.lotsAhead > 0)).toBe(true);
  });

  it("does not fill on a book that crossed the order without trades to match", () => {
    // A fill on the crossing book would fill these whole; the printed trades did not.
    const crossed = placed.filter((p) => p.crossedBeforeFilled && p.order.lotsLeft > 0);
    expect(crossed.length).toBeGreaterThan(0);
  });
});
