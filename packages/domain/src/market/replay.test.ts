import { describe, expect, it } from "vitest";
import { defineInstrument, type InstrumentSpec } from "../instrument.ts";
import { asAsset, asSymbol } from "../units.ts";
import { CandleSeries, tradeBar } from "./candles.ts";
import { candlePath, parseCandleCsv } from "./replay.ts";

function spec(): InstrumentSpec {
  const r = defineInstrument({
    symbol: asSymbol("BTCUSDT"),
    base: asAsset("BTC"),
    quote: asAsset("USDT"),
    tickSize: "0.01",
    lotSize: "0.00001",
    minNotional: "5",
  });
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
}

const CSV = `open_time,open,high,low,close,volume
1767225600000,97000.00,97100.50,96950.00,97050.25,1.23456
1767225660000,97050.25,97060.00,96800.004,96810.10,0.5
`;

describe("candle CSV replay", () => {
  it("parses rows into ticks and lots, rounding to the nearest tick", () => {
    const r = parseCandleCsv(CSV, spec());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual([
      {
        openTime: 1767225600000,
        open: 9_700_000,
        high: 9_710_050,
        low: 9_695_000,
        close: 9_705_025,
        volume: 123_456,
      },
      {
        openTime: 1767225660000,
        open: 9_705_025,
        high: 9_706_000,
        low: 9_680_000,
        close: 9_681_010,
        volume: 50_000,
      },
    ]);
  });

  it("rejects malformed, unordered or inconsistent rows with the line number", () => {
    const cases = [
      "1,2,3",
      "abc,1,1,1,1,1",
      "1767225600000,100,99,98,100,1", // high below open
      "1767225600000,100,101,99,100,1\n1767225600000,100,101,99,100,1", // repeated time
      "1767225600000,1e3,1000,1000,1000,1",
    ];
    for (const text of cases) {
      const r = parseCandleCsv(text, spec());
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.error.field).toMatch(/^line \d+$/);
    }
  });

  it("replays each candle as four trades that rebuild it exactly", () => {
    const s = spec();
    const r = parseCandleCsv(CSV, s);
    if (!r.ok) throw new Error("parse");
    const series = new CandleSeries(60_000, 10);
    for (const c of r.value) {
      const points = candlePath(c, 60_000, s);
      expect(points.map((p) => p.offsetMs)).toEqual([0, 15_000, 30_000, 45_000]);
      for (const p of points) series.apply(tradeBar(c.openTime + p.offsetMs, p.price, p.qty, 0n));
    }
    const rebuilt = series.list(10).map(({ openTime, open, high, low, close, volume }) => ({
      openTime,
      open,
      high,
      low,
      close,
      volume,
    }));
    expect(rebuilt).toEqual(r.value);
  });

  it("visits the high first on a falling candle and the low first on a rising one", () => {
    const s = spec();
    const falling = { openTime: 0, open: 100, high: 110, low: 90, close: 95, volume: 8 };
    const rising = { ...falling, close: 105 };
    expect(candlePath(falling, 60_000, s).map((p) => p.price)).toEqual([100, 110, 90, 95]);
    expect(candlePath(rising, 60_000, s).map((p) => p.price)).toEqual([100, 90, 110, 105]);
  });
});
