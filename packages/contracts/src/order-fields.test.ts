import { describe, expect, it } from "vitest";
import { futuresOrderIdParamsSchema, futuresQuerySchema } from "./futures.ts";
import { marginOrderBodySchema, marginOrdersQuerySchema } from "./margin.ts";
import { orderIdParamsSchema, ordersQuerySchema, placeOrderBodySchema } from "./trading.ts";

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);

describe("the order rules spot and margin order bodies share", () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ side: "BUY", type: "LIMIT", price: "1.5", quantity: "2" }, []],
    [{ side: "BUY", type: "LIMIT", quantity: "2" }, ["price: required"]],
    [{ side: "SELL", type: "MARKET", price: "1", quantity: "2" }, ["price: not allowed"]],
    [{ side: "BUY", type: "STOP_LIMIT", price: "1", quantity: "1" }, ["stopPrice: required"]],
    [{ side: "BUY", type: "MARKET", quoteQty: "100" }, []],
    [{ side: "BUY", type: "MARKET", quoteQty: "100", quantity: "1" }, ["quantity: not with quoteQty"]],
    [{ side: "SELL", type: "MARKET", quoteQty: "100" }, ["quoteQty: market buys only", "quantity: required"]],
    [{ side: "BUY", type: "MARKET", quantity: "1", timeInForce: "IOC" }, ["timeInForce: limit orders only"]],
    [
      { side: "BUY", type: "LIMIT", price: "1", quantity: "1", clientOrderId: "bad id" },
      ["clientOrderId: clientOrderId"],
    ],
    [{ side: "BUY", type: "LIMIT", price: "1e3", quantity: "1" }, ["price: decimal"]],
  ];
  it.each(cases)("%j -> %j", (body, expected) => {
    expect(issues(placeOrderBodySchema.safeParse({ symbol: "btcusdt", ...body }))).toEqual(expected);
    expect(issues(marginOrderBodySchema.safeParse({ symbol: "btcusdt", ...body }))).toEqual(expected);
  });

  it("upper-cases the symbol and keeps each body's own fields", () => {
    const body = { symbol: "ethusdt", side: "BUY", type: "LIMIT", price: "1", quantity: "1" };
    expect(placeOrderBodySchema.parse(body).symbol).toBe("ETHUSDT");
    expect(marginOrderBodySchema.parse(body)).toMatchObject({
      symbol: "ETHUSDT",
      mode: "cross",
      sideEffectType: "NO_SIDE_EFFECT",
    });
    expect(issues(marginOrderBodySchema.safeParse({ ...body, takeProfit: { triggerPrice: "2" } }))).toEqual(
      [],
    );
    expect(marginOrderBodySchema.parse({ ...body, takeProfit: { triggerPrice: "2" } })).not.toHaveProperty(
      "takeProfit",
    );
  });
});

describe("list pages and id params", () => {
  it("pages spot, margin and futures lists alike", () => {
    for (const schema of [ordersQuerySchema, marginOrdersQuerySchema, futuresQuerySchema]) {
      expect(schema.parse({ symbol: "btcusdt", before: "7" })).toMatchObject({
        symbol: "BTCUSDT",
        limit: 100,
        before: 7,
      });
      expect(issues(schema.safeParse({ limit: "501" }))).toHaveLength(1);
      expect(issues(schema.safeParse({ before: "0" }))).toHaveLength(1);
    }
  });

  it("takes positive safe integer ids", () => {
    for (const schema of [orderIdParamsSchema, futuresOrderIdParamsSchema]) {
      expect(schema.parse({ id: "42" })).toEqual({ id: 42 });
      expect(schema.safeParse({ id: "0" }).success).toBe(false);
      expect(schema.safeParse({ id: "9007199254740992" }).success).toBe(false);
    }
  });
});
