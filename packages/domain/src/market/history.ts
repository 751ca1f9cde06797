import { type InstrumentSpec, notionalMinor } from "../instrument.ts";
import type { Bar } from "./candles.ts";
import { KLINE_INTERVALS } from "./intervals.ts";
import type { PriceModel } from "./price-model.ts";

/** One resolution of generated history: `count` bars of `stepMs`. */
export interface HistorySegment {
  readonly stepMs: number;
  readonly count: number;
}

/**
 * Finest first. The 1m segment covers a little over a day (the rolling 24 h ticker
 * reads 1m candles); each coarser segment adds 600 bars before the finer ones, so
 * every interval ends up with at least 500 candles from about 5 100 steps per symbol.
 */
export const DEFAULT_HISTORY_PLAN: readonly HistorySegment[] = [
  { stepMs: KLINE_INTERVALS["1m"], count: 1500 },
  { stepMs: KLINE_INTERVALS["5m"], count: 600 },
  { stepMs: KLINE_INTERVALS["15m"], count: 600 },
  { stepMs: KLINE_INTERVALS["30m"], count: 600 },
  { stepMs: KLINE_INTERVALS["1h"], count: 600 },
  { stepMs: KLINE_INTERVALS["4h"], count: 600 },
  { stepMs: KLINE_INTERVALS["1d"], count: 600 },
];

export interface HistoryWindow {
  readonly start: number;
  readonly end: number;
  readonly stepMs: number;
}

/**
 * Where each segment lies, oldest first, ending at `end` (a minute boundary). A
 * segment starts on a boundary of the next coarser step, so no bar straddles a
 * candle of any interval it feeds.
 */
export function historyWindows(
  end: number,
  plan: readonly HistorySegment[] = DEFAULT_HISTORY_PLAN,
): HistoryWindow[] {
  const out: HistoryWindow[] = [];
  let hi = end;
  for (let i = 0; i < plan.length; i++) {
    const seg = plan[i] as HistorySegment;
    const coarser = plan[i + 1]?.stepMs ?? seg.stepMs;
    const lo = Math.floor((hi - seg.count * seg.stepMs) / coarser) * coarser;
    out.push({ start: lo, end: hi, stepMs: seg.stepMs });
    hi = lo;
  }
  return out.reverse();
}

/** Float value of one tick. */
export const tickValue = (spec: InstrumentSpec): number => Number(spec.tickUnits) / 10 ** spec.priceDecimals;

/** Float value of one lot. */
export const lotValue = (spec: InstrumentSpec): number => Number(spec.lotUnits) / 10 ** spec.qtyDecimals;

/** A log price as whole ticks, never below the instrument's minimum. */
export function logToTicks(spec: InstrumentSpec, logPrice: number): number {
  const ticks = Math.round(Math.exp(logPrice) / tickValue(spec));
  return Math.min(spec.maxPriceTicks, Math.max(spec.minPriceTicks, ticks));
}

export interface HistoryOptions {
  /** End of history (exclusive), a minute boundary; live trading continues from here. */
  readonly end: number;
  /** The last close, in ticks: the path is shifted (in log space) to end exactly here. */
  readonly closeTicks: number;
  /** Average traded lots per minute. */
  readonly lotsPerMinute: number;
  /** Trades per minute a bar stands for (default 240: one every 250 ms). */
  readonly tradesPerMinute?: number;
  readonly plan?: readonly HistorySegment[];
}

/**
 * Generates the history bars (oldest first) and leaves `model` at the end of the path,
 * at `closeTicks`. Log returns are kept and the path moved as a whole, so volatility
 * and clustering survive the anchoring. Volume follows the model's activity.
 */
export function generateHistory(model: PriceModel, spec: InstrumentSpec, o: HistoryOptions): Bar[] {
  const windows = historyWindows(o.end, o.plan);
  const raw: Array<{
    time: number;
    span: number;
    lo: number;
    lh: number;
    ll: number;
    lc: number;
    lots: number;
  }> = [];
  for (const w of windows) {
    const dt = w.stepMs / 60_000;
    for (let t = w.start; t < w.end; t += w.stepMs) {
      const open = model.logPrice;
      const s = model.step(dt);
      const noise = Math.exp(0.35 * model.normal());
      const lots = Math.max(1, Math.round(o.lotsPerMinute * dt * s.activity * noise));
      raw.push({ time: t, span: w.stepMs, lo: open, lh: s.logHigh, ll: s.logLow, lc: s.logClose, lots });
    }
  }
  const target = Math.log(o.closeTicks * tickValue(spec));
  const offset = target - model.logPrice;
  model.shift(offset);
  return raw.map((r) => {
    const open = logToTicks(spec, r.lo + offset);
    const close = logToTicks(spec, r.lc + offset);
    const high = Math.max(open, close, logToTicks(spec, r.lh + offset));
    const low = Math.min(open, close, logToTicks(spec, r.ll + offset));
    const typical = Math.round((high + low + close) / 3);
    return {
      time: r.time,
      span: r.span,
      open,
      high,
      low,
      close,
      volume: r.lots,
      quoteVolume: notionalMinor(spec, typical, r.lots),
      trades: Math.max(1, Math.round((r.span / 60_000) * (o.tradesPerMinute ?? 240))),
    };
  });
}
