import { bucketStart } from "./intervals.ts";
import { RingBuffer } from "./ring-buffer.ts";

/**
 * One OHLCV candle in engine units: prices in ticks, base volume in lots, quote
 * volume in notional minor units (ticks x tick units x lots x lot units, see
 * `notionalMinor`), so sums stay exact.
 */
export interface Candle {
  /** UTC start of the bucket (ms). */
  readonly openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  quoteVolume: bigint;
  trades: number;
}

/** A price path segment: a generated history bar or a single trade (open = high = low = close). */
export interface Bar {
  /** Start of the bar (ms). A trade is a bar of zero length at its time. */
  readonly time: number;
  /** Length (ms): 0 for a trade. Only series at least this long may take the bar. */
  readonly span: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
  readonly quoteVolume: bigint;
  readonly trades: number;
}

/** A trade as a bar of zero length. */
export function tradeBar(time: number, price: number, lots: number, quoteMinor: bigint): Bar {
  return {
    time,
    span: 0,
    open: price,
    high: price,
    low: price,
    close: price,
    volume: lots,
    quoteVolume: quoteMinor,
    trades: 1,
  };
}

/**
 * Candles of one interval in a ring buffer. Bars must arrive in time order and lie
 * inside one bucket of this interval (a bar from a finer or equal resolution); a bar
 * in a later bucket closes the open candle. Buckets skipped without trades become
 * flat candles at the last close, so charts have no holes.
 */
export class CandleSeries {
  readonly intervalMs: number;
  private readonly buf: RingBuffer<Candle>;

  constructor(intervalMs: number, capacity: number) {
    this.intervalMs = intervalMs;
    this.buf = new RingBuffer<Candle>(capacity);
  }

  get size(): number {
    return this.buf.size;
  }

  /** The newest candle (possibly still open), or undefined. */
  last(): Candle | undefined {
    return this.buf.last();
  }

  /** Adds a bar; returns the candle it landed in (live, do not keep). */
  apply(bar: Bar): Candle {
    const start = bucketStart(bar.time, this.intervalMs);
    const cur = this.buf.last();
    if (cur !== undefined && start < cur.openTime) {
      throw new RangeError(`bar at ${bar.time} is older than the open candle at ${cur.openTime}`);
    }
    if (cur !== undefined && start === cur.openTime) {
      if (bar.high > cur.high) cur.high = bar.high;
      if (bar.low < cur.low) cur.low = bar.low;
      cur.close = bar.close;
      cur.volume += bar.volume;
      cur.quoteVolume += bar.quoteVolume;
      cur.trades += bar.trades;
      return cur;
    }
    if (cur !== undefined) {
      // Flat candles for empty buckets, at most a buffer's worth (older ones would be dropped anyway).
      const gap = (start - cur.openTime) / this.intervalMs - 1;
      const fill = Math.min(gap, this.buf.capacity);
      for (let i = fill; i >= 1; i--) {
        const p = cur.close;
        this.buf.push({
          openTime: start - i * this.intervalMs,
          open: p,
          high: p,
          low: p,
          close: p,
          volume: 0,
          quoteVolume: 0n,
          trades: 0,
        });
      }
    }
    const candle: Candle = {
      openTime: start,
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      volume: bar.volume,
      quoteVolume: bar.quoteVolume,
      trades: bar.trades,
    };
    this.buf.push(candle);
    return candle;
  }

  /**
   * Up to `limit` candles, oldest first, whose open time is at or before `endTime`
   * (default: all), as copies.
   */
  list(limit: number, endTime?: number): Candle[] {
    const n = this.buf.size;
    let end = n;
    if (endTime !== undefined) {
      // Binary search: the first candle opening after endTime.
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const c = this.buf.at(mid);
        if (c !== undefined && c.openTime <= endTime) lo = mid + 1;
        else hi = mid;
      }
      end = lo;
    }
    const out: Candle[] = [];
    for (let i = Math.max(0, end - limit); i < end; i++) {
      const c = this.buf.at(i);
      if (c !== undefined) out.push({ ...c });
    }
    return out;
  }

  /** Candles with `openTime >= from`, oldest first, without copying (read only). */
  *since(from: number): Generator<Candle> {
    const n = this.buf.size;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.buf.at(mid);
      if (c !== undefined && c.openTime < from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < n; i++) {
      const c = this.buf.at(i);
      if (c !== undefined) yield c;
    }
  }
}
