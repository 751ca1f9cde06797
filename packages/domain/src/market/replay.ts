import { parseScaled, pow10 } from "../decimal.ts";
import { DomainCode, domainError, fail, ok, type Result } from "../errors.ts";
import type { InstrumentSpec } from "../instrument.ts";

/** A historical candle read from CSV, in ticks and lots. */
export interface HistoricalCandle {
  readonly openTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

export const CANDLE_CSV_HEADER = "open_time,open,high,low,close,volume";

/** Rounds a decimal string to the nearest multiple of `unit` at `scale`; null when malformed. */
function toUnits(text: string, scale: number, unit: bigint): number | null {
  const extra = 8;
  const p = parseScaled(text.trim(), scale + extra);
  if (p === null || p.scaled < 0n) return null;
  const step = unit * pow10(extra);
  return Number((p.scaled + step / 2n) / step);
}

/**
 * Parses candle CSV (`open_time,open,high,low,close,volume`; open_time in UTC epoch
 * milliseconds, values as plain decimals). Prices round to the nearest tick and volume
 * to the nearest lot; rows must be strictly increasing in time with low <= open, close <= high.
 */
export function parseCandleCsv(text: string, spec: InstrumentSpec): Result<HistoricalCandle[]> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const out: HistoricalCandle[] = [];
  const bad = (line: number, reason: string) =>
    fail<HistoricalCandle[]>(domainError(DomainCode.INVALID_DECIMAL, `line ${line}`, { reason }));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (i === 0 && line.trim() === CANDLE_CSV_HEADER) continue;
    const cells = line.split(",");
    if (cells.length !== 6) return bad(i + 1, "expected 6 columns");
    const [t, o, h, l, c, v] = cells as [string, string, string, string, string, string];
    const openTime = Number(t);
    if (!Number.isSafeInteger(openTime)) return bad(i + 1, "open_time must be epoch milliseconds");
    const open = toUnits(o, spec.priceDecimals, spec.tickUnits);
    const high = toUnits(h, spec.priceDecimals, spec.tickUnits);
    const low = toUnits(l, spec.priceDecimals, spec.tickUnits);
    const close = toUnits(c, spec.priceDecimals, spec.tickUnits);
    const volume = toUnits(v, spec.qtyDecimals, spec.lotUnits);
    if (open === null || high === null || low === null || close === null || volume === null) {
      return bad(i + 1, "malformed decimal");
    }
    if (!(low >= 1 && low <= Math.min(open, close) && high >= Math.max(open, close))) {
      return bad(i + 1, "needs 0 < low <= open, close <= high");
    }
    const prev = out[out.length - 1];
    if (prev !== undefined && openTime <= prev.openTime) return bad(i + 1, "open_time must increase");
    out.push({ openTime, open, high, low, close, volume });
  }
  return ok(out);
}

/** One point of a replayed candle: a trade `offsetMs` after the candle opens. */
export interface ReplayPoint {
  readonly offsetMs: number;
  readonly price: number;
  readonly qty: number;
}

/**
 * The trades a replay prints for one candle: open, then the extreme nearer in
 * direction (a falling candle visits its high first, a rising one its low), the other
 * extreme, and the close, each a quarter of the candle apart, volume shared out.
 * Replaying these through a `CandleSeries` of the same interval reproduces the candle's
 * prices (and its volume when it is at least four lots).
 */
export function candlePath(c: HistoricalCandle, intervalMs: number, spec: InstrumentSpec): ReplayPoint[] {
  const prices = c.close < c.open ? [c.open, c.high, c.low, c.close] : [c.open, c.low, c.high, c.close];
  const each = Math.floor(c.volume / 4);
  const minQty = Math.max(1, spec.minQtyLots);
  return prices.map((price, k) => ({
    offsetMs: Math.floor((k * intervalMs) / 4),
    price,
    qty: Math.max(minQty, k === 3 ? c.volume - 3 * each : each),
  }));
}

/** Average lots per minute of a candle run (to size the ladder and simulated flow). */
export function averageLotsPerMinute(candles: readonly HistoricalCandle[], intervalMs: number): number {
  if (candles.length === 0) return 1;
  const total = candles.reduce((s, c) => s + c.volume, 0);
  return Math.max(1, total / (candles.length * (intervalMs / 60_000)));
}
