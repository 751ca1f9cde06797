import { describe, expect, it } from "vitest";
import { priceToTicks, ticksToPrice } from "../instrument.ts";
import { generateHistory, historyWindows } from "./history.ts";
import { INTERVAL_LIST, KLINE_INTERVALS } from "./intervals.ts";
import { listInstruments, MARKET_LISTINGS, marketCap } from "./listings.ts";
import { PriceModel } from "./price-model.ts";
import { nextTrade } from "./trades.ts";

function instruments() {
  const r = listInstruments();
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
}

const btc = () => {
  const found = instruments().find((i) => i.spec.symbol === "BTCUSDT");
  if (!found) throw new Error("no BTCUSDT");
  return found;
};

function path(seed: number, steps: number, dtMinutes = 1): number[] {
  const m = new PriceModel(seed, 100, { annualVol: 0.8 });
  const out: number[] = [];
  for (let i = 0; i < steps; i++) out.push(m.step(dtMinutes).logReturn);
  return out;
}

/** Lag-k autocorrelation. */
function autocorr(xs: readonly number[], k: number): number {
  const n = xs.length;
  const mean = xs.reduce((s, x) => s + x, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const d = (xs[i] ?? 0) - mean;
    den += d * d;
    if (i + k < n) num += d * ((xs[i + k] ?? 0) - mean);
  }
  return num / den;
}

describe("listings", () => {
  it("lists at least 10 USDT pairs whose specs and reference prices are valid and on tick", () => {
    const list = instruments();
    expect(list.length).toBeGreaterThanOrEqual(10);
    for (const sym of [
      "BTCUSDT",
      "ETHUSDT",
      "SOLUSDT",
      "BNBUSDT",
      "XRPUSDT",
      "TONUSDT",
      "DOGEUSDT",
      "ADAUSDT",
      "NOTUSDT",
      "TRXUSDT",
    ]) {
      expect(list.some((i) => i.spec.symbol === sym)).toBe(true);
    }
    for (const { spec, listing } of list) {
      const ticks = priceToTicks(spec, listing.refPrice);
      expect(ticks.ok, spec.symbol).toBe(true);
      if (ticks.ok) expect(ticksToPrice(spec, ticks.value)).toBe(listing.refPrice);
    }
    expect(new Set(MARKET_LISTINGS.map((l) => l.instrument.symbol)).size).toBe(MARKET_LISTINGS.length);
  });

  it("computes market cap exactly as supply x price, in cents", () => {
    const { spec } = btc();
    // 19 950 000 x 97 000.00 = 1 935 150 000 000.00
    expect(marketCap(spec, "19950000", 9_700_000)).toBe("1935150000000.00");
    const not = instruments().find((i) => i.spec.symbol === "NOTUSDT");
    if (!not) throw new Error("no NOTUSDT");
    // 102 500 000 000 x 0.004501 = 461 352 500.00
    expect(marketCap(not.spec, "102500000000", 4501)).toBe("461352500.00");
  });
});

describe("price model", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    expect(path(7, 500)).toEqual(path(7, 500));
    expect(path(7, 500)).not.toEqual(path(8, 500));
  });

  it("clusters volatility: squared returns are positively autocorrelated, raw returns barely", () => {
    const r = path(42, 20_000);
    const sq = r.map((x) => x * x);
    const sqAc = [1, 2, 5].map((k) => autocorr(sq, k));
    for (const ac of sqAc) expect(ac).toBeGreaterThan(0.05);
    expect(Math.abs(autocorr(r, 1))).toBeLessThan(0.05);
  });

  it("has about the configured volatility", () => {
    const r = path(3, 50_000);
    const variance = r.reduce((s, x) => s + x * x, 0) / r.length;
    const annual = Math.sqrt(variance * 365 * 24 * 60);
    // Jumps add a little on top of the diffusion's 80 %.
    expect(annual).toBeGreaterThan(0.6);
    expect(annual).toBeLessThan(1.3);
  });

  it("prints trades that are always positive, on tick and within the lot range", () => {
    for (const { spec, listing } of instruments()) {
      const m = new PriceModel(11, Number(listing.refPrice), listing.model);
      for (let i = 0; i < 2_000; i++) {
        const t = nextTrade(m, spec, 1 / 240, 50);
        expect(Number.isSafeInteger(t.price)).toBe(true);
        expect(t.price).toBeGreaterThanOrEqual(spec.minPriceTicks);
        expect(t.qty).toBeGreaterThanOrEqual(spec.minQtyLots);
        const text = ticksToPrice(spec, t.price);
        expect(priceToTicks(spec, text)).toEqual({ ok: true, value: t.price });
      }
    }
  });

  it("keeps a near-worthless coin positive: the price floor is one tick", () => {
    const { spec } = btc();
    const m = new PriceModel(5, 0.02, { annualVol: 5, jumpsPerDay: 200, jumpStd: 0.5 });
    for (let i = 0; i < 5_000; i++) expect(nextTrade(m, spec, 1, 1).price).toBeGreaterThanOrEqual(1);
  });
});

describe("history", () => {
  const end = Date.UTC(2026, 0, 15, 10, 37);

  it("lays segments end to end, each on its coarser neighbour's boundary", () => {
    const w = historyWindows(end);
    expect(w[w.length - 1]?.end).toBe(end);
    for (let i = 1; i < w.length; i++) {
      const prev = w[i - 1];
      const cur = w[i];
      if (!prev || !cur) throw new Error("window");
      expect(cur.start).toBe(prev.end);
      expect(cur.start % prev.stepMs).toBe(0);
      expect((cur.end - cur.start) % cur.stepMs).toBe(0);
    }
  });

  it("is deterministic, ends exactly at the reference and gives every interval >= 500 bars", () => {
    const { spec } = btc();
    const make = () =>
      generateHistory(new PriceModel(9, 97_000, { annualVol: 0.55 }), spec, {
        end,
        closeTicks: 9_700_000,
        lotsPerMinute: 1000,
      });
    const a = make();
    expect(a).toEqual(make());
    expect(a[a.length - 1]?.close).toBe(9_700_000);
    for (const bar of a) {
      expect(bar.low).toBeGreaterThanOrEqual(1);
      expect(bar.low).toBeLessThanOrEqual(Math.min(bar.open, bar.close));
      expect(bar.high).toBeGreaterThanOrEqual(Math.max(bar.open, bar.close));
    }
    for (const interval of INTERVAL_LIST) {
      const ms = KLINE_INTERVALS[interval];
      const buckets = new Set(a.map((b) => Math.floor(b.time / ms)));
      expect(buckets.size, interval).toBeGreaterThanOrEqual(500);
    }
  });
});
