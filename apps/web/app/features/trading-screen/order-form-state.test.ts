import { ApiError } from "@meridian/client";
import type { MarketSymbolInfo, PlaceOrderBody } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import {
  estimatedFee,
  initialOrderForm,
  type OrderFormAction,
  type OrderFormMarket,
  type OrderFormState,
  orderBody,
  orderFormErrors,
  orderFormReducer,
  ppmRate,
  problemField,
  refusalKey,
  refusalProblem,
  validateOrder,
  validateTpSl,
} from "./order-form-state.ts";

const BTC: MarketSymbolInfo = {
  symbol: "BTCUSDT",
  base: "BTC",
  quote: "USDT",
  name: "Bitcoin",
  tickSize: "0.01",
  lotSize: "0.00001",
  minNotional: "5",
  priceDecimals: 2,
  qtyDecimals: 5,
  minQty: "0.00001",
  maxQty: "9000",
  status: "TRADING",
};

describe("order validation before placement", () => {
  it("turns ppm rates into fractions", () => {
    expect(ppmRate(1000)).toBe("0.001");
    expect(ppmRate(400)).toBe("0.0004");
  });

  it("asks for the fields each type needs", () => {
    expect(
      validateOrder(
        { symbol: "BTCUSDT", side: "BUY", type: "LIMIT", price: "", quantity: "1" },
        BTC,
        "1e9",
        1000,
      )?.key,
    ).toBe("form.errors.price");
    expect(
      validateOrder(
        { symbol: "BTCUSDT", side: "BUY", type: "STOP_LIMIT", price: "1", stopPrice: "0", quantity: "1" },
        BTC,
        "1",
        1000,
      )?.key,
    ).toBe("form.errors.stopPrice");
    expect(
      validateOrder({ symbol: "BTCUSDT", side: "SELL", type: "MARKET", quantity: "" }, BTC, "1", 1000)?.key,
    ).toBe("form.errors.amount");
  });

  it("checks the instrument filters and the balance including the taker fee", () => {
    const limit = (quantity: string, price = "100000") =>
      validateOrder({ symbol: "BTCUSDT", side: "BUY", type: "LIMIT", price, quantity }, BTC, "2000", 1000);
    expect(limit("0.00001", "100")).toMatchObject({ key: "form.errors.minNotional", params: { min: "5" } });
    expect(limit("0.01")).toBeNull();
    // 0.01 x 100000 = 1000, plus 0.1 % fee = 1001 > 1000 available.
    expect(
      validateOrder(
        { symbol: "BTCUSDT", side: "BUY", type: "LIMIT", price: "100000", quantity: "0.01" },
        BTC,
        "1000.99",
        1000,
      )?.key,
    ).toBe("form.errors.balance");
    expect(
      validateOrder(
        { symbol: "BTCUSDT", side: "SELL", type: "LIMIT", price: "1", quantity: "9001" },
        BTC,
        "1e9",
        1000,
      )?.key,
    ).toBe("form.errors.maxQty");
    expect(
      validateOrder({ symbol: "BTCUSDT", side: "SELL", type: "MARKET", quantity: "0.6" }, BTC, "0.5", 1000)
        ?.key,
    ).toBe("form.errors.balance");
    // A market buy's total already includes its fee (the server keeps price x qty + fee
    // within it), so the whole balance can be spent.
    expect(
      validateOrder({ symbol: "BTCUSDT", side: "BUY", type: "MARKET", quoteQty: "1000" }, BTC, "1000", 1000),
    ).toBeNull();
    expect(
      validateOrder(
        { symbol: "BTCUSDT", side: "BUY", type: "MARKET", quoteQty: "1000.01" },
        BTC,
        "1000",
        1000,
      )?.key,
    ).toBe("form.errors.balance");
  });

  it("values a stop-market order at its trigger and needs the trigger", () => {
    const stop = (side: "BUY" | "SELL", stopPrice: string, quantity: string, available: string) =>
      validateOrder(
        { symbol: "BTCUSDT", side, type: "STOP_MARKET", stopPrice, quantity },
        BTC,
        available,
        1000,
      )?.key ?? null;
    expect(stop("BUY", "0", "0.01", "1e9")).toBe("form.errors.stopPrice");
    expect(stop("BUY", "100", "0.01", "1e9")).toBe("form.errors.minNotional");
    // 0.01 x 70,000 = 700 + 0.1 % fee = 700.7.
    expect(stop("BUY", "70000", "0.01", "700.69")).toBe("form.errors.balance");
    expect(stop("BUY", "70000", "0.01", "700.7")).toBeNull();
    expect(stop("SELL", "50000", "0.6", "0.5")).toBe("form.errors.balance");
  });

  it("checks a post-only order like a limit order", () => {
    expect(
      validateOrder(
        { symbol: "BTCUSDT", side: "BUY", type: "LIMIT_MAKER", price: "", quantity: "1" },
        BTC,
        "1e9",
        1000,
      )?.key,
    ).toBe("form.errors.price");
  });
});

