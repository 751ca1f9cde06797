import { describe, expect, it } from "vitest";
import { futuresFeeRates, ppmToPercent, tierFor, VIP_TIERS, vipTier } from "./vip-tiers.ts";

describe("VIP tiers", () => {
  it("runs from 0.1 %/0.1 % at VIP 0 to 0.02 %/0.04 % at VIP 9, never cheaper for takers", () => {
    expect(VIP_TIERS.map((t) => t.level)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([vipTier(0).makerPpm, vipTier(0).takerPpm]).toEqual([1000, 1000]);
    expect([ppmToPercent(vipTier(9).makerPpm), ppmToPercent(vipTier(9).takerPpm)]).toEqual(["0.02", "0.04"]);
    for (const t of VIP_TIERS) expect(t.makerPpm).toBeLessThanOrEqual(t.takerPpm);
    for (let i = 1; i < VIP_TIERS.length; i++) {
      const [prev, cur] = [VIP_TIERS[i - 1], VIP_TIERS[i]];
      expect(cur?.takerPpm).toBeLessThanOrEqual(prev?.takerPpm ?? 0);
      expect(BigInt(cur?.minVolume30d ?? 0)).toBeGreaterThan(BigInt(prev?.minVolume30d ?? 0));
    }
  });

  it("gives USDT-M perpetuals their own schedule: 0.02 %/0.05 % at VIP 0, cheaper each level", () => {
    expect(futuresFeeRates(0)).toEqual({ makerPpm: 200, takerPpm: 500 });
    expect(futuresFeeRates(9)).toEqual({ makerPpm: 0, takerPpm: 170 });
    expect(futuresFeeRates(42)).toEqual(futuresFeeRates(9));
    for (let i = 1; i < VIP_TIERS.length; i++) {
      const [prev, cur] = [futuresFeeRates(i - 1), futuresFeeRates(i)];
      expect(cur.takerPpm).toBeLessThan(prev.takerPpm);
      expect(cur.makerPpm).toBeLessThan(prev.makerPpm);
      expect(cur.makerPpm).toBeLessThanOrEqual(cur.takerPpm);
    }
  });

  it("clamps levels and picks the tier by volume or balance", () => {
    expect(vipTier(-3).level).toBe(0);
    expect(vipTier(42).level).toBe(9);
    expect(tierFor(0n, 0n).level).toBe(0);
    expect(tierFor(5_000_000n, 0n).level).toBe(2);
    expect(tierFor(0n, 500_000n).level).toBe(4);
    expect(ppmToPercent(250)).toBe("0.025");
  });
});
