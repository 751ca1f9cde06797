import { describe, expect, it } from "vitest";
import { exceedsAvailable, notionalCap, orderCost } from "./order-cost.ts";

const base = { leverage: 10, takerPpm: 500, available: "10000", stepSize: "0.001", notionalCap: null };

describe("orderCost", () => {
  it("is the initial margin plus the taker fee, and the most the available margin covers", () => {
    // 0.1 BTC at 50,000 = 5,000 notional: 500 margin at 10x, 2.5 fee at 0.05 %.
    const c = orderCost({ ...base, price: "50000", quantity: "0.1" });
    expect(c).toEqual({ margin: "500", cost: "502.5", maxQty: "1.99" });
    expect(exceedsAvailable(c, "502.49")).toBe(true);
    expect(exceedsAvailable(c, "502.5")).toBe(false);
  });

  it("follows the leverage and rounds the margin up to the ledger's unit", () => {
    const c = orderCost({ ...base, leverage: 3, price: "100", quantity: "1" });
    expect(c.margin).toBe("33.33333334");
    expect(orderCost({ ...base, leverage: 125, price: "50000", quantity: "" }).maxQty).toBe("23.529");
  });

  it("stays within the notional the risk bracket allows at that leverage", () => {
    const cap = notionalCap("BTCUSDT", 125);
    expect(cap).not.toBeNull();
    const c = orderCost({
      ...base,
      available: "1000000",
      leverage: 125,
      price: "50000",
      quantity: "",
      notionalCap: cap,
    });
    // BTCUSDT's first bracket (125x) ends at 50,000 USDT: just under one BTC at 50,000.
    expect(c.maxQty).toBe("0.999");
    expect(notionalCap("BTCUSDT", 1)).not.toBe(cap);
  });

  it("shows nothing without a price, and no maximum without available margin", () => {
    expect(orderCost({ ...base, price: "", quantity: "1" })).toEqual({
      margin: null,
      cost: null,
      maxQty: null,
    });
    expect(orderCost({ ...base, available: "-5", price: "50000", quantity: "" }).maxQty).toBe("0");
  });
});