describe("placement refusals by reason", () => {
  const refusal = (reason: string) =>
    new ApiError({ kind: "api", code: "13003", msg: "", data: { reason }, api: "v1/paper/orders" });
  it("names a post-only order that would take and a stop already reached", () => {
    expect(refusalKey(refusal("POST_ONLY_WOULD_TAKE"))).toBe("form.errors.postOnlyCross");
    expect(refusalKey(refusal("STOP_WOULD_TRIGGER"))).toBe("form.errors.stopWouldTrigger");
    expect(refusalKey(refusal("NOTIONAL_TOO_SMALL"))).toBeUndefined();
    expect(refusalKey(new Error("x"))).toBeUndefined();
  });
  it("puts a refusal about one control under that control", () => {
    expect(refusalProblem(refusal("POST_ONLY_WOULD_TAKE"))).toEqual({
      key: "form.errors.postOnlyCross",
      field: "price",
    });
    expect(refusalProblem(refusal("STOP_WOULD_TRIGGER"))?.field).toBe("stopPrice");
    expect(refusalProblem(refusal("TPSL_INVALID"))?.field).toBe("tpsl");
    expect(refusalProblem(refusal("NOTIONAL_TOO_SMALL"))).toBeUndefined();
    expect(refusalProblem(new Error("x"))).toBeUndefined();
  });
});

describe("which control a problem belongs to", () => {
  const field = (body: Omit<PlaceOrderBody, "symbol">, available = "1000") =>
    validateOrder({ symbol: "BTCUSDT", ...body } as PlaceOrderBody, BTC, available, 1000)?.field;
  it("names the field the person has to change", () => {
    expect(field({ side: "BUY", type: "STOP_LIMIT", price: "100", quantity: "1" })).toBe("stopPrice");
    expect(field({ side: "BUY", type: "LIMIT", price: "", quantity: "1" })).toBe("price");
    expect(field({ side: "BUY", type: "LIMIT", price: "100", quantity: "" })).toBe("amount");
    expect(field({ side: "SELL", type: "MARKET", quantity: "5" }, "1")).toBe("amount");
    expect(field({ side: "BUY", type: "MARKET", quoteQty: "0" })).toBe("total");
    expect(field({ side: "BUY", type: "MARKET", quoteQty: "5000" })).toBe("total");
  });
});

