/**
 * The market data's paths and kline intervals, free of zod: the trading pages need them
 * at load and must not build the schemas for them (market.ts re-exports them).
 */

/** Kline intervals, finest first. */
export const KLINE_INTERVAL_VALUES = ["1m", "5m", "15m", "30m", "1h", "4h", "1d"] as const;

export const MarketPath = {
  SYMBOLS: "/v1/market/symbols",
  TICKERS: "/v1/market/tickers",
  TICKER: "/v1/market/ticker",
  KLINES: "/v1/market/klines",
  DEPTH: "/v1/market/depth",
  TRADES: "/v1/market/trades",
  CAPS: "/v1/market/caps",
  /** The price feed in use and each symbol's state (`live`, `stale`, `down`). */
  STATUS: "/v1/market/status",
  WS: "/v1/ws/market",
} as const;

/** Market codes (12xxx). */
export const MarketCode = {
  /**
   * The symbol's live feed is disconnected or sent no book for 5 s: new orders are
   * refused (data: symbol); resting orders stay and nothing fills until it is back.
   */
  DATA_UNAVAILABLE: "12001",
} as const;
export type MarketCode = (typeof MarketCode)[keyof typeof MarketCode];

/** A symbol's feed state in `GET /v1/market/status`. */
export const FEED_STATES = ["live", "stale", "down"] as const;
