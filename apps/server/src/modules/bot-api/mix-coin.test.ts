import { describe, expect, it } from "vitest";
import { BitgetError } from "./bitget.ts";
import { checkCoinOrder, checkProduct, marginCoinOf } from "./mix.ts";
import { listedPerp } from "./public.ts";

/** The Bitget code a check throws, or "" when it passes. */
function codeOf(run: () => void): string {
  try {
    run();
    return "";
  } catch (e) {
    if (e instanceof BitgetError) return e.code;
    throw e;
  }
}

describe("coin-M requests on the mix endpoints", () => {
  it("names a contract under its own product type and margin coin only", () => {
    expect(
      codeOf(() => checkProduct({ productType: "COIN-FUTURES", symbol: "BTCUSD", marginCoin: "BTC" })),
    ).toBe("");
    expect(
      codeOf(() => checkProduct({ productType: "USDT-FUTURES", symbol: "BTCUSDT", marginCoin: "USDT" })),
    ).toBe("");
    // BTCUSD is no USDT-FUTURES symbol, BTCUSDT no COIN-FUTURES one: Bitget's unknown symbol.
    expect(codeOf(() => checkProduct({ productType: "USDT-FUTURES", symbol: "BTCUSD" }))).toBe("40309");
    expect(codeOf(() => checkProduct({ productType: "COIN-FUTURES", symbol: "BTCUSDT" }))).toBe("40309");
    // The margin coin must be the contract's coin, and USDT only for USDT-M.
    expect(
      codeOf(() => checkProduct({ productType: "COIN-FUTURES", symbol: "BTCUSD", marginCoin: "ETH" })),
    ).toBe("40020");
    expect(codeOf(() => checkProduct({ productType: "COIN-FUTURES", marginCoin: "USDT" }))).toBe("40020");
    expect(codeOf(() => checkProduct({ productType: "USDT-FUTURES", marginCoin: "BTC" }))).toBe("40020");
    expect(marginCoinOf("XRPUSD")).toBe("XRP");
    expect(marginCoinOf("XRPUSDT")).toBe("USDT");
  });

  it("reads a coin-M contract's market data from its coin's spot market", () => {
    expect(listedPerp("COIN-FUTURES", "ETHUSD")).toEqual({ symbol: "ETHUSD", market: "ETHUSDT" });
    expect(listedPerp("USDT-FUTURES", "ETHUSDT")).toEqual({ symbol: "ETHUSDT", market: "ETHUSDT" });
  });

  it("takes whole contracts on the tick, with Bitget's size and price scale codes", () => {
    expect(codeOf(() => checkCoinOrder("BTCUSD", "10", "50000.1"))).toBe("");
    expect(codeOf(() => checkCoinOrder("BTCUSD", "0.5", undefined))).toBe("40808");
    expect(codeOf(() => checkCoinOrder("BTCUSD", "0", undefined))).toBe("40808");
    expect(codeOf(() => checkCoinOrder("BTCUSD", "1", "50000.05"))).toBe("41103");
    // A USDT-M order is the service's to check (fractional sizes are its unit).
    expect(codeOf(() => checkCoinOrder("BTCUSDT", "0.5", "50000.05"))).toBe("");
  });
});
