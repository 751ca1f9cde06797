import {
  BookFanOut,
  type BookListener,
  buildLadder,
  type InstrumentSpec,
  type ListedInstrument,
  type Lots,
  listInstruments,
  type MirrorLevel,
  OrderBook,
  priceToTicks,
  type Quote,
  type Side,
  Stp,
  type Ticks,
  Tif,
} from "@meridian/domain";
import { MAKER_ACCOUNT, MAKER_ID_BASE } from "../market/index.ts";

/** One symbol's in-memory order book, shared with whoever else listens to it (depth streams). */
export interface VenueBook {
  readonly book: OrderBook;
  subscribe(listener: BookListener): () => void;
}

/**
 * Where paper orders trade: one order book per symbol with the liquidity maker's quotes
 * in it, and the market's reference (last) price. The market module's `MarketService`
 * fits this shape; `LocalVenue` is the stand-alone one (tests, or no market module).
 *
 * NOTE: the maker's orders use account MAKER_ACCOUNT (0) and ids at or above
 * MAKER_ID_BASE (2^50); paper account ids start at 1 and order ids stay far below.
 */
export interface PaperVenue {
  readonly symbols: readonly string[];
  spec(symbol: string): InstrumentSpec | undefined;
  book(symbol: string): VenueBook | undefined;
  /** Reference (last) price in ticks; 0 when unknown. */
  lastTicks(symbol: string): number;
  /** Calls `listener(symbol)` whenever a symbol's reference price may have moved. */
  onPrice(listener: (symbol: string) => void): () => void;
  /** Test-only: a market trade at `ticks` now, heard by the price listeners; false: unknown symbol. */
  printTrade(symbol: string, ticks: number): boolean;
  /** False while the symbol's live market data is unavailable (new orders are refused); absent: always. */
  tradable?(symbol: string): boolean;
  /** A live feed's perpetual quote for the symbol (mark, index, funding), decimal strings. */
  perpQuote?(symbol: string): ExchangePerpQuote | undefined;
  /**
   * True when a live exchange's book is mirrored for the symbol: resting limit orders then
   * fill from its printed trades by queue position (docs/trading.md); absent: never.
   */
  mirrored?(symbol: string): boolean;
  /** The mirrored book as the exchange displays it, without paper orders; undefined while unknown. */
  shownBook?(symbol: string): MirroredBook | undefined;
  /**
   * Calls `listener` with each batch of a mirrored symbol's printed trades, [ticks, lots] in
   * time order, and when the exchange printed each (`times`, ms).
   */
  onExchangeTrades?(
    listener: (symbol: string, trades: readonly MirrorLevel[], times: readonly number[]) => void,
  ): () => void;
  /** Calls `listener(symbol)` after each book a live feed mirrored (and when one is withdrawn). */
  onBook?(listener: (symbol: string) => void): () => void;
}

/** One mirrored book, levels per side as [ticks, lots], best first. */
export interface MirroredBook {
  readonly bids: readonly MirrorLevel[];
  readonly asks: readonly MirrorLevel[];
}

/** A perpetual's mark, index and funding as a live exchange publishes them. */
export interface ExchangePerpQuote {
  readonly mark: string | undefined;
  readonly index: string | undefined;
  /** The running interval's rate as a fraction ("0.0001"). */
  readonly fundingRate: string | undefined;
  readonly nextFundingTime: number | undefined;
}

interface LocalSymbol {
  readonly spec: InstrumentSpec;
  readonly fan: BookFanOut;
  readonly book: OrderBook;
  readonly seed: number;
  last: number;
  quotes: Map<string, number>;
}

export interface LocalVenueOptions {
  instruments?: readonly ListedInstrument[];
  /** Keep a maker ladder around the reference price (default true). */
  ladder?: boolean;
  seed?: number;
  now?: () => number;
}

/**
 * A self-contained venue: the listed instruments, each book holding the liquidity
 * maker's ladder (`buildLadder`) around the listing's reference price. `setPrice`
 * moves the reference, requotes and tells the price listeners.
 */
export class LocalVenue implements PaperVenue {
  private readonly states = new Map<string, LocalSymbol>();
  private readonly listeners = new Set<(symbol: string) => void>();
  private readonly ladder: boolean;
  private readonly now: () => number;
  private nextMakerId = MAKER_ID_BASE;

  constructor(options: LocalVenueOptions = {}) {
    this.ladder = options.ladder ?? true;
    this.now = options.now ?? Date.now;
    let instruments = options.instruments;
    if (instruments === undefined) {
      const listed = listInstruments();
      if (!listed.ok) throw new Error(`listings invalid: ${listed.error.code}`);
      instruments = listed.value;
    }
    let seed = options.seed ?? 7;
    for (const { spec, listing } of instruments) {
      const fan = new BookFanOut();
      const ref = priceToTicks(spec, listing.refPrice);
      const state: LocalSymbol = {
        spec,
        fan,
        book: new OrderBook(spec, fan),
        seed: seed++,
        last: ref.ok ? ref.value : 0,
        quotes: new Map(),
      };
      this.states.set(spec.symbol, state);
      if (this.ladder && state.last > 0) this.requote(state);
    }
  }

  get symbols(): readonly string[] {
    return [...this.states.keys()];
  }

  spec(symbol: string): InstrumentSpec | undefined {
    return this.states.get(symbol)?.spec;
  }

  book(symbol: string): VenueBook | undefined {
    const s = this.states.get(symbol);
    if (s === undefined) return undefined;
    return {
      book: s.book,
      subscribe: (listener) => {
        s.fan.listeners.add(listener);
        return () => s.fan.listeners.delete(listener);
      },
    };
  }

  lastTicks(symbol: string): number {
    return this.states.get(symbol)?.last ?? 0;
  }

  onPrice(listener: (symbol: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  printTrade(symbol: string, ticks: number): boolean {
    if (!this.states.has(symbol) || ticks <= 0) return false;
    this.setPrice(symbol, ticks);
    return true;
  }

  /** Moves the reference price (tests, tools), requoting the maker's ladder. */
  setPrice(symbol: string, ticks: number): void {
    const s = this.states.get(symbol);
    if (s === undefined) return;
    s.last = ticks;
    if (this.ladder) this.requote(s);
    for (const l of this.listeners) l(symbol);
  }

  /** Places one maker order (tests): account 0, an id above MAKER_ID_BASE. */
  makerOrder(symbol: string, side: Side, ticks: Ticks, lots: Lots): number {
    const s = this.states.get(symbol);
    const id = this.nextMakerId++;
    s?.book.limit(id, MAKER_ACCOUNT, side, ticks, lots, Tif.GTC, Stp.ExpireTaker, this.now());
    return id;
  }

  private requote(s: LocalSymbol): void {
    const ladder = buildLadder({
      spec: s.spec,
      refPrice: s.last as Quote["price"],
      seed: s.seed,
      volatility: 0.004,
    });
    const next = new Map<string, Quote>(ladder.map((q) => [`${q.side}:${q.price}:${q.qty}`, q]));
    const ts = this.now();
    for (const [key, id] of s.quotes) {
      if (next.has(key) && s.book.has(id)) continue;
      if (s.book.has(id)) s.book.cancel(id, ts);
      s.quotes.delete(key);
    }
    for (const [key, q] of next) {
      if (s.quotes.has(key)) continue;
      const id = this.nextMakerId++;
      s.book.limit(id, MAKER_ACCOUNT, q.side, q.price, q.qty, Tif.GTC, Stp.ExpireTaker, ts);
      if (s.book.has(id)) s.quotes.set(key, id);
    }
  }
}
