import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { parseEnv } from "../../platform/config.ts";

const DEFAULT_CANDLES_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../data/candles",
);

/** The exchange `MARKET_FEED=auto` tries first (docs/operations.md). */
export const AUTO_EXCHANGE = "binance";

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Milliseconds between simulated trades per symbol. */
  MARKET_TICK_MS: z.coerce.number().int().min(5).max(60_000).default(250),
  /**
   * `model` (seeded GARCH + jumps), `replay` (CSV candles in MARKET_CANDLES_DIR, the model
   * for symbols without a file), `ccxt:<exchange id>` (that exchange's public market data
   * through ccxt's WebSocket classes) or `auto` (a live exchange when it answers, else the
   * model). Default `auto` in production, `model` elsewhere.
   */
  MARKET_FEED: z
    .string()
    .regex(/^(model|replay|auto|ccxt:[a-z0-9]+)$/, "must be one of model, replay, auto or ccxt:<exchange id>")
    .optional(),
  /** Comma list of spot symbols (BTCUSDT,...) for a live feed; default the built-in pairs. */
  MARKET_SYMBOLS: z.string().optional(),
  /** A base URL (http://host:port) that replaces the origin of every ccxt REST and WebSocket URL. */
  MARKET_FEED_URL: z.url({ protocol: /^https?$/ }).optional(),
  MARKET_SEED: z.coerce.number().int().min(0).max(4_294_967_295).default(20_261_122),
  /** `system` runs the market clock; `paused` never ticks (the default under NODE_ENV=test). */
  MARKET_CLOCK: z.enum(["system", "paused"]).optional(),
  MARKET_CANDLES_DIR: z.string().min(1).optional(),
});

/** `MARKET_FEED`: `model`, `replay`, `auto` or `ccxt:<exchange id>`. */
export type FeedName = "model" | "replay" | "auto" | `ccxt:${string}`;

/** The exchange a feed name mirrors (`auto`: AUTO_EXCHANGE), or undefined for the offline feeds. */
export function feedExchange(feed: FeedName): string | undefined {
  if (feed === "auto") return AUTO_EXCHANGE;
  return feed.startsWith("ccxt:") ? feed.slice("ccxt:".length) : undefined;
}

export interface MarketConfig {
  tickMs: number;
  feed: FeedName;
  /** Upper-case symbols from MARKET_SYMBOLS; unset: the built-in list. */
  symbols?: readonly string[] | undefined;
  feedUrl?: string | undefined;
  seed: number;
  paused: boolean;
  candlesDir: string;
}

export function loadMarketConfig(env: NodeJS.ProcessEnv = process.env): MarketConfig {
  const e = parseEnv(envSchema, env);
  const symbols = e.MARKET_SYMBOLS?.split(",")
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== "");
  return {
    tickMs: e.MARKET_TICK_MS,
    feed: (e.MARKET_FEED ?? (e.NODE_ENV === "production" ? "auto" : "model")) as FeedName,
    symbols: symbols === undefined || symbols.length === 0 ? undefined : [...new Set(symbols)],
    feedUrl: e.MARKET_FEED_URL,
    seed: e.MARKET_SEED,
    paused: (e.MARKET_CLOCK ?? (e.NODE_ENV === "test" ? "paused" : "system")) === "paused",
    candlesDir: e.MARKET_CANDLES_DIR ?? DEFAULT_CANDLES_DIR,
  };
}