describe("TP/SL checks before placement", () => {
  it("needs a trigger, and puts a buy's take-profit above and stop-loss below its price", () => {
    expect(validateTpSl("BUY", "100", "", "")?.key).toBe("form.errors.tpslEmpty");
    expect(validateTpSl("BUY", "100", "110", "90")).toBeNull();
    expect(validateTpSl("BUY", "100", "", "90")).toBeNull();
    expect(validateTpSl("BUY", "100", "100", "")).toEqual({
      key: "form.errors.tpAbove",
      params: { price: "100" },
      field: "tpsl",
    });
    expect(validateTpSl("BUY", "100.50", "", "101")).toEqual({
      key: "form.errors.slBelow",
      params: { price: "100.5" },
      field: "tpsl",
    });
  });

  it("reverses the sides for a sell, and leaves them to the server without a price", () => {
    expect(validateTpSl("SELL", "100", "90", "110")).toBeNull();
    expect(validateTpSl("SELL", "100", "105", "")?.key).toBe("form.errors.tpBelow");
    expect(validateTpSl("SELL", "100", "", "95")?.key).toBe("form.errors.slAbove");
    expect(validateTpSl("SELL", undefined, "105", "")).toBeNull();
  });

  it("names a TPSL_INVALID refusal", () => {
    const e = new ApiError({
      kind: "api",
      code: "13003",
      msg: "",
      data: { reason: "TPSL_INVALID", field: "takeProfit.triggerPrice" },
      api: "v1/paper/orders",
    });
    expect(refusalKey(e)).toBe("form.errors.tpslInvalid");
  });
});

describe("the order form's state", () => {
  const market = (over: Partial<OrderFormMarket> = {}): OrderFormMarket => ({
    info: BTC,
    side: "BUY",
    type: "LIMIT",
    available: "1000",
    takerPpm: 1000,
    lastPrice: "50000",
    tpsl: true,
    ...over,
  });
  const run = (actions: OrderFormAction[], start = initialOrderForm("100000")): OrderFormState =>
    actions.reduce(orderFormReducer, start);

  it("keeps amount and total in step at the limit price", () => {
    const m = market();
    const s = run([{ kind: "amountChanged", value: "0.005", market: m }]);
    expect(s).toMatchObject({ amount: "0.005", total: "500", percent: 0 });
    expect(run([{ kind: "priceChanged", value: "90000" }], s).total).toBe("450");
    expect(run([{ kind: "totalChanged", value: "333", market: m }])).toMatchObject({
      total: "333",
      amount: "0.00333",
    });
    expect(run([{ kind: "amountChanged", value: "", market: m }]).total).toBe("");
  });

  it("prices a market order at the last price and leaves a market buy's amount alone", () => {
    const sell = market({ type: "MARKET", side: "SELL" });
    expect(run([{ kind: "amountChanged", value: "0.01", market: sell }]).total).toBe("500");
    const buy = market({ type: "MARKET" });
    expect(run([{ kind: "totalChanged", value: "250", market: buy }])).toMatchObject({
      total: "250",
      amount: "",
    });
  });

  it("spends a percent of the balance, keeping a limit buy's fee on top", () => {
    // 50 % of 1000 = 500, less the 0.1 % fee = 499.50; at 100,000 that is 0.00499 BTC.
    expect(run([{ kind: "percentChosen", percent: 50, market: market() }])).toMatchObject({
      percent: 50,
      amount: "0.00499",
      total: "499",
    });
    const marketBuy = market({ type: "MARKET" });
    expect(run([{ kind: "percentChosen", percent: 50, market: marketBuy }])).toMatchObject({
      total: "500",
      amount: "",
    });
    const sell = market({ side: "SELL", available: "0.5" });
    expect(run([{ kind: "percentChosen", percent: 25, market: sell }])).toMatchObject({
      amount: "0.125",
      total: "12500",
    });
    // Without a price a buy cannot be sized: only the slider moves.
    expect(
      run([{ kind: "percentChosen", percent: 50, market: market() }], initialOrderForm("")),
    ).toMatchObject({ percent: 50, amount: "" });
  });

  it("takes a book price, fills an empty price once, and starts afresh on a new symbol or tab", () => {
    expect(run([{ kind: "bookPricePicked", price: "99000" }]).price).toBe("99000");
    expect(run([{ kind: "lastPriceSeen", price: "1" }]).price).toBe("100000");
    expect(run([{ kind: "lastPriceSeen", price: "1" }], initialOrderForm("")).price).toBe("1");
    const filled = run([
      { kind: "amountChanged", value: "0.01", market: market() },
      { kind: "entryChanged", entry: "takeProfit", value: "110000" },
      { kind: "submitted", problem: { key: "form.errors.balance", field: "amount" } },
    ]);
    expect(run([{ kind: "symbolOrTypeChanged" }], filled)).toMatchObject({
      price: "100000",
      amount: "",
      total: "",
      takeProfit: "",
      problem: null,
    });
    expect(run([{ kind: "symbolChanged", price: "3000" }], filled).price).toBe("3000");
  });
});

