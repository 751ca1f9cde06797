import type { Bar } from "@meridian/domain";

/** A public trade as a feed reports it, in engine units (ticks, lots). */
export interface FeedTrade {
  readonly symbol: string;
  readonly time: number;
  readonly price: number;
  readonly qty: number;
  readonly buyerMaker: boolean;
}

export type FeedSink = (trades: readonly FeedTrade[]) => void;

export interface FeedStartOptions {
  catchUp?: boolean;
}

/**
 * Where prices come from. Two offline implementations ship: `ModelFeed` (the seeded
 * GARCH + jump model) and `ReplayFeed` (historical candles from CSV). A live exchange
 * feed would implement the same interface: `history` from the exchange's kline REST
 * call, `start` from its trade socket. None is wired: the market runs offline unless
 * one is added and selected in `MARKET_FEED` (see config.ts).
 */
export interface MarketFeed {
  readonly name: string;
  /** Symbols served (upper case). */
  readonly symbols: readonly string[];
  /**
   * History bars before the feed's epoch, oldest first, at mixed resolutions (each bar
   * inside one candle of every interval at least as long). Built on the first call.
   */
  history(symbol: string, closeTicks?: number): readonly Bar[];
  /**
   * Delivers trades to `sink` until the returned function is called. `catchUp`: the
   * trades due by now are delivered at once, inside the call, before the first tick.
   */
  start(sink: FeedSink, options?: FeedStartOptions): () => void;
  /** Continues the symbol from this price (taking over from another instance's feed). */
  anchor(symbol: string, priceTicks: number, time: number): void;
}
