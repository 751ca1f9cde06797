import { describe, expect, it } from "vitest";
import {
  anyPerpContract,
  COIN_MARGIN_ASSETS,
  COIN_PERP_CONTRACTS,
  perpFamilyOf,
  requireCoinPerp,
} from "./coin-contracts.ts";
import { maintenanceMargin, maxLeverageFor } from "./contracts.ts";

describe("coin-margined contracts", () => {
  it("lists the seven coins with their contract values", () => {
    expect(COIN_PERP_CONTRACTS.map((c) => [c.symbol, c.contractValue, c.marginAsset])).toEqual([
      ["BTCUSD", "100", "BTC"],
      ["ETHUSD", "10", "ETH"],
      ["SOLUSD", "10", "SOL"],
      ["XRPUSD", "10", "XRP"],
      ["DOGEUSD", "10", "DOGE"],
      ["ADAUSD", "10", "ADA"],
      ["LTCUSD", "10", "LTC"],
    ]);
    expect(COIN_MARGIN_ASSETS).toEqual(["BTC", "ETH", "SOL", "XRP", "DOGE", "ADA", "LTC"]);
    expect(COIN_PERP_CONTRACTS.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("values a contract in ticks and the margin coin's minor units", () => {
    const btc = requireCoinPerp("BTCUSD");
    expect(btc.contractValueTicks).toBe(1_000n);
    expect(btc.valuePerContract).toBe(100_000_000_000n);
    expect(btc.costScale).toBe(1_000_000n);
    expect(btc.instrument.lotSize).toBe("1");
    const xrp = requireCoinPerp("XRPUSD");
    expect(xrp.marginDecimals).toBe(6);
    expect(xrp.contractValueTicks).toBe(100_000n);
    expect(xrp.valuePerContract).toBe(100_000_000_000n);
  });

  it("keeps the largest cost of every contract inside a signed 64-bit column", () => {
    for (const c of COIN_PERP_CONTRACTS) {
      const last = c.brackets[c.brackets.length - 1];
      expect(last).toBeDefined();
      if (last !== undefined) expect(last.cap * 4n * c.costScale <= 2n ** 63n - 1n).toBe(true);
    }
  });

  it("applies BTCUSD's brackets in BTC", () => {
    const btc = requireCoinPerp("BTCUSD");
    expect(maxLeverageFor(btc, 4n * 100_000_000n)).toBe(125);
    expect(maxLeverageFor(btc, 6n * 100_000_000n)).toBe(100);
    // 0.02 BTC at 0.4 %: 0.00008 BTC.
    expect(maintenanceMargin(btc, 2_000_000n)).toBe(8_000n);
  });

  it("tells the families apart by symbol", () => {
    expect(perpFamilyOf("BTCUSD")).toBe("coin");
    expect(perpFamilyOf("BTCUSDT")).toBe("usdt");
    expect(perpFamilyOf("BTCUSDC")).toBeUndefined();
    expect(anyPerpContract("ETHUSD")?.marginAsset).toBe("ETH");
  });
});
