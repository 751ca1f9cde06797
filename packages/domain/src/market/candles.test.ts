import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineInstrument, type InstrumentSpec } from "../instrument.ts";
import { asAsset, asSymbol } from "../units.ts";
import { type Bar, CandleSeries, tradeBar } from "./candles.ts";
import { bucketStart, INTERVAL_LIST, KLINE_INTERVALS } from "./intervals.ts";
import { RingBuffer } from "./ring-buffer.ts";
import { formatTicker, RollingTicker } from "./ticker.ts";

function spec(): InstrumentSpec {
  const r = defineInstrument({
    symbol: asSymbol("ETHUSDT"),
    base: asAsset("ETH"),
    quote: asAsset("USDT"),
    tickSize: "0.01",
    lotSize: "0.0001",
    minNotional: "5",
  });
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
}

const T0 = Date.UTC(2026, 2, 1, 23, 58, 30); // 30 s before 23:59 UTC
const trade = (t: number, price: number, qty = 1) => tradeBar(t, price, qty, BigInt(price * qty));

describe("ring buffer", () => {
  it("keeps the newest items up to capacity", () => {
    const b = new RingBuffer<number>(3);
    for (let i = 1; i <= 5; i++) b.push(i);
    expect(b.tail()).toEqual([3, 4, 5]);
    expect(b.tail(2)).toEqual([4, 5]);
    expect(b.at(0)).toBe(3);
    expect(b.last()).toBe(5);
    expect(b.size).toBe(3);
  });
});

describe("candle aggregation", () => {
  it("buckets in UTC: 1d candles open at 00:00 UTC and 4h ones at 00, 04, ... 20", () => {
    expect(new Date(bucketStart(T0, KLINE_INTERVALS["1d"])).toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(new Date(bucketStart(T0, KLINE_INTERVALS["4h"])).toISOString()).toBe("2026-03-01T20:00:00.000Z");
    expect(new Date(bucketStart(T0, KLINE_INTERVALS["30m"])).toISOString()).toBe("2026-03-01T23:30:00.000Z");
  });

  it("builds OHLCV from trades and splits exactly at interval boundaries", () => {
    const m1 = new CandleSeries(KLINE_INTERVALS["1m"], 100);
    const d1 = new CandleSeries(KLINE_INTERVALS["1d"], 100);
    const trades = [
      trade(T0, 100, 2), // 23:58:30
      trade(T0 + 10_000, 105, 1),
      trade(T0 + 29_999, 98, 3), // 23:58:59.999, last of the minute
      trade(T0 + 30_000, 99, 1), // 23:59:00.000, opens the next minute
      trade(T0 + 89_999, 101, 4), // 23:59:59.999, last of the UTC day
      trade(T0 + 90_000, 120, 5), // 00:00:00.000 next day
    ];
    for (const t of trades) {
      m1.apply(t);
      d1.apply(t);
    }
    const minutes = m1.list(10);
    expect(minutes.map((c) => new Date(c.openTime).toISOString().slice(11, 19))).toEqual([
      "23:58:00",
      "23:59:00",
      "00:00:00",
    ]);
    expect(minutes[0]).toMatchObject({ open: 100, high: 105, low: 98, close: 98, volume: 6, trades: 3 });
    expect(minutes[0]?.quoteVolume).toBe(200n + 105n + 294n);
    expect(minutes[1]).toMatchObject({ open: 99, high: 101, low: 99, close: 101, volume: 5, trades: 2 });
    expect(minutes[2]).toMatchObject({ open: 120, high: 120, low: 120, close: 120, volume: 5 });
    const days = d1.list(10);
    expect(days).toHaveLength(2);
    expect(days[0]).toMatchObject({ open: 100, high: 105, low: 98, close: 101, volume: 11, trades: 5 });
    expect(days[1]?.openTime).toBe(Date.UTC(2026, 2, 2));
  });

  it("aggregates finer candles into every coarser interval consistently", () => {
    const series = INTERVAL_LIST.map((i) => new CandleSeries(KLINE_INTERVALS[i], 5000));
    const start = Date.UTC(2026, 0, 1);
    let price = 1000;
    let i = 0;
    for (let t = start; t < start + 2 * 86_400_000; t += 37_000) {
      price = Math.max(1, price + (i++ % 7) - 3);
      for (const s of series) s.apply(trade(t, price));
    }
    const minutes = series[0]?.list(5000) ?? [];
    expect(minutes.length).toBe(2880);
    for (const s of series.slice(1)) {
      for (const c of s.list(5000)) {
        const inside = minutes.filter(
          (m) => m.openTime >= c.openTime && m.openTime < c.openTime + s.intervalMs,
        );
        expect(c.open).toBe(inside[0]?.open);
        expect(c.close).toBe(inside[inside.length - 1]?.close);
        expect(c.high).toBe(Math.max(...inside.map((m) => m.high)));
        expect(c.low).toBe(Math.min(...inside.map((m) => m.low)));
        expect(c.volume).toBe(inside.reduce((v, m) => v + m.volume, 0));
      }
    }
  });

  it("fills empty buckets with flat candles at the last close", () => {
    const m1 = new CandleSeries(60_000, 10);
    m1.apply(trade(0, 50));
    m1.apply(trade(3 * 60_000 + 5, 70));
    expect(m1.list(10).map((c) => [c.openTime, c.open, c.close, c.volume])).toEqual([
      [0, 50, 50, 1],
      [60_000, 50, 50, 0],
      [120_000, 50, 50, 0],
      [180_000, 70, 70, 1],
    ]);
  });

  it("refuses bars older than the open candle and pages by endTime", () => {
    const m1 = new CandleSeries(60_000, 10);
    for (let i = 0; i < 5; i++) m1.apply(trade(i * 60_000, 10 + i));
    expect(() => m1.apply(trade(0, 1))).toThrow(RangeError);
    expect(m1.list(2, 2 * 60_000).map((c) => c.open)).toEqual([11, 12]);
    expect(m1.list(100, 59_999).map((c) => c.open)).toEqual([10]);
  });
});

describe("rolling 24 h ticker", () => {
  it("covers the 1 440 minutes ending with the open one", () => {
    const s = spec();
    const m1 = new CandleSeries(60_000, 2000);
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 1500; i++) m1.apply(trade(start + i * 60_000, 10_000 + i, 2));
    const now = start + 1499 * 60_000 + 1000;
    const stats = new RollingTicker().stats(m1, now);
    // Window: minutes 60 .. 1499.
    expect(stats).toMatchObject({
      open: 10_060,
      high: 11_499,
      low: 10_060,
      last: 11_499,
      volume: 2880,
      trades: 1440,
    });
    if (!stats) throw new Error("stats");
    const f = formatTicker(s, stats);
    expect(f).toMatchObject({
      lastPrice: "114.99",
      openPrice: "100.60",
      priceChange: "14.39",
      priceChangePercent: "14.30",
      volume: "0.2880",
    });
  });

  it("rounds the change percent half away from zero, negatives included", () => {
    const s = spec();
    const base = { openTime: 0, high: 0, low: 0, volume: 0, quoteVolume: 0n, trades: 0 };
    expect(formatTicker(s, { ...base, open: 30_000, last: 29_999 }).priceChangePercent).toBe("0.00");
    expect(formatTicker(s, { ...base, open: 8_000, last: 7_999 }).priceChangePercent).toBe("-0.01");
    expect(formatTicker(s, { ...base, open: 200, last: 150 }).priceChangePercent).toBe("-25.00");
    expect(formatTicker(s, { ...base, open: 200, last: 150 }).priceChange).toBe("-0.50");
  });
});

