import { FEED_STATES, KLINE_INTERVAL_VALUES } from "./market-values.ts";
import { z } from "./zod-csp.ts";

export * from "./market-values.ts";

/**
 * Market data (`/v1/market/*` and the `/v1/ws/market` stream). Prices, quantities and
 * volumes are exact decimal strings on the instrument's tick and lot; times are UTC
 * epoch milliseconds.
 */

/** Kline intervals, finest first. */
export const klineIntervalSchema = z.enum(KLINE_INTERVAL_VALUES);
export type KlineIntervalValue = z.infer<typeof klineIntervalSchema>;

/** A symbol as written in a query: case-insensitive, answered upper-case. */
export const marketSymbolSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{2,20}$/, "must be a symbol such as BTCUSDT")
  .transform((s) => s.toUpperCase());

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);

export const marketSymbolInfoSchema = z.object({
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  /** The base coin's name ("Bitcoin"). */
  name: z.string(),
  tickSize: decimal,
  lotSize: decimal,
  minNotional: decimal,
  priceDecimals: z.int(),
  qtyDecimals: z.int(),
  minQty: decimal,
  maxQty: decimal,
  status: z.literal("TRADING"),
});
export type MarketSymbolInfo = z.infer<typeof marketSymbolInfoSchema>;

/** Rolling 24 h ticker (the 1 440 one-minute candles ending with the open one). */
export const tickerSchema = z.object({
  symbol: z.string(),
  lastPrice: decimal,
  openPrice: decimal,
  highPrice: decimal,
  lowPrice: decimal,
  priceChange: decimal,
  /** Percent with two decimals ("-1.25"). */
  priceChangePercent: decimal,
  /** Base asset volume. */
  volume: decimal,
  quoteVolume: decimal,
  trades: z.int(),
  openTime: z.int(),
  closeTime: z.int(),
  /** Best bid and ask of the book ("0" when a side is empty). */
  bidPrice: decimal,
  askPrice: decimal,
});
export type Ticker = z.infer<typeof tickerSchema>;

export const klineSchema = z.object({
  openTime: z.int(),
  /** Last millisecond of the bucket. */
  closeTime: z.int(),
  open: decimal,
  high: decimal,
  low: decimal,
  close: decimal,
  volume: decimal,
  quoteVolume: decimal,
  trades: z.int(),
  /** False for the candle still open. */
  closed: z.boolean(),
});
export type Kline = z.infer<typeof klineSchema>;

/** `[price, quantity]`, best first. */
export const depthLevelSchema = z.tuple([decimal, decimal]);
export type DepthLevel = z.infer<typeof depthLevelSchema>;

export const depthSchema = z.object({
  symbol: z.string(),
  /** The book's event sequence at the snapshot: stream updates with a higher one are newer. */
  lastUpdateId: z.int(),
  bids: z.array(depthLevelSchema),
  asks: z.array(depthLevelSchema),
  time: z.int(),
});
export type Depth = z.infer<typeof depthSchema>;

export const marketTradeSchema = z.object({
  id: z.int(),
  price: decimal,
  qty: decimal,
  quoteQty: decimal,
  time: z.int(),
  /** True when the seller was the taker (shown red). */
  isBuyerMaker: z.boolean(),
});
export type MarketTrade = z.infer<typeof marketTradeSchema>;

export const marketCapSchema = z.object({
  rank: z.int(),
  symbol: z.string(),
  base: z.string(),
  name: z.string(),
  price: decimal,
  priceChangePercent: decimal,
  circulatingSupply: decimal,
  /** Circulating supply x last price, in USDT, two decimals. */
  marketCap: decimal,
});
export type MarketCap = z.infer<typeof marketCapSchema>;

export const tickerQuerySchema = z.object({ symbol: marketSymbolSchema });
export type TickerQuery = z.input<typeof tickerQuerySchema>;

export const KLINES_MAX_LIMIT = 1000;
export const klinesQuerySchema = z.object({
  symbol: marketSymbolSchema,
  interval: klineIntervalSchema,
  limit: z.coerce.number().int().min(1).max(KLINES_MAX_LIMIT).default(500),
  /** Candles opening at or before this time (default: up to the open one). */
  endTime: z.coerce.number().int().min(0).optional(),
});
export type KlinesQuery = z.input<typeof klinesQuerySchema>;

