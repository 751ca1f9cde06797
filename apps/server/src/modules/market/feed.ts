import type { Bar } from "@meridian/domain";

/** A public trade as a feed reports it, in engine units (ticks, lots). */
export interface FeedTrade {
  readonly symbol: string;
  readonly time: number;
  readonly price: number;
  readonly qty: number;
  readonly buyerMaker: boolean;
}

/** An exchange's book, top levels per side as [ticks, lots], best first. */
export interface FeedBook {
  readonly symbol: string;
  readonly time: number;
  readonly bids: ReadonlyArray<readonly [number, number]>;
  readonly asks: ReadonlyArray<readonly [number, number]>;
}

/** A perpetual's mark, index and funding as the exchange publishes them (decimal strings). */
export interface PerpQuote {
  readonly symbol: string;
  readonly mark: string | undefined;
  readonly index: string | undefined;
  /** Rate of the running interval (a fraction, "0.0001" = 0.01 %). */
  readonly fundingRate: string | undefined;
  readonly nextFundingTime: number | undefined;
  readonly time: number;
}

export type FeedSink = (trades: readonly FeedTrade[]) => void;

export interface FeedStartOptions {
  catchUp?: boolean;
  /** A mirroring feed's books, each a full replacement of the symbol's top levels. */
  book?: (book: FeedBook) => void;
  /** The symbol's connection failed; its book is unknown until the next `book`. */
  down?: (symbol: string) => void;
  perp?: (quote: PerpQuote) => void;
}

/**
 * Where prices come from. Two offline implementations ship: `ModelFeed` (the seeded
 * GARCH + jump model) and `ReplayFeed` (historical candles from CSV); `CcxtFeed`
 * mirrors a live exchange (its books replace the maker's ladder: `mirrorsBooks`).
 */
export interface MarketFeed {
  readonly name: string;
  /** Symbols served (upper case). */
  readonly symbols: readonly string[];
  /** True: the feed sends books (`FeedStartOptions.book`) and the maker quotes them as they are. */
  readonly mirrorsBooks?: boolean;
  /**
   * History bars before the feed's epoch, oldest first, at mixed resolutions (each bar
   * inside one candle of every interval at least as long). Built on the first call.
   */
  history(symbol: string, closeTicks?: number): readonly Bar[];
  /**
   * A mirroring feed's one-minute bars of `symbol` between `from` and `to` (ms), fetched
   * from the exchange after an outage so the candles of that stretch are the exchange's,
   * not flat; empty when they cannot be had (logged by the feed).
   */
  gapBars?(symbol: string, from: number, to: number): Promise<readonly Bar[]>;
  /**
   * Delivers trades to `sink` until the returned function is called. `catchUp`: the
   * trades due by now are delivered at once, inside the call, before the first tick.
   */
  start(sink: FeedSink, options?: FeedStartOptions): () => void;
  /** Continues the symbol from this price (taking over from another instance's feed). */
  anchor(symbol: string, priceTicks: number, time: number): void;
}
