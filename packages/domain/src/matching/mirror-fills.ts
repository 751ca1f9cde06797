import { Side, Tif } from "./types.ts";

/**
 * Fills against a mirrored exchange book (docs/trading.md, "Live prices: the fill model").
 * Pure: prices in ticks, sizes in lots, both whole numbers. Paper orders never enter the
 * mirrored book and never move it; what they take is remembered here instead.
 */

/** One displayed level: [ticks, lots]. */
export type MirrorLevel = readonly [number, number];

interface Taken {
  /** The size the exchange displayed when the level was taken from. */
  readonly shown: number;
  taken: number;
}

/**
 * Liquidity that paper orders took from the mirrored book, per side and price, kept until
 * the exchange shows the level refreshed (its displayed size changed, or it went away).
 * Without it every paper order would fill against the same displayed ask.
 */
export class TakenLiquidity {
  /** Index 0: bids (taken by sells), 1: asks (taken by buys). */
  private readonly sides: [Map<number, Taken>, Map<number, Taken>] = [new Map(), new Map()];

  /** A new book from the exchange: levels whose size changed or that left are refreshed. */
  onBook(bids: readonly MirrorLevel[], asks: readonly MirrorLevel[]): void {
    this.refresh(this.sides[0], bids);
    this.refresh(this.sides[1], asks);
  }

  private refresh(taken: Map<number, Taken>, levels: readonly MirrorLevel[]): void {
    if (taken.size === 0) return;
    const shown = new Map(levels);
    for (const [price, t] of taken) if (shown.get(price) !== t.shown) taken.delete(price);
  }

  /** What a paper order may still take at a level the exchange displays with `shown` lots. */
  available(bookSide: "bids" | "asks", price: number, shown: number): number {
    const t = this.sides[bookSide === "bids" ? 0 : 1].get(price);
    if (t === undefined || t.shown !== shown) return shown;
    return Math.max(0, shown - t.taken);
  }

  take(bookSide: "bids" | "asks", price: number, shown: number, lots: number): void {
    const map = this.sides[bookSide === "bids" ? 0 : 1];
    const t = map.get(price);
    if (t === undefined || t.shown !== shown) map.set(price, { shown, taken: lots });
    else t.taken += lots;
  }

  /** Levels with liquidity taken (tests, diagnostics). */
  get size(): number {
    return this.sides[0].size + this.sides[1].size;
  }
}

export interface MirrorOrder {
  readonly side: Side;
  readonly lots: number;
  /** Limit price in ticks; null for a market order. */
  readonly limit: number | null;
  /** GTC rests what it could not take; IOC and market cancel it; FOK all or nothing; GTX post-only. */
  readonly tif: Tif;
}

export interface WalkResult {
  /** [ticks, lots] per level taken, best first. */
  readonly fills: readonly MirrorLevel[];
  readonly filledLots: number;
  /** Lots left to rest at the limit (GTC and GTX only). */
  readonly restingLots: number;
  /** Lots cancelled (IOC, market, an unfillable FOK). */
  readonly cancelledLots: number;
  /** GTX that would take, FOK that cannot fill whole: nothing happened. */
  readonly rejected: boolean;
}

/**
 * A marketable order walks the mirrored book's opposite side as the exchange shows it at
 * that moment, level by level, less what earlier paper orders took; what it takes is
 * recorded in `taken`. `opposite`: asks for a buy, bids for a sell, best first.
 */
export function walkMirror(
  order: MirrorOrder,
  opposite: readonly MirrorLevel[],
  taken: TakenLiquidity,
): WalkResult {
  const buy = order.side === Side.Buy;
  const bookSide = buy ? "asks" : "bids";
  const within = (price: number) =>
    order.limit === null || (buy ? price <= order.limit : price >= order.limit);
  const plan: Array<[number, number, number]> = [];
  let left = order.lots;
  for (const [price, shown] of opposite) {
    if (left === 0 || !within(price)) break;
    const lots = Math.min(left, taken.available(bookSide, price, shown));
    if (lots <= 0) continue;
    plan.push([price, shown, lots]);
    left -= lots;
  }
  const none = { fills: [], filledLots: 0, rejected: true };
  if (order.tif === Tif.GTX) {
    if (plan.length > 0) return { ...none, restingLots: 0, cancelledLots: order.lots };
    return { fills: [], filledLots: 0, restingLots: order.lots, cancelledLots: 0, rejected: false };
  }
  if (order.tif === Tif.FOK && left > 0) return { ...none, restingLots: 0, cancelledLots: order.lots };
  for (const [price, shown, lots] of plan) taken.take(bookSide, price, shown, lots);
  const rests = order.tif === Tif.GTC && order.limit !== null;
  return {
    fills: plan.map(([price, , lots]) => [price, lots] as const),
    filledLots: order.lots - left,
    restingLots: rests ? left : 0,
    cancelledLots: rests ? 0 : left,
    rejected: false,
  };
}

/** The lots the exchange displays at `price` on one side (0 when the level is absent). */
export function shownAt(levels: readonly MirrorLevel[], price: number): number {
  for (const [p, q] of levels) if (p === price) return q;
  return 0;
}

/**
 * A resting paper limit order's place in the exchange's queue. It fills only from the
 * exchange's printed trades: every lot of a trade through its price (a buy's price above
 * the trade's, a sell's below), and at its price only the lots beyond the size that was
 * displayed ahead of it when it arrived.
 */
export class QueuedOrder {
  readonly side: Side;
  readonly price: number;
  private remaining: number;
  private ahead: number;

  /** `aheadLots`: the exchange's displayed size at `price` on the order's side when it rested. */
  constructor(side: Side, price: number, lots: number, aheadLots: number) {
    this.side = side;
    this.price = price;
    this.remaining = lots;
    this.ahead = aheadLots;
  }

  get lotsLeft(): number {
    return this.remaining;
  }

  get lotsAhead(): number {
    return this.ahead;
  }

  /** An exchange trade at `price` of `lots`: the lots this order fills now (at its own price). */
  onTrade(price: number, lots: number): number {
    if (this.remaining === 0 || lots <= 0) return 0;
    const through = this.side === Side.Buy ? price < this.price : price > this.price;
    let fill = 0;
    if (through) fill = Math.min(this.remaining, lots);
    else if (price === this.price) {
      const pastQueue = Math.max(0, lots - this.ahead);
      this.ahead = Math.max(0, this.ahead - lots);
      fill = Math.min(this.remaining, pastQueue);
    }
    this.remaining -= fill;
    return fill;
  }
}
