import { describe, expect, it } from "vitest";
import {
  bracketFor,
  initialMargin,
  maintenanceMargin,
  maxLeverageFor,
  notionalAt,
  PERP_CONTRACTS,
  requirePerp,
} from "./contracts.ts";
import { usdt } from "./scales.ts";

describe("perpetual contracts", () => {
  it("lists the six USDT-M perpetuals with dense indexes", () => {
    expect(PERP_CONTRACTS.map((c) => c.symbol)).toEqual([
      "BTCUSDT",
      "ETHUSDT",
      "SOLUSDT",
      "BNBUSDT",
      "XRPUSDT",
      "DOGEUSDT",
    ]);
    expect(PERP_CONTRACTS.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(requirePerp("BTCUSDT").maxLeverage).toBe(125);
    expect(requirePerp("ETHUSDT").maxLeverage).toBe(125);
    for (const c of PERP_CONTRACTS.slice(2)) expect(c.maxLeverage).toBeLessThan(125);
  });

  it("derives Binance's BTCUSDT maintenance amounts from the rate steps", () => {
    const cum = requirePerp("BTCUSDT").brackets.map((b) => b.maintAmount / usdt(1));
    expect(cum).toEqual([
      0n,
      50n,
      1_300n,
      16_300n,
      266_300n,
      1_266_300n,
      2_516_300n,
      5_016_300n,
      25_016_300n,
      100_016_300n,
    ]);
  });

  it("keeps every bracket consistent: contiguous, rates rising, leverage falling, MMR below IMR", () => {
    for (const c of PERP_CONTRACTS) {
      let prev = c.brackets[0];
      expect(prev?.floor).toBe(0n);
      for (const b of c.brackets.slice(1)) {
        if (prev === undefined) throw new Error("no bracket");
        expect(b.floor).toBe(prev.cap);
        expect(b.mmrPpm).toBeGreaterThan(prev.mmrPpm);
        expect(b.maxLeverage).toBeLessThan(prev.maxLeverage);
        // Continuity: both brackets give the same maintenance margin at the edge.
        const atEdgeLow = (b.floor * BigInt(prev.mmrPpm)) / 1_000_000n - prev.maintAmount;
        const atEdgeHigh = (b.floor * BigInt(b.mmrPpm)) / 1_000_000n - b.maintAmount;
        expect(atEdgeHigh).toBe(atEdgeLow);
        prev = b;
      }
      for (const b of c.brackets) expect(b.mmrPpm * b.maxLeverage).toBeLessThan(1_000_000);
    }
  });

  it("converts ticks x lots to USDT minor units exactly", () => {
    // BTCUSDT tick 0.1, lot 0.001: 1 BTC (1,000 lots) at 50,000.0 (500,000 ticks) = 50,000 USDT.
    expect(notionalAt(requirePerp("BTCUSDT"), 1_000, 500_000)).toBe(usdt(50_000));
    // DOGEUSDT tick 0.00001, lot 1: 1,000 DOGE at 0.22 (22,000 ticks) = 220 USDT.
    expect(notionalAt(requirePerp("DOGEUSDT"), -1_000, 22_000)).toBe(usdt(220));
    expect(requirePerp("BTCUSDT").minorPerTickLot).toBe(10_000n);
  });

  it("picks brackets and maintenance margins by notional", () => {
    const btc = requirePerp("BTCUSDT");
    expect(bracketFor(btc, usdt(49_999)).bracket).toBe(1);
    expect(bracketFor(btc, usdt(50_000)).bracket).toBe(2);
    // 300,000 x 1 % - 1,300 = 1,700.
    expect(maintenanceMargin(btc, usdt(300_000))).toBe(usdt(1_700));
    // 10,000 x 0.4 % = 40.
    expect(maintenanceMargin(btc, usdt(10_000))).toBe(usdt(40));
    expect(maxLeverageFor(btc, usdt(40_000))).toBe(125);
    expect(maxLeverageFor(btc, usdt(2_000_000))).toBe(20);
    expect(maxLeverageFor(btc, usdt(600_000_000))).toBe(0);
    expect(initialMargin(usdt(50_000), 20)).toBe(usdt(2_500));
    expect(initialMargin(7n, 2)).toBe(4n);
  });

  it("caps funding at 0.75 x the first maintenance rate", () => {
    expect(requirePerp("BTCUSDT").fundingCapE8).toBe(300_000n); // 0.3 %
    expect(requirePerp("ETHUSDT").fundingCapE8).toBe(375_000n); // 0.375 %
  });
});
