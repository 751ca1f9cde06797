import { describe, expect, it } from "vitest";
import { coinMaxContracts, coinOrderCost, exceedsAvailable, notionalCap, orderCost } from "./order-cost.ts";

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

describe("coinOrderCost", () => {
  const coin = { takerPpm: 500, contractValue: "100", marginDecimals: 8, maxContracts: null };

  it("prices contracts in the coin (docs/trading.md worked example 1)", () => {
    // 10 BTCUSD at 50,000 are worth 1,000 / 50,000 = 0.02 BTC: 0.001 at 20x, fee 0.00001.
    const c = coinOrderCost({ ...coin, leverage: 20, available: "0.01", price: "50000", quantity: "10" });
    expect(c).toEqual({ margin: "0.001", cost: "0.00101", maxQty: "99" });
    // An independent sum: per contract 100 / 50,000 / 20 + 100 / 50,000 x 0.0005 BTC.
    const perContract = 100 / 50_000 / 20 + (100 / 50_000) * 0.0005;
    expect(Number(c.maxQty)).toBe(Math.floor(0.01 / perContract));
  });

  it("rounds the margin up to the coin's minor unit and caps at the bracket", () => {
    // 1 contract at 30,000.1 at 3x: 0.0033333222... / 3 = 0.0011111074... BTC, up to 0.00111111.
    const c = coinOrderCost({ ...coin, leverage: 3, available: "1", price: "30000.1", quantity: "1" });
    expect(c.margin).toBe("0.00111111");
    // BTCUSD's 125x bracket ends at 5 BTC: at 50,000 just under 2,500 contracts.
    const cap = coinMaxContracts("BTCUSD", 125, "50000");
    expect(cap).toBe("2499");
    const capped = coinOrderCost({
      ...coin,
      leverage: 125,
      available: "100",
      price: "50000",
      quantity: "",
      maxContracts: cap,
    });
    expect(capped.maxQty).toBe("2499");
    expect(coinMaxContracts("BTCUSDT", 125, "50000")).toBeNull();
  });
});
