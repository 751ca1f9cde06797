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
  WS: "/v1/ws/market",
} as const;