describe("orderFormErrors", () => {
  const m: OrderFormMarket = {
    info: BTC,
    side: "BUY",
    type: "LIMIT",
    available: "2000",
    takerPpm: 1000,
    lastPrice: "100000",
    tpsl: true,
  };
  const form = (over: Partial<OrderFormState>) => ({ ...initialOrderForm("100000"), ...over });

  it("finds the order's problem, then its TP/SL's, as data with a field", () => {
    expect(orderFormErrors(form({ amount: "0.01" }), m)).toEqual([]);
    expect(orderFormErrors(form({ amount: "" }), m)).toEqual([
      { key: "form.errors.amount", field: "amount" },
    ]);
    expect(orderFormErrors(form({ amount: "0.01", tpslOn: true, takeProfit: "90000" }), m)).toEqual([
      { key: "form.errors.tpAbove", params: { price: "100000" }, field: "tpsl" },
    ]);
    // The legs count only while the checkbox is offered and ticked.
    expect(orderFormErrors(form({ amount: "0.01", takeProfit: "90000" }), m)).toEqual([]);
    expect(orderFormErrors(form({ amount: "0.01", tpslOn: true }), { ...m, tpsl: false })).toEqual([]);
    expect(orderFormErrors(form({ amount: "", tpslOn: true }), m).map((p) => p.key)).toEqual([
      "form.errors.amount",
      "form.errors.tpslEmpty",
    ]);
  });

  it("checks a market order's TP/SL against the last price and a stop at its trigger", () => {
    const buy = { ...m, type: "MARKET" as const };
    expect(orderFormErrors(form({ total: "100", tpslOn: true, stopLoss: "100001" }), buy)[0]?.key).toBe(
      "form.errors.slBelow",
    );
    expect(orderFormErrors(form({ amount: "0.01" }), { ...m, type: "STOP_MARKET" })[0]?.field).toBe(
      "stopPrice",
    );
  });

  it("describes the placement and shows a problem under a control on the form", () => {
    expect(orderBody(form({ amount: "0.010", postOnly: true }), m, "c1")).toEqual({
      symbol: "BTCUSDT",
      side: "BUY",
      type: "LIMIT_MAKER",
      clientOrderId: "c1",
      price: "100000",
      quantity: "0.01",
    });
    expect(
      orderBody(form({ total: "50", tpslOn: true, takeProfit: "120000", slLimit: "1" }), {
        ...m,
        type: "MARKET",
      }),
    ).toEqual({
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quoteQty: "50",
      takeProfit: { triggerPrice: "120000" },
    });
    expect(problemField({ key: "k", field: "amount" }, { ...m, type: "MARKET" })).toBe("total");
    expect(problemField({ key: "k", field: "total" }, { ...m, type: "MARKET", side: "SELL" })).toBe("amount");
    expect(problemField({ key: "k", field: "total" }, m)).toBe("total");
    expect(problemField(null, m)).toBeNull();
  });

  it("estimates the taker fee, inside a market buy's total", () => {
    expect(estimatedFee(form({ amount: "0.01" }), m)).toBe("1");
    expect(estimatedFee(form({ total: "1001" }), { ...m, type: "MARKET" })).toBe("1");
    expect(estimatedFee(form({}), m)).toBe("0");
  });
});
