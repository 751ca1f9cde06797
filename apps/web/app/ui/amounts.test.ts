import { describe, expect, it } from "vitest";
import { assetAmount, balanceAmount, transferPrefill, trimDecimal } from "./amounts.ts";

describe("assetAmount", () => {
  it("shows USDT grouped, in cents, cut down", () => {
    expect(assetAmount("USDT", "50000.00000000")).toBe("50,000.00");
    expect(assetAmount("USDT", "1234567.899")).toBe("1,234,567.89");
    expect(assetAmount("USDT", "0")).toBe("0.00");
  });

  it("shows other assets grouped, down to what they hold", () => {
    expect(assetAmount("BTC", "0.50000000")).toBe("0.5");
    expect(assetAmount("BTC", "1200.00012500")).toBe("1,200.000125");
    expect(trimDecimal("1000")).toBe("1,000");
  });
});

describe("balanceAmount", () => {
  it("lines a column up in each asset's precision: USDT in cents, BTC to the satoshi, XRP to 6", () => {
    expect(balanceAmount("USDT", "5996.88579086")).toBe("5,996.88");
    expect(balanceAmount("BTC", "0.49")).toBe("0.49000000");
    expect(balanceAmount("XRP", "1234.5")).toBe("1,234.500000");
  });
});

describe("transferPrefill", () => {
  it("suggests the shortfall when the wallet holds enough", () => {
    expect(transferPrefill("243.5", "50000.00000000")).toBe("243.5");
    expect(transferPrefill("50000", "50000.00000000")).toBe("50000");
  });

  it("never suggests more than may leave the wallet", () => {
    expect(transferPrefill("97012.34", "50000.00000000")).toBe("50000");
    expect(transferPrefill("1.01", "1.00500001")).toBe("1.00500001");
  });

  it("suggests nothing while the maximum is unknown, the wallet is empty, or nothing was suggested", () => {
    expect(transferPrefill("243.5", null)).toBe("");
    expect(transferPrefill("243.5", "0.00000000")).toBe("");
    expect(transferPrefill(undefined, "50000")).toBe("");
    expect(transferPrefill("abc", "50000")).toBe("");
  });
});
