import type { Kline } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { mergeCandle, niceStep, previewLayout } from "./kline-preview.tsx";

const MIN15 = 900_000;
const start = Date.UTC(2026, 10, 27, 0, 0);

function kline(i: number, open: number, close: number, volume = 1): Kline {
  return {
    openTime: start + i * MIN15,
    closeTime: start + (i + 1) * MIN15 - 1,
    open: open.toFixed(2),
    high: (Math.max(open, close) + 5).toFixed(2),
    low: (Math.min(open, close) - 5).toFixed(2),
    close: close.toFixed(2),
    volume: String(volume),
    quoteVolume: String(volume * open),
    trades: 1,
    closed: true,
  };
}

const rows = Array.from({ length: 200 }, (_, i) => kline(i, 100 + i, 101 + i, i + 1));

describe("the still chart", () => {
  it("rounds steps to 1, 2 or 5 times a power of ten", () => {
    expect(niceStep(1000, 10)).toBe(100);
    expect(niceStep(900, 6)).toBe(200);
    expect(niceStep(0.03, 10)).toBeCloseTo(0.005);
    expect(niceStep(0, 5)).toBe(1);
  });

  it("draws the latest bars that fit, 6 px apart, ending at the price scale", () => {
    const layout = previewLayout(rows, 412, 360, 2);
    expect(layout).not.toBeNull();
    if (!layout) return;
    const { bars, plotWidth, plotHeight } = layout;
    expect(bars.length).toBe(Math.floor(plotWidth / 6));
    expect(bars.at(-1)?.x).toBe(plotWidth - 3);
    expect(plotHeight).toBe(360 - 26);
    // Rising candles: the last body is the highest, every bar inside the plot.
    expect(bars.at(-1)?.bodyTop).toBeLessThan(bars[0]?.bodyTop ?? 0);
    for (const b of bars) {
      expect(b.wickTop).toBeGreaterThanOrEqual(0);
      expect(b.wickBottom).toBeLessThanOrEqual(plotHeight);
      expect(b.volumeTop).toBeGreaterThanOrEqual(plotHeight * 0.8 - 1e-9);
    }
    expect(layout.last).toMatchObject({ label: "300.00", up: true });
  });

  it("labels round prices and round times (the day at midnight UTC)", () => {
    const layout = previewLayout(rows, 1200, 500, 2);
    const prices = layout?.prices.map((p) => Number(p.label)) ?? [];
    expect(prices.length).toBeGreaterThan(2);
    const step = (prices[1] ?? 0) - (prices[0] ?? 0);
    for (const p of prices) expect((p / step) % 1).toBeCloseTo(0);
    const times = layout?.times.map((t) => t.label) ?? [];
    expect(times).toContain("28");
    for (const label of times) expect(label).toMatch(/^(\d{2}:\d{2}|\d{1,2}|[A-Z][a-z]{2})$/);
  });

  it("draws nothing without history or room", () => {
    expect(previewLayout([], 400, 300, 2)).toBeNull();
    expect(previewLayout(rows, 0, 0, 2)).toBeNull();
  });

  it("merges the live candle into the history", () => {
    const two = [kline(0, 1, 2), kline(1, 2, 3)];
    const update = kline(1, 2, 4);
    expect(mergeCandle(two, update)).toEqual([two[0], update]);
    const next = kline(2, 4, 5);
    expect(mergeCandle(two, next)).toEqual([...two, next]);
    expect(mergeCandle(two, kline(0, 9, 9))).toBe(two);
    expect(mergeCandle([], next)).toEqual([next]);
  });
});
