import { CandleSeries, defineInstrument, type InstrumentSpec } from "@meridian/domain";
import { describe, expect, it } from "vitest";
import { chainBars, type FetchedBar, numberToUnits, toUnits } from "./ccxt-bars.ts";

const r = defineInstrument({
  symbol: "BTCUSDT" as InstrumentSpec["symbol"],
  base: "BTC" as InstrumentSpec["base"],
  quote: "USDT" as InstrumentSpec["quote"],
  tickSize: "0.01",
  lotSize: "0.001",
  minNotional: "5",
});
if (!r.ok) throw new Error("spec");
const spec = r.value;
const M = 60_000;

/** Minute bars from `start`, closes 100.00, 100.01, ... (the same path at every interval). */
function path(start: number, minutes: number): FetchedBar[] {
  return Array.from({ length: minutes }, (_, i) => {
    const c = (10_000 + i) / 100;
    return {
      time: start + i * M,
      open: c.toFixed(2),
      high: (c + 0.5).toFixed(2),
      low: (c - 0.5).toFixed(2),
      close: c.toFixed(2),
      volume: "1",
    };
  });
}

/** The exchange's own aggregation of minute bars into `ms` bars. */
function aggregate(bars: readonly FetchedBar[], ms: number): FetchedBar[] {
  const out = new Map<number, FetchedBar>();
  for (const b of bars) {
    const t = Math.floor(b.time / ms) * ms;
    const o = out.get(t);
    if (o === undefined) out.set(t, { ...b, time: t });
    else
      out.set(t, {
        ...o,
        high: String(Math.max(Number(o.high), Number(b.high))),
        low: String(Math.min(Number(o.low), Number(b.low))),
        close: b.close,
        volume: String(Number(o.volume) + Number(b.volume)),
      });
  }
  return [...out.values()];
}

describe("toUnits", () => {
  it("rounds as asked and refuses bad input", () => {
    expect(toUnits("100.005", 2, 1n, "down")).toBe(10_000);
    expect(toUnits("100.005", 2, 1n, "up")).toBe(10_001);
    expect(toUnits("0.0015", 3, 1n, "nearest")).toBe(1);
    expect(toUnits("1.5", 2, 10n, "nearest")).toBe(15);
    expect(toUnits("1.55", 2, 10n, "nearest")).toBe(16);
    expect(toUnits("-1", 2, 1n, "down")).toBe(0);
    expect(toUnits("1e-7", 2, 1n, "down")).toBe(0);
  });
});

describe("numberToUnits", () => {
  // ccxt's numberToString for the values below (no exponent forms among them).
  const text = (n: number) => n.toString();
  const rounds = ["up", "down", "nearest"] as const;

  it("equals toUnits of the number's decimal text, on tick or not", () => {
    // Decimals on and off a 0.05 / 0.001 grid, at several magnitudes, with the digits
    // floats get wrong (0.1 + 0.2, 1.005) among them.
    const values = [0, 0.05, 0.1 + 0.2, 0.3, 1.005, 1.15, 2.675, 100.005, 65_000.1, 65_000.15, 0.00012345];
    for (let i = 0; i < 2_000; i++) {
      const digits = i % 9;
      values.push(Math.round(((i * 7_919) % 1_000_003) * 1.37 * 10 ** digits) / 10 ** digits);
    }
    for (const n of values)
      for (const [decimals, unit] of [
        [2, 5n],
        [3, 1n],
        [8, 1n],
        [0, 1n],
      ] as const)
        for (const round of rounds)
          expect(numberToUnits(n, decimals, unit, round, text), `${n} ${decimals} ${unit} ${round}`).toBe(
            toUnits(text(n), decimals, unit, round),
          );
  });

  it("sends what it cannot take exactly through the text", () => {
    const seen: number[] = [];
    const spy = (n: number) => {
      seen.push(n);
      return text(n);
    };
    expect(numberToUnits(65_000.1, 2, 1n, "down", spy)).toBe(6_500_010);
    expect(seen).toEqual([]);
    expect(numberToUnits(100.005, 2, 1n, "up", spy)).toBe(10_001);
    expect(numberToUnits(-1, 2, 1n, "down", spy)).toBe(0);
    expect(numberToUnits(Number.NaN, 2, 1n, "down", spy)).toBe(0);
    expect(numberToUnits(1e300, 2, 1n, "down", (n) => BigInt(n).toString())).toBe(
      Number(BigInt(1e300) * 100n),
    );
    expect(seen).toEqual([100.005, -1, Number.NaN]);
  });
});

describe("chainBars", () => {
  it("gives every interval the candles the exchange printed, none counted twice", () => {
    const end = Date.UTC(2026, 11, 5, 10, 0);
    const start = end - 3 * 24 * 60 * M;
    const minutes = path(start, 3 * 24 * 60);
    const fetched = new Map<number, FetchedBar[]>([
      [M, minutes.slice(-307)],
      [15 * M, aggregate(minutes, 15 * M).slice(-101)],
      [60 * M, aggregate(minutes, 60 * M)],
    ]);
    const bars = chainBars(spec, fetched);
    for (let i = 1; i < bars.length; i++) expect(bars[i]?.time).toBeGreaterThan(bars[i - 1]?.time ?? 0);
    for (const ms of [M, 15 * M, 60 * M]) {
      const series = new CandleSeries(ms, 5000);
      for (const b of bars) if (ms >= b.span) series.apply(b);
      const want = new Map(aggregate(minutes, ms).map((b) => [b.time, b]));
      const got = series.list(5000);
      expect(got.length).toBeGreaterThan(0);
      for (const c of got) {
        const w = want.get(c.openTime);
        expect([c.open, c.high, c.low, c.close, c.volume]).toEqual([
          Math.round(Number(w?.open) * 100),
          Math.round(Number(w?.high) * 100),
          Math.round(Number(w?.low) * 100),
          Math.round(Number(w?.close) * 100),
          Number(w?.volume) * 1000,
        ]);
      }
    }
  });

  it("keeps the finer stretch when a coarser call failed", () => {
    const start = Date.UTC(2026, 11, 5, 9, 0);
    const bars = chainBars(
      spec,
      new Map([
        [M, path(start, 10)],
        [60 * M, []],
      ]),
    );
    expect(bars.map((b) => b.time)).toEqual(path(start, 10).map((b) => b.time));
  });
});
