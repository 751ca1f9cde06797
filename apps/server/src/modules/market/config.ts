import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { parseEnv } from "../../platform/config.ts";

const DEFAULT_CANDLES_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../data/candles",
);

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Milliseconds between simulated trades per symbol. */
  MARKET_TICK_MS: z.coerce.number().int().min(20).max(60_000).default(250),
  /**
   * `model` (seeded GARCH + jumps, default) or `replay` (CSV candles in MARKET_CANDLES_DIR,
   * the model for symbols without a file). No live exchange feed ships: one would
   * implement `MarketFeed` (feed.ts) and be selected here; the market is offline by default.
   */
  MARKET_FEED: z.enum(["model", "replay"]).default("model"),
  MARKET_SEED: z.coerce.number().int().min(0).max(4_294_967_295).default(20_261_122),
  /** `system` runs the market clock; `paused` never ticks (the default under NODE_ENV=test). */
  MARKET_CLOCK: z.enum(["system", "paused"]).optional(),
  MARKET_CANDLES_DIR: z.string().min(1).optional(),
});

export interface MarketConfig {
  tickMs: number;
  feed: "model" | "replay";
  seed: number;
  paused: boolean;
  candlesDir: string;
}

export function loadMarketConfig(env: NodeJS.ProcessEnv = process.env): MarketConfig {
  const e = parseEnv(envSchema, env);
  return {
    tickMs: e.MARKET_TICK_MS,
    feed: e.MARKET_FEED,
    seed: e.MARKET_SEED,
    paused: (e.MARKET_CLOCK ?? (e.NODE_ENV === "test" ? "paused" : "system")) === "paused",
    candlesDir: e.MARKET_CANDLES_DIR ?? DEFAULT_CANDLES_DIR,
  };
}
