/** Kline intervals the market serves, with their length in milliseconds. */
export const KLINE_INTERVALS = {
  "1m": 60_000,
  "5m": 300_000,
  "15m": 900_000,
  "30m": 1_800_000,
  "1h": 3_600_000,
  "4h": 14_400_000,
  "1d": 86_400_000,
} as const;

export type KlineInterval = keyof typeof KLINE_INTERVALS;

/** Finest first; each length divides the next, so a candle never straddles a coarser one. */
export const INTERVAL_LIST: readonly KlineInterval[] = ["1m", "5m", "15m", "30m", "1h", "4h", "1d"];

export function isKlineInterval(value: string): value is KlineInterval {
  return Object.hasOwn(KLINE_INTERVALS, value);
}

/**
 * Start of the UTC bucket holding `ts`. The Unix epoch is a UTC midnight and every
 * interval divides a day, so flooring the epoch offset aligns 1d candles to 00:00 UTC.
 */
export function bucketStart(ts: number, intervalMs: number): number {
  return Math.floor(ts / intervalMs) * intervalMs;
}
