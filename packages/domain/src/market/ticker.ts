import { formatScaled } from "../decimal.ts";
import { formatNotional, type InstrumentSpec, lotsToQty, ticksToPrice } from "../instrument.ts";
import type { CandleSeries } from "./candles.ts";
import { bucketStart, KLINE_INTERVALS } from "./intervals.ts";

const MINUTE = KLINE_INTERVALS["1m"];
const DAY = KLINE_INTERVALS["1d"];

/** Rolling 24 h statistics in engine units. */
export interface TickerStats {
  readonly openTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly last: number;
  readonly volume: number;
  readonly quoteVolume: bigint;
  readonly trades: number;
}

/** The window's closed minutes, summed once per minute. */
interface ClosedPart {
  readonly minute: number;
  readonly openTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly volume: number;
  readonly quoteVolume: bigint;
  readonly trades: number;
}

/**
 * The rolling 24 h ticker over 1m candles: the window is the 1 440 minutes ending
 * with the open one. The closed minutes are summed once per minute and cached, so a
 * ticker per tick costs O(1) between minute turns.
 */
export class RollingTicker {
  private closed: ClosedPart | undefined;

  stats(series: CandleSeries, now: number): TickerStats | undefined {
    const current = series.last();
    if (current === undefined) return undefined;
    const minute = bucketStart(Math.max(now, current.openTime), MINUTE);
    const from = minute - DAY + MINUTE;
    if (this.closed?.minute !== minute) {
      let part: ClosedPart | undefined;
      for (const c of series.since(from)) {
        if (c.openTime >= minute) break;
        if (part === undefined) {
          part = {
            minute,
            openTime: c.openTime,
            open: c.open,
            high: c.high,
            low: c.low,
            volume: c.volume,
            quoteVolume: c.quoteVolume,
            trades: c.trades,
          };
        } else {
          part = {
            ...part,
            high: Math.max(part.high, c.high),
            low: Math.min(part.low, c.low),
            volume: part.volume + c.volume,
            quoteVolume: part.quoteVolume + c.quoteVolume,
            trades: part.trades + c.trades,
          };
        }
      }
      this.closed = part ?? {
        minute,
        openTime: minute,
        open: 0,
        high: 0,
        low: 0,
        volume: 0,
        quoteVolume: 0n,
        trades: 0,
      };
    }
    const closed = this.closed;
    const open = current.openTime >= minute;
    if (closed.open === 0) {
      return {
        openTime: current.openTime,
        open: current.open,
        high: current.high,
        low: current.low,
        last: current.close,
        volume: current.volume,
        quoteVolume: current.quoteVolume,
        trades: current.trades,
      };
    }
    return {
      openTime: closed.openTime,
      open: closed.open,
      high: open ? Math.max(closed.high, current.high) : closed.high,
      low: open ? Math.min(closed.low, current.low) : closed.low,
      last: current.close,
      volume: closed.volume + (open ? current.volume : 0),
      quoteVolume: closed.quoteVolume + (open ? current.quoteVolume : 0n),
      trades: closed.trades + (open ? current.trades : 0),
    };
  }
}

/** A 24 h ticker as exact decimal strings. */
export interface TickerFigures {
  readonly lastPrice: string;
  readonly openPrice: string;
  readonly highPrice: string;
  readonly lowPrice: string;
  readonly priceChange: string;
  /** Percent with two decimals, rounded half away from zero ("-1.25"). */
  readonly priceChangePercent: string;
  readonly volume: string;
  readonly quoteVolume: string;
  readonly trades: number;
  readonly openTime: number;
}

export function formatTicker(spec: InstrumentSpec, s: TickerStats): TickerFigures {
  const change = BigInt(s.last - s.open) * spec.tickUnits;
  // (last - open) / open x 100, at two decimals: x 10 000, rounded half away from zero.
  const num = BigInt(s.last - s.open) * 10_000n;
  const den = BigInt(s.open);
  const q = den === 0n ? 0n : (num < 0n ? num - den / 2n : num + den / 2n) / den;
  return {
    lastPrice: ticksToPrice(spec, s.last),
    openPrice: ticksToPrice(spec, s.open),
    highPrice: ticksToPrice(spec, s.high),
    lowPrice: ticksToPrice(spec, s.low),
    priceChange: formatScaled(change, spec.priceDecimals),
    priceChangePercent: formatScaled(q, 2),
    volume: lotsToQty(spec, s.volume),
    quoteVolume: formatNotional(spec, s.quoteVolume),
    trades: s.trades,
    openTime: s.openTime,
  };
}