describe("a feed gap filled from the exchange's minute bars", () => {
  const MIN = 60_000;
  /** Minute bars of trades, as the exchange would print them. */
  const minuteBars = (trades: readonly Bar[]): Bar[] => {
    const byMinute = new CandleSeries(MIN, 10_000);
    for (const t of trades) byMinute.apply(t);
    return byMinute
      .list(10_000)
      .filter((c) => c.trades > 0)
      .map((c) => ({ ...c, time: c.openTime, span: MIN }));
  };

  it("gives every series the candles it would have had without the gap", () => {
    // Trades before the gap, at least one in each of the gap's whole minutes, then after.
    const minuteTrades = fc.array(
      fc.tuple(fc.integer({ min: 0, max: MIN - 1 }), fc.integer({ min: 100, max: 200 })),
      {
        minLength: 1,
        maxLength: 3,
      },
    );
    fc.assert(
      fc.property(
        fc.array(minuteTrades, { minLength: 2, maxLength: 8 }),
        fc.array(minuteTrades, { minLength: 1, maxLength: 40 }),
        fc.array(minuteTrades, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 400 }),
        (before, gap, after, offset) => {
          const start = Date.UTC(2026, 2, 1, 10, 0) + offset * MIN;
          const at = (minutes: Array<Array<[number, number]>>, first: number) =>
            minutes.flatMap((m, i) =>
              [...m].sort((a, b) => a[0] - b[0]).map(([ms, px]) => trade(first + i * MIN + ms, px)),
            );
          const pre = at(before, start);
          const gapStart = start + before.length * MIN + MIN; // a quiet minute between
          const missed = at(gap, gapStart);
          const post = at(after, gapStart + gap.length * MIN);
          const from = pre[pre.length - 1]?.time ?? 0;
          const to = post[0]?.time ?? 0;
          for (const interval of INTERVAL_LIST) {
            const ms = KLINE_INTERVALS[interval];
            const whole = new CandleSeries(ms, 2_000);
            for (const t of [...pre, ...missed, ...post]) whole.apply(t);
            const gapped = new CandleSeries(ms, 2_000);
            for (const t of [...pre, ...post]) gapped.apply(t);
            gapped.patchGap(minuteBars(missed), from, to);
            // The quiet minute before the gap is a flat candle in both; trade counts differ
            // only where the bars carried them (the exchange's bars do here).
            expect(gapped.list(2_000)).toEqual(whole.list(2_000));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("leaves candles outside the gap, and bars outside it, alone", () => {
    const s = new CandleSeries(MIN, 100);
    s.apply(trade(T0, 100));
    s.apply(trade(T0 + 5 * MIN, 110));
    const before = s.list(100);
    const bar = (time: number, px: number): Bar => ({ ...trade(time, px), span: MIN });
    // A bar in the minute of the last trade before the gap, and one past its end.
    s.patchGap([bar(bucketStart(T0, MIN), 500), bar(bucketStart(T0 + 5 * MIN, MIN), 500)], T0, T0 + 5 * MIN);
    expect(s.list(100)).toEqual(before);
  });
});
