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

  /**
   * Fills a gap in the feed (no trades heard between `from` and `to`, both exclusive) with
   * the exchange's bars of that stretch: each bar must lie inside the gap and inside one
   * candle of this series. A candle wholly inside the gap (a flat filler at the last close)
   * becomes the bars' candle; one that also holds trades heard before or after the gap
   * takes their extremes, volume and count, and its open (or close) only from the side
   * where the gap is. Candles no longer kept are skipped; bars outside the gap ignored.
   */
  patchGap(bars: readonly Bar[], from: number, to: number): void {
    const within = bars
      .filter((b) => b.time > from && b.time + b.span <= to && b.span <= this.intervalMs)
      .sort((a, b) => a.time - b.time);
    let i = 0;
    while (i < within.length) {
      const first = within[i];
      if (first === undefined) break;
      const start = bucketStart(first.time, this.intervalMs);
      let j = i;
      while (j < within.length && bucketStart(within[j]?.time ?? 0, this.intervalMs) === start) j++;
      const group = within.slice(i, j);
      i = j;
      const c = this.candleAt(start);
      const last = group[group.length - 1];
      if (c === undefined || last === undefined) continue;
      const gapAtStart = start > from;
      const gapAtEnd = start + this.intervalMs <= to;
      const high = Math.max(...group.map((b) => b.high));
      const low = Math.min(...group.map((b) => b.low));
      const volume = group.reduce((n, b) => n + b.volume, 0);
      const quoteVolume = group.reduce((n, b) => n + b.quoteVolume, 0n);
      const trades = group.reduce((n, b) => n + b.trades, 0);
      if (gapAtStart && gapAtEnd) {
        c.open = first.open;
        c.high = high;
        c.low = low;
        c.close = last.close;
        c.volume = volume;
        c.quoteVolume = quoteVolume;
        c.trades = trades;
        continue;
      }
      c.high = Math.max(c.high, high);
      c.low = Math.min(c.low, low);
      c.volume += volume;
      c.quoteVolume += quoteVolume;
      c.trades += trades;
      if (gapAtStart) c.open = first.open;
      if (gapAtEnd) c.close = last.close;
    }
  }

  /** The kept candle opening at `openTime`, live (binary search), or undefined. */
  private candleAt(openTime: number): Candle | undefined {
    let lo = 0;
    let hi = this.buf.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.buf.at(mid);
      if (c !== undefined && c.openTime < openTime) lo = mid + 1;
      else hi = mid;
    }
    const c = this.buf.at(lo);
    return c?.openTime === openTime ? c : undefined;
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
