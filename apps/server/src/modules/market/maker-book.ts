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
  /** The `mirror` call that last kept it. */
  seen: number;
}

/**
 * A quote's place: its side and price. Each side of a ladder or a mirrored book has one
 * level per price, so this is unique; a number, as a live feed replaces books hundreds of
 * times a second (a string key per level was 6 % of the mirror's CPU in bench:feed).
 */
const slotOf = (q: Quote): number => q.price * 2 + q.side;

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
  private resting = new Map<number, Resting>();
  private nextId = MAKER_ID_BASE;
  private generation = 0;

  /** The maker's quotes that traded (in part or whole) and still have their place in `resting`. */
  private readonly taken = new Set<number>();

  constructor(options: MakerBookOptions) {
    this.o = options;
    this.book = new OrderBook(options.spec, this.fan, { capacity: 256 });
    const none = () => {};
    this.fan.listeners.add({
      onAccepted: none,
      onRejected: none,
      onTrade: (_seq, makerId, takerId) => {
        if (makerId >= MAKER_ID_BASE) this.taken.add(makerId);
        if (takerId >= MAKER_ID_BASE) this.taken.add(takerId);
      },
      onCancelled: none,
      onExpired: none,
      onTriggered: none,
      onDelta: none,
    });
  }

  /**
   * True while the book holds the maker's quotes only, each whole: then mirroring books
   * B1 .. Bn one after the other leaves the same quotes as mirroring Bn alone (no order
   * of anyone else's to meet, no taken level whose refresh an intermediate book shows),
   * so a caller may skip to the latest.
   */
  get pristine(): boolean {
    return this.taken.size === 0 && this.book.size === this.resting.size;
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
   * best first, one per price. Levels that did not change keep their orders (and queue
   * place). A quote that orders took whole is not placed again while the exchange shows
   * the level unchanged (same price and size); a level it shows refreshed is quoted anew.
   * What was taken in part stays reduced the same way.
   */
  mirror(
    bids: ReadonlyArray<readonly [number, number]>,
    asks: ReadonlyArray<readonly [number, number]>,
    ts: number,
  ): void {
    // No Quote objects or Map per call (as `replace` builds): a live feed calls this
    // thousands of times a second, and most of the levels have not changed.
    const gen = ++this.generation;
    // Cancel first (as `replace`): a new level may sit where the old opposite side was.
    // A quote stays where the exchange shows the same size at its price, taken or not.
    this.mark(bids, Side.Buy, gen);
    this.mark(asks, Side.Sell, gen);
    for (const [slot, r] of this.resting) {
      if (r.seen === gen) continue;
      this.drop(slot, r, ts);
    }
    this.placeNew(bids, Side.Buy, ts);
    this.placeNew(asks, Side.Sell, ts);
  }

  /** Marks the resting quotes a mirrored side keeps (same price and size). */
  private mark(levels: ReadonlyArray<readonly [number, number]>, side: Side, gen: number): void {
    for (const [p, q] of levels) {
      const r = this.resting.get(p * 2 + side);
      if (r !== undefined && r.quote.qty === q) r.seen = gen;
    }
  }

  /** Places the mirrored side's levels that have no quote resting. */
  private placeNew(levels: ReadonlyArray<readonly [number, number]>, side: Side, ts: number): void {
    for (const [p, q] of levels) {
      const slot = p * 2 + side;
      if (this.resting.has(slot)) continue;
      const quote: Quote = { side, price: asTicks(p), qty: asLots(q) };
      this.place(slot, quote, ts);
    }
  }

  private drop(slot: number, r: Resting, ts: number): void {
    if (this.book.has(r.id)) this.book.cancel(r.id, ts);
    this.resting.delete(slot);
    this.taken.delete(r.id);
  }

  private place(slot: number, q: Quote, ts: number): void {
    const id = this.nextId++;
    this.book.limit(id, MAKER_ACCOUNT, q.side, q.price, q.qty, Tif.GTC, Stp.ExpireTaker, ts);
    if (this.book.has(id)) this.resting.set(slot, { id, quote: q, seen: this.generation });
  }

  /** Withdraws every quote: nothing fills against a book that is no longer known. */
  clear(ts: number): void {
    this.replace([], ts);
  }

  /** Moves the quotes to `quotes`: those at the same price and size that still rest stay. */
  private replace(quotes: readonly Quote[], ts: number): void {
    const next = new Map<number, Quote>();
    for (const q of quotes) next.set(slotOf(q), q);
    // Cancel first: the new ladder may sit where the old opposite side was. A quote stays
    // only where the same price shows the same size.
    for (const [slot, r] of this.resting) {
      if (next.get(slot)?.qty === r.quote.qty && this.book.has(r.id)) continue;
      this.drop(slot, r, ts);
    }
    for (const [slot, q] of next) if (!this.resting.has(slot)) this.place(slot, q, ts);
  }

  /** Top `n` levels per side as [ticks, lots], best first. */
  depth(n: number): { bids: Array<[number, number]>; asks: Array<[number, number]> } {
    return { bids: this.book.depth(Side.Buy, n), asks: this.book.depth(Side.Sell, n) };
  }
}
