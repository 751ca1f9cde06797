import {
  Code,
  type PaperBalance,
  PaperCode,
  type PaperOrder,
  PaperPath,
  type PlaceOrderResult,
} from "@meridian/contracts";
import { asLots, asTicks, Side } from "@meridian/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbTarget, reopenableDbTargets } from "../../test/db-targets.ts";
import { paperCall as call, type PaperTestApp, paperTestApp } from "../../test/paper.ts";
import type { UserEvents } from "./events.ts";

const targets = reopenableDbTargets("paper-tpsl");

const balanceOf = (list: PaperBalance[], asset: string) => list.find((b) => b.asset === asset);

describe.each(targets)("paper TP/SL on $name", (target) => {
  let env: Awaited<ReturnType<DbTarget["open"]>>;
  let run: PaperTestApp;
  const balances = async (cookie: string) =>
    (await call<PaperBalance[]>(run.app, cookie, "GET", "/v1/paper/balances")).data;
  const open = async (cookie: string) =>
    (await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/open")).data;
  const history = async (cookie: string) =>
    (await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/history")).data;
  const place = (cookie: string, body: Record<string, unknown>) =>
    call<PlaceOrderResult>(run.app, cookie, "POST", "/v1/paper/orders", body);
  const audit = async () => {
    const a = await run.ledger.audit();
    expect(a.replayEqualsBalances).toBe(true);
    for (const sum of Object.values(a.assetSums)) expect(sum).toBe("0");
  };

  beforeAll(async () => {
    env = await target.open();
    run = await paperTestApp(env.db());
  });
  afterAll(async () => {
    await run.app.close();
    await run.db.close();
    await env.cleanup();
  });

  it("a filled buy with TP and SL leaves two linked trigger orders holding what it bought; TP fires, SL goes", async () => {
    const cookie = await run.login();
    const pushed: UserEvents[] = [];
    const off = run.paper.onEvents((e) => pushed.push(e));
    run.venue.setPrice("SOLUSDT", 19_000);
    run.venue.makerOrder("SOLUSDT", Side.Sell, asTicks(19_000), asLots(2_000));
    const placed = await place(cookie, {
      symbol: "SOLUSDT",
      side: "BUY",
      type: "LIMIT",
      price: "190.00",
      quantity: "2",
      takeProfit: { triggerPrice: "200.00" },
      stopLoss: { triggerPrice: "180.00", price: "179.00" },
    });
    expect(placed.code).toBe(Code.OK);
    const parent = placed.data.order;
    expect(parent).toMatchObject({
      status: "FILLED",
      takeProfit: { triggerPrice: "200.00", price: null },
      stopLoss: { triggerPrice: "180.00", price: "179.00" },
    });
    const children = await open(cookie);
    expect(children).toHaveLength(2);
    const tp = children.find((o) => o.tpslRole === "TAKE_PROFIT");
    const sl = children.find((o) => o.tpslRole === "STOP_LOSS");
    expect(tp).toMatchObject({
      side: "SELL",
      type: "STOP_MARKET",
      stopPrice: "200.00",
      origQty: "2.000",
      status: "NEW",
      triggered: false,
      parentOrderId: parent.orderId,
    });
    expect(sl).toMatchObject({
      side: "SELL",
      type: "STOP_LIMIT",
      stopPrice: "180.00",
      price: "179.00",
      origQty: "2.000",
      parentOrderId: parent.orderId,
    });
    expect(tp?.ocoOrderId).toBe(sl?.orderId);
    expect(sl?.ocoOrderId).toBe(tp?.orderId);
    // The pair holds the 2 SOL the fill delivered, once.
    let bal = await balances(cookie);
    expect(balanceOf(bal, "SOL")).toMatchObject({ available: "0.00000000", held: "2.00000000" });
    expect(balanceOf(bal, "USDT")?.held).toBe("0.00000000");
    // The user stream heard the parent and both legs.
    await run.ledger.flush();
    const streamed = pushed.flatMap((e) => e.orders).map((o) => [o.orderId, o.status]);
    expect(streamed).toEqual(
      expect.arrayContaining([
        [parent.orderId, "FILLED"],
        [tp?.orderId, "NEW"],
        [sl?.orderId, "NEW"],
      ]),
    );

    // The price rises to the take-profit: it sells to a bid, the stop-loss is cancelled.
    pushed.length = 0;
    run.venue.makerOrder("SOLUSDT", Side.Buy, asTicks(20_050), asLots(10_000));
    run.venue.setPrice("SOLUSDT", 20_100);
    await run.ledger.flush();
    expect(await open(cookie)).toEqual([]);
    const done = await history(cookie);
    expect(done.find((o) => o.orderId === tp?.orderId)).toMatchObject({
      status: "FILLED",
      triggered: true,
      executedQty: "2.000",
    });
    expect(done.find((o) => o.orderId === sl?.orderId)).toMatchObject({
      status: "CANCELED",
      triggered: false,
    });
    const streamedAfter = pushed.flatMap((e) => e.orders).map((o) => [o.orderId, o.status]);
    expect(streamedAfter).toEqual(
      expect.arrayContaining([
        [tp?.orderId, "FILLED"],
        [sl?.orderId, "CANCELED"],
      ]),
    );
    off();
    bal = await balances(cookie);
    expect(balanceOf(bal, "SOL")).toMatchObject({ available: "0.00000000", held: "0.00000000" });
    // 2 x 190 + 0.1 % bought, 2 x 200.50 - 0.1 % sold.
    expect(balanceOf(bal, "USDT")).toMatchObject({ available: "50020.21900000", held: "0.00000000" });
    await audit();
  });

  it("refuses TP/SL on the wrong side of the price, naming the field, with nothing held", async () => {
    const cookie = await run.login();
    run.venue.setPrice("SOLUSDT", 19_000);
    const base = { symbol: "SOLUSDT", side: "BUY", type: "LIMIT", price: "150.00", quantity: "1" };
    const tpLow = await place(cookie, { ...base, takeProfit: { triggerPrice: "140.00" } });
    expect(tpLow).toMatchObject({
      code: PaperCode.ORDER_REJECTED,
      data: { reason: "TPSL_INVALID", field: "takeProfit.triggerPrice" },
    });
    const slHigh = await place(cookie, { ...base, stopLoss: { triggerPrice: "160.00" } });
    expect(slHigh).toMatchObject({
      code: PaperCode.ORDER_REJECTED,
      data: { reason: "TPSL_INVALID", field: "stopLoss.triggerPrice" },
    });
    // A sell's take-profit is below, measured for a market order against the last price.
    run.venue.makerOrder("SOLUSDT", Side.Buy, asTicks(18_000), asLots(1_000));
    const sellMarket = await place(cookie, {
      symbol: "SOLUSDT",
      side: "SELL",
      type: "MARKET",
      quantity: "1",
      takeProfit: { triggerPrice: "195.00" },
    });
    expect(sellMarket).toMatchObject({
      code: PaperCode.ORDER_REJECTED,
      data: { reason: "TPSL_INVALID", field: "takeProfit.triggerPrice" },
    });
    const badPrice = await place(cookie, { ...base, stopLoss: { triggerPrice: "abc" } });
    expect(badPrice.code).not.toBe(Code.OK);
    const onStop = await place(cookie, {
      symbol: "SOLUSDT",
      side: "BUY",
      type: "STOP_MARKET",
      stopPrice: "200.00",
      quantity: "1",
      takeProfit: { triggerPrice: "210.00" },
    });
    expect(onStop.code).not.toBe(Code.OK);
    expect(JSON.stringify(onStop)).toContain("takeProfit");
    expect(await open(cookie)).toEqual([]);
    expect(balanceOf(await balances(cookie), "USDT")).toMatchObject({ held: "0.00000000" });
  });

  it("cancelling the parent before it fills places nothing; cancelling one leg cancels the pair", async () => {
    const cookie = await run.login();
    run.venue.setPrice("LINKUSDT", 1_800);
    const resting = await place(cookie, {
      symbol: "LINKUSDT",
      side: "BUY",
      type: "LIMIT",
      price: "17.00",
      quantity: "10",
      takeProfit: { triggerPrice: "19.00" },
      stopLoss: { triggerPrice: "16.00" },
    });
    expect(resting.data.order.status).toBe("NEW");
    await call(run.app, cookie, "DELETE", `/v1/paper/orders/${resting.data.order.orderId}`);
    expect(await open(cookie)).toEqual([]);

    // A sell whose legs buy back: the pair holds the quote of the dearer leg, once.
    run.venue.setPrice("ETHUSDT", 340_000);
    run.venue.makerOrder("ETHUSDT", Side.Buy, asTicks(340_000), asLots(10_000));
    const sold = await place(cookie, {
      symbol: "ETHUSDT",
      side: "SELL",
      type: "MARKET",
      quantity: "1",
      takeProfit: { triggerPrice: "3300.00", price: "3300.00" },
      stopLoss: { triggerPrice: "3500.00", price: "3550.00" },
    });
    expect(sold.code).toBe(Code.OK);
    expect(sold.data.order.status).toBe("FILLED");
    const legs = await open(cookie);
    expect(legs.map((o) => [o.side, o.tpslRole]).sort()).toEqual([
      ["BUY", "STOP_LOSS"],
      ["BUY", "TAKE_PROFIT"],
    ]);
    // 1 x 3550 + 0.1 % fee + 1 minor unit (the dearer leg).
    expect(balanceOf(await balances(cookie), "USDT")?.held).toBe("3553.55000001");
    const tp = legs.find((o) => o.tpslRole === "TAKE_PROFIT");
    const cancelled = await call<PaperOrder>(run.app, cookie, "DELETE", `/v1/paper/orders/${tp?.orderId}`);
    expect(cancelled.data.status).toBe("CANCELED");
    expect(await open(cookie)).toEqual([]);
    expect(balanceOf(await balances(cookie), "USDT")?.held).toBe("0.00000000");
    expect((await history(cookie)).filter((o) => o.parentOrderId !== undefined).map((o) => o.status)).toEqual(
      ["CANCELED", "CANCELED"],
    );
    await audit();
  });

  it("fires a leg at once when the price is already past its trigger as the parent fills", async () => {
    const cookie = await run.login();
    run.venue.setPrice("AVAXUSDT", 2_800);
    // A bid above the stop-loss trigger for the leg to sell into; the parent buys from a deeper ask.
    run.venue.makerOrder("AVAXUSDT", Side.Sell, asTicks(2_900), asLots(1_000));
    run.venue.makerOrder("AVAXUSDT", Side.Buy, asTicks(2_700), asLots(1_000));
    const placed = await place(cookie, {
      symbol: "AVAXUSDT",
      side: "BUY",
      type: "LIMIT",
      price: "29.00",
      quantity: "5",
      stopLoss: { triggerPrice: "28.50" },
    });
    expect(placed.data.order.status).toBe("FILLED");
    await run.ledger.flush();
    expect(await open(cookie)).toEqual([]);
    const leg = (await history(cookie)).find((o) => o.tpslRole === "STOP_LOSS");
    expect(leg).toMatchObject({ status: "FILLED", triggered: true, executedQty: "5.00", ocoOrderId: null });
    // Bought and sold in one commit: no AVAX balance row at all.
    expect(balanceOf(await balances(cookie), "AVAX")?.total ?? "0.00000000").toBe("0.00000000");
    await audit();
  });

  it("keeps the pair across a restart: the stop-loss fires after it and cancels the take-profit", async () => {
    const cookie = await run.login();
    run.venue.setPrice("BNBUSDT", 65_000);
    run.venue.makerOrder("BNBUSDT", Side.Sell, asTicks(65_000), asLots(10_000));
    const placed = await place(cookie, {
      symbol: "BNBUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "1",
      takeProfit: { triggerPrice: "700.00" },
      stopLoss: { triggerPrice: "600.00" },
    });
    expect(placed.data.order.status).toBe("FILLED");
    const before = await open(cookie);
    expect(before).toHaveLength(2);
    const balBefore = await balances(cookie);
    await run.app.close();
    await run.db.close();
    run = await paperTestApp(env.db());
    expect(await open(cookie)).toEqual(before);
    expect(await balances(cookie)).toEqual(balBefore);
    await audit();

    run.venue.makerOrder("BNBUSDT", Side.Buy, asTicks(59_000), asLots(10_000));
    run.venue.setPrice("BNBUSDT", 59_500);
    await run.ledger.flush();
    expect(await open(cookie)).toEqual([]);
    const done = await history(cookie);
    const sl = done.find((o) => o.tpslRole === "STOP_LOSS");
    const tp = done.find((o) => o.tpslRole === "TAKE_PROFIT");
    expect(sl).toMatchObject({ status: "FILLED", triggered: true, executedQty: "1.000" });
    expect(tp).toMatchObject({ status: "CANCELED" });
    expect(balanceOf(await balances(cookie), "BNB")).toMatchObject({
      available: "0.00000000",
      held: "0.00000000",
    });
    await audit();
  });
  it("the test trade endpoint moves the price the legs watch; bad input is refused, nothing moves", async () => {
    const cookie = await run.login();
    run.venue.setPrice("TONUSDT", 3_200);
    run.venue.makerOrder("TONUSDT", Side.Sell, asTicks(3_200), asLots(100_000));
    const placed = await place(cookie, {
      symbol: "TONUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "10",
      takeProfit: { triggerPrice: "3.500" },
      stopLoss: { triggerPrice: "3.000" },
    });
    expect(placed.data.order.status).toBe("FILLED");
    const trade = (body: unknown) => call<unknown>(run.app, cookie, "POST", PaperPath.TEST_TRADE, body);
    // Off the tick, unknown symbol, no price: refused, the price stays.
    expect((await trade({ symbol: "TONUSDT", price: "2.9995" })).code).toBe(Code.VALIDATION_FAILED);
    expect((await trade({ symbol: "NOPEUSDT", price: "1" })).code).not.toBe(Code.OK);
    expect((await trade({ symbol: "TONUSDT" })).code).toBe(Code.VALIDATION_FAILED);
    expect(run.venue.lastTicks("TONUSDT")).toBe(3_200);
    expect(await open(cookie)).toHaveLength(2);
    // A print under the stop-loss: it sells at market, the take-profit goes.
    run.venue.makerOrder("TONUSDT", Side.Buy, asTicks(2_950), asLots(100_000));
    expect(await trade({ symbol: "TONUSDT", price: "2.990" })).toMatchObject({
      code: Code.OK,
      data: { symbol: "TONUSDT", price: "2.990" },
    });
    expect(run.venue.lastTicks("TONUSDT")).toBe(2_990);
    await run.ledger.flush();
    expect(await open(cookie)).toEqual([]);
    const done = await history(cookie);
    expect(done.find((o) => o.tpslRole === "STOP_LOSS")).toMatchObject({ status: "FILLED", triggered: true });
    expect(done.find((o) => o.tpslRole === "TAKE_PROFIT")).toMatchObject({ status: "CANCELED" });
    await audit();
  });
});