export const DEPTH_MAX_LIMIT = 100;
export const depthQuerySchema = z.object({
  symbol: marketSymbolSchema,
  limit: z.coerce.number().int().min(1).max(DEPTH_MAX_LIMIT).default(20),
});
export type DepthQuery = z.input<typeof depthQuerySchema>;

export const TRADES_MAX_LIMIT = 500;
export const tradesQuerySchema = z.object({
  symbol: marketSymbolSchema,
  limit: z.coerce.number().int().min(1).max(TRADES_MAX_LIMIT).default(50),
});
export type TradesQuery = z.input<typeof tradesQuerySchema>;

export const capsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(8),
});
export type CapsQuery = z.input<typeof capsQuerySchema>;

/* ------------------------------- WebSocket ------------------------------- */

/**
 * Stream names: `ticker@BTCUSDT`, `kline@BTCUSDT@1m` (any interval), `depth@BTCUSDT`,
 * `trades@BTCUSDT`. Symbols are case-insensitive in requests, upper-case in answers.
 */
export const marketStreamSchema = z
  .string()
  .trim()
  .regex(
    /^(ticker|depth|trades)@[A-Za-z0-9]{2,20}$|^kline@[A-Za-z0-9]{2,20}@(1m|5m|15m|30m|1h|4h|1d)$/,
    "unknown stream",
  )
  .transform((s) => {
    const [kind = "", symbol = "", interval] = s.split("@");
    return [kind, symbol.toUpperCase(), ...(interval === undefined ? [] : [interval])].join("@");
  });

/** At most this many streams per connection. */
export const WS_MAX_STREAMS = 50;

export const wsClientMessageSchema = z.discriminatedUnion("op", [
  z.object({
    op: z.enum(["subscribe", "unsubscribe"]),
    args: z.array(z.string()).min(1).max(WS_MAX_STREAMS),
    id: z.union([z.string().max(64), z.int()]).optional(),
  }),
  z.object({ op: z.literal("ping"), id: z.union([z.string().max(64), z.int()]).optional() }),
  z.object({ op: z.literal("pong") }),
]);
export type WsClientMessage = z.infer<typeof wsClientMessageSchema>;

/** Pushes: one per stream update. Depth pushes carry the full top of book (coalesced). */
export type WsPush =
  | { stream: `ticker@${string}`; data: Ticker }
  | { stream: `kline@${string}`; data: Kline & { symbol: string; interval: KlineIntervalValue } }
  | { stream: `depth@${string}`; data: Depth }
  | { stream: `trades@${string}`; data: MarketTrade & { symbol: string } };

/** Answers to client messages, and the server's own heartbeat. */
export type WsEvent =
  | { event: "subscribed" | "unsubscribed"; streams: string[]; id?: string | number }
  | { event: "error"; code: string; msg: string; id?: string | number }
  | { event: "pong"; id?: string | number; time: number }
  | { event: "ping"; time: number };

/** Server heartbeat: a `ping` event (and a protocol ping frame) this often; two missed answers close the socket. */
export const WS_HEARTBEAT_MS = 20_000;
/** Depth for the stream: top levels per side. */
export const WS_DEPTH_LEVELS = 20;

/** `GET /v1/market/status`: the feed in use (`model`, `replay`, `ccxt:binance`) and each symbol's state. */
export const marketStatusSchema = z.object({
  feed: z.string(),
  /** True when prices come from a live exchange (the pages say "Live prices from ..."). */
  live: z.boolean(),
  /** Book updates a live feed delivered since the server started. */
  bookUpdates: z.int(),
  symbols: z.array(
    z.object({
      symbol: z.string(),
      state: z.enum(FEED_STATES),
      /** Milliseconds since the symbol's last book update (-1 before the first). */
      ageMs: z.int(),
    }),
  ),
});
export type MarketStatus = z.infer<typeof marketStatusSchema>;
