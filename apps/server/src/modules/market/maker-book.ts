import {
  asLots,
  asTicks,
  BookFanOut,
  type BookListener,
  buildLadder,
  type InstrumentSpec,
  OrderBook,
  type Quote,
  Side,
  Stp,
  Tif,
} from "@meridian/domain";

/**
 * The paper market maker's account. NOTE: the order service must never hand this
 * account id, or an order id at or above MAKER_ID_BASE, to a user order.
 */
export const MAKER_ACCOUNT = 0;
/** Maker order ids count up from here (2^50), far above any database id. */
export const MAKER_ID_BASE = 2 ** 50;

interface Resting {
  readonly id: number;
  readonly quote: Quote;
}

const keyOf = (q: Quote): string => `${q.side}:${q.price}:${q.qty}`;

export interface MakerBookOptions {
  spec: InstrumentSpec;
  seed: number;
  /** Fraction of the price each side of the ladder spans (default 0.004). */
  span?: number;
  levels?: number;
  /** Lots at the touch before randomisation. */
  touchLots: number;
}

/**
 * One symbol's order book with the liquidity maker's ladder resting in it. Each
 * `requote` moves the ladder to a new reference price by cancelling the quotes that
 * changed and placing the new ones (unchanged quotes keep their queue place). User
 * orders the order service places in `book` rest beside the maker's and trade with
 * them; engine events reach whoever `subscribe`s.
 */
export class MakerBook {
  readonly book: OrderBook;
  private readonly fan = new BookFanOut();
  private readonly o: MakerBookOptions;
  private resting = new Map<string, Resting>();
  private nextId = MAKER_ID_BASE;

  constructor(options: MakerBookOptions) {
    this.o = options;
    this.book = new OrderBook(options.spec, this.fan, { capacity: 256 });
  }

  subscribe(listener: BookListener): () => void {
    this.fan.listeners.add(listener);
    return () => this.fan.listeners.delete(listener);
  }

  requote(refTicks: number, ts: number): void {
    const ladder = buildLadder({
      spec: this.o.spec,
      refPrice: refTicks as Quote["price"],
      seed: this.o.seed,
      volatility: this.o.span ?? 0.004,
      levels: this.o.levels ?? 25,
      touchQty: Math.max(1, Math.round(this.o.touchLots)) as Quote["qty"],
    });
    this.replace(ladder, ts);
  }

  /**
   * Quotes an exchange's book as it is (a live feed): levels per side as [ticks, lots],
   * best first. Levels that did not change keep their orders (and queue place).
   */
  mirror(
    bids: ReadonlyArray<readonly [number, number]>,
    asks: ReadonlyArray<readonly [number, number]>,
    ts: number,
  ): void {
    const quotes: Quote[] = [];
    for (const [p, q] of bids) quotes.push({ side: Side.Buy, price: asTicks(p), qty: asLots(q) });
    for (const [p, q] of asks) quotes.push({ side: Side.Sell, price: asTicks(p), qty: asLots(q) });
    this.replace(quotes, ts, true);
  }

  /** Withdraws every quote: nothing fills against a book that is no longer known. */
  clear(ts: number): void {
    this.replace([], ts);
  }

  /**
   * `keepTaken` (a mirrored book): a quote that orders took whole is not placed again
   * while the exchange shows the level unchanged (same price and size); a level it shows
   * refreshed is quoted anew. What was taken in part stays reduced the same way.
   */
  private replace(quotes: readonly Quote[], ts: number, keepTaken = false): void {
    const next = new Map<string, Quote>();
    for (const q of quotes) next.set(keyOf(q), q);
    // Cancel first: the new ladder may sit where the old opposite side was.
    for (const [key, r] of this.resting) {
      if (next.has(key) && (keepTaken || this.book.has(r.id))) continue;
      if (this.book.has(r.id)) this.book.cancel(r.id, ts);
      this.resting.delete(key);
    }
    for (const [key, q] of next) {
      if (this.resting.has(key)) continue;
      const id = this.nextId++;
      this.book.limit(id, MAKER_ACCOUNT, q.side, q.price, q.qty, Tif.GTC, Stp.ExpireTaker, ts);
      if (this.book.has(id)) this.resting.set(key, { id, quote: q });
    }
  }

  /** Top `n` levels per side as [ticks, lots], best first. */
  depth(n: number): { bids: Array<[number, number]>; asks: Array<[number, number]> } {
    return { bids: this.book.depth(Side.Buy, n), asks: this.book.depth(Side.Sell, n) };
  }
}
