import {
  Code,
  type PaperBalance,
  PaperCode,
  type PaperOrder,
  type PlaceOrderResult,
} from "@meridian/contracts";
import { asLots, asTicks, Side } from "@meridian/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbTarget, reopenableDbTargets } from "../../test/db-targets.ts";
import { paperCall as call, type PaperTestApp, paperTestApp } from "../../test/paper.ts";
import type { PaperService } from "./service.ts";

const targets = reopenableDbTargets("paper");

const balanceOf = (list: PaperBalance[], asset: string) => list.find((b) => b.asset === asset);
const order = (body: Record<string, unknown>) => ({ symbol: "BTCUSDT", ...body });

describe.each(targets)("paper trading on $name", (target) => {
  let env: Awaited<ReturnType<DbTarget["open"]>>;
  let run: PaperTestApp;
  beforeAll(async () => {
    env = await target.open();
    run = await paperTestApp(env.db());
  });
  afterAll(async () => {
    await run.app.close();
    await run.db.close();
    await env.cleanup();
  });

  it("answers PAPER_ONLY without the paptrading header and 00004 without a session", async () => {
    const cookie = await run.login();
    expect((await call(run.app, cookie, "GET", "/v1/paper/balances", undefined, {})).code).toBe(
      PaperCode.PAPER_ONLY,
    );
    expect((await call(run.app, "", "GET", "/v1/paper/balances")).code).toBe(Code.SESSION_INVALID);
  });

  it("activates with 50,000 USDT, 0.5 BTC and 5 ETH on first use", async () => {
    const cookie = await run.login();
    const first = await call<{ activated: boolean; balances: PaperBalance[] }>(
      run.app,
      cookie,
      "POST",
      "/v1/paper/account/activate",
    );
    expect(first.data.activated).toBe(true);
    expect(first.data.balances).toEqual([
      { asset: "BTC", available: "0.50000000", held: "0.00000000", total: "0.50000000" },
      { asset: "ETH", available: "5.00000000", held: "0.00000000", total: "5.00000000" },
      { asset: "USDT", available: "50000.00000000", held: "0.00000000", total: "50000.00000000" },
    ]);
    const again = await call<{ activated: boolean }>(run.app, cookie, "POST", "/v1/paper/account/activate");
    expect(again.data.activated).toBe(false);
  });

  it("holds, fills maker against taker with exact 0.1 % fees, and releases the rest on cancel", async () => {
    const alice = await run.login();
    const bob = await run.login();
    const placed = await call<PlaceOrderResult>(
      run.app,
      alice,
      "POST",
      "/v1/paper/orders",
      order({ side: "BUY", type: "LIMIT", price: "60000.00", quantity: "0.1", clientOrderId: "a-1" }),
    );
    expect(placed.code).toBe(Code.OK);
    expect(placed.data.order).toMatchObject({ status: "NEW", price: "60000.00", origQty: "0.10000" });
    let bal = (await call<PaperBalance[]>(run.app, alice, "GET", "/v1/paper/balances")).data;
    expect(balanceOf(bal, "USDT")).toMatchObject({ available: "43993.99999999", held: "6006.00000001" });

    const sold = await call<PlaceOrderResult>(
      run.app,
      bob,
      "POST",
      "/v1/paper/orders",
      order({ side: "SELL", type: "LIMIT", price: "59000.00", quantity: "0.04" }),
    );
    expect(sold.data.order).toMatchObject({ status: "FILLED", executedQty: "0.04000", fee: "2.40000000" });
    expect(sold.data.fills).toEqual([
      expect.objectContaining({
        price: "60000.00",
        qty: "0.04000",
        quoteQty: "2400.00000000",
        isMaker: false,
      }),
    ]);
    const bobBal = (await call<PaperBalance[]>(run.app, bob, "GET", "/v1/paper/balances")).data;
    expect(balanceOf(bobBal, "USDT")).toMatchObject({ available: "52397.60000000", held: "0.00000000" });
    expect(balanceOf(bobBal, "BTC")).toMatchObject({ available: "0.46000000", held: "0.00000000" });

    bal = (await call<PaperBalance[]>(run.app, alice, "GET", "/v1/paper/balances")).data;
    expect(balanceOf(bal, "BTC")).toMatchObject({ available: "0.54000000" });
    expect(balanceOf(bal, "USDT")).toMatchObject({ held: "3603.60000001" });

    const cancelled = await call<PaperOrder>(run.app, alice, "DELETE", "/v1/paper/orders/client/a-1");
    expect(cancelled.data).toMatchObject({ status: "CANCELED", executedQty: "0.04000", fee: "2.40000000" });
    bal = (await call<PaperBalance[]>(run.app, alice, "GET", "/v1/paper/balances")).data;
    expect(balanceOf(bal, "USDT")).toEqual({
      asset: "USDT",
      available: "47597.60000000",
      held: "0.00000000",
      total: "47597.60000000",
    });
    const again = await call(run.app, alice, "DELETE", `/v1/paper/orders/${placed.data.order.orderId}`);
    expect(again.code).toBe(PaperCode.ORDER_NOT_OPEN);
    const trades = await call<unknown[]>(run.app, alice, "GET", "/v1/paper/trades");
    expect(trades.data).toEqual([expect.objectContaining({ isMaker: true, fee: "2.40000000", side: "BUY" })]);
  });

  it("tells listeners each commit's orders and balances as of that commit, even when read later", async () => {
    const cookie = await run.login();
    const events: Parameters<Parameters<PaperService["onEvents"]>[0]>[0][] = [];
    const off = run.paper.onEvents((e) => events.push(e));
    try {
      for (const clientOrderId of ["ev-1", "ev-2"]) {
        const placed = await call<PlaceOrderResult>(
          run.app,
          cookie,
          "POST",
          "/v1/paper/orders",
          order({ side: "BUY", type: "LIMIT", price: "10000.00", quantity: "0.1", clientOrderId }),
        );
        expect(placed.code).toBe(Code.OK);
      }
    } finally {
      off();
    }
    const mine = events.filter((e) => e.orders.some((o) => o.clientOrderId.startsWith("ev-")));
    expect(mine.map((e) => e.orders.map((o) => [o.clientOrderId, o.status]))).toEqual([
      [["ev-1", "NEW"]],
      [["ev-2", "NEW"]],
    ]);
    // 0.1 BTC at 10,000 holds 1,000 USDT plus the fee reserve per order.
    const held = mine.map((e) => Number(balanceOf(e.balances ?? [], "USDT")?.held));
    expect(held[0]).toBeGreaterThanOrEqual(1000);
    expect(held[1]).toBeCloseTo(2 * (held[0] ?? 0), 6);
  });

  it("places once per client order id, even when the same id arrives concurrently", async () => {
    const cookie = await run.login();
    const body = order({
      side: "BUY",
      type: "LIMIT",
      price: "50000.00",
      quantity: "0.01",
      clientOrderId: "same",
    });
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => call<PlaceOrderResult>(run.app, cookie, "POST", "/v1/paper/orders", body)),
    );
    const ids = new Set(answers.map((a) => a.data.order.orderId));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => !a.data.duplicate)).toHaveLength(1);
    const late = await call<PlaceOrderResult>(run.app, cookie, "POST", "/v1/paper/orders", body);
    expect(late.data).toMatchObject({ duplicate: true, order: { orderId: [...ids][0] } });
    const open = await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/open");
    expect(open.data).toHaveLength(1);
    const bal = (await call<PaperBalance[]>(run.app, cookie, "GET", "/v1/paper/balances")).data;
    expect(balanceOf(bal, "USDT")?.held).toBe("500.50000001");
  });

  it("in one group commit, tells stored, repeated and new client order ids apart", async () => {
    const cookie = await run.login();
    const body = (clientOrderId: string) =>
      order({ side: "BUY", type: "LIMIT", price: "45000.00", quantity: "0.01", clientOrderId });
    const first = await call<PlaceOrderResult>(run.app, cookie, "POST", "/v1/paper/orders", body("g-1"));
    expect(first.data.duplicate).toBe(false);
    const answers = await Promise.all(
      ["g-1", "g-2", "g-3", "g-2", "g-1"].map((id) =>
        call<PlaceOrderResult>(run.app, cookie, "POST", "/v1/paper/orders", body(id)),
      ),
    );
    const byId = (id: string) => answers.filter((a) => a.data.order.clientOrderId === id);
    expect(byId("g-1").map((a) => [a.data.duplicate, a.data.order.orderId])).toEqual([
      [true, first.data.order.orderId],
      [true, first.data.order.orderId],
    ]);
    expect(byId("g-2").filter((a) => !a.data.duplicate)).toHaveLength(1);
    expect(new Set(byId("g-2").map((a) => a.data.order.orderId)).size).toBe(1);
    expect(byId("g-3").map((a) => a.data.duplicate)).toEqual([false]);
    const open = await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/open");
    expect(open.data.map((o) => o.clientOrderId).sort()).toEqual(["g-1", "g-2", "g-3"]);
  });

  it("buys at market by quote amount against the maker, within the budget, fee exact", async () => {
    run.venue.makerOrder("BTCUSDT", Side.Sell, asTicks(6_000_000), asLots(1_000));
    run.venue.makerOrder("BTCUSDT", Side.Sell, asTicks(6_000_100), asLots(1_000));
    const cookie = await run.login();
    const res = await call<PlaceOrderResult>(
      run.app,
      cookie,
      "POST",
      "/v1/paper/orders",
      order({ side: "BUY", type: "MARKET", quoteQty: "900" }),
    );
    expect(res.code).toBe(Code.OK);
    // The fee comes out of the total: 898.80498 + 0.89880498 = 899.70378498 <= 900
    // (one more lot, 0.01499, would have taken 900.30439499).
    expect(res.data.order).toMatchObject({
      status: "FILLED",
      executedQty: "0.01498",
      cummulativeQuoteQty: "898.80498000",
      fee: "0.89880498",
    });
    const bal = (await call<PaperBalance[]>(run.app, cookie, "GET", "/v1/paper/balances")).data;
    expect(balanceOf(bal, "USDT")).toMatchObject({ available: "49100.29621502", held: "0.00000000" });
    expect(balanceOf(bal, "BTC")).toMatchObject({ available: "0.51498000" });
  });

  it("refuses what the balance cannot hold, post-only orders that would take, and tiny orders", async () => {
    const cookie = await run.login();
    const big = await call(
      run.app,
      cookie,
      "POST",
      "/v1/paper/orders",
      order({ side: "SELL", type: "LIMIT", price: "70000.00", quantity: "0.6" }),
    );
    expect(big.code).toBe(PaperCode.INSUFFICIENT_BALANCE);
    run.venue.makerOrder("BTCUSDT", Side.Sell, asTicks(6_100_000), asLots(1_000));
    const maker = await call<unknown>(
      run.app,
      cookie,
      "POST",
      "/v1/paper/orders",
      order({ side: "BUY", type: "LIMIT_MAKER", price: "61000.00", quantity: "0.001" }),
    );
    expect(maker).toMatchObject({ code: PaperCode.ORDER_REJECTED, data: { reason: "POST_ONLY_WOULD_TAKE" } });
    const tiny = await call<unknown>(
      run.app,
      cookie,
      "POST",
      "/v1/paper/orders",
      order({ side: "BUY", type: "LIMIT", price: "100.00", quantity: "0.00001" }),
    );
    expect(tiny).toMatchObject({ code: PaperCode.ORDER_REJECTED, data: { reason: "NOTIONAL_TOO_SMALL" } });
    const bal = (await call<PaperBalance[]>(run.app, cookie, "GET", "/v1/paper/balances")).data;
    expect(balanceOf(bal, "USDT")?.held).toBe("0.00000000");
    expect(balanceOf(bal, "BTC")?.held).toBe("0.00000000");
  });

  it("fires a stop-limit when the reference price reaches it", async () => {
    const cookie = await run.login();
    run.venue.setPrice("ETHUSDT", 340_000);
    run.venue.makerOrder("ETHUSDT", Side.Buy, asTicks(330_000), asLots(10_000));
    const placed = await call<PlaceOrderResult>(run.app, cookie, "POST", "/v1/paper/orders", {
      symbol: "ETHUSDT",
      side: "SELL",
      type: "STOP_LIMIT",
      stopPrice: "3350.00",
      price: "3300.00",
      quantity: "1",
    });
    expect(placed.data.order).toMatchObject({ status: "NEW", triggered: false });
    run.venue.setPrice("ETHUSDT", 334_000);
    await run.ledger.flush();
    const history = await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/history");
    expect(history.data[0]).toMatchObject({ status: "FILLED", triggered: true, executedQty: "1.0000" });
  });

  it("filters orders and trades by side on the server, so before-cursor pages stay full", async () => {
    const cookie = await run.login();
    const placed: Array<{ id: number; side: string }> = [];
    for (let i = 0; i < 6; i++) {
      const side = i % 2 === 0 ? "BUY" : "SELL";
      const r = await call<PlaceOrderResult>(
        run.app,
        cookie,
        "POST",
        "/v1/paper/orders",
        order({ side, type: "LIMIT", price: side === "BUY" ? "40000.00" : "90000.00", quantity: "0.001" }),
      );
      expect(r.code).toBe(Code.OK);
      placed.push({ id: r.data.order.orderId, side });
    }
    const sells = placed.filter((o) => o.side === "SELL").map((o) => o.id);
    const page1 = await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/open?side=SELL&limit=2");
    expect(page1.data.map((o) => o.orderId)).toEqual([sells[2], sells[1]]);
    const page2 = await call<PaperOrder[]>(
      run.app,
      cookie,
      "GET",
      `/v1/paper/orders/open?side=SELL&limit=2&before=${sells[1]}`,
    );
    expect(page2.data.map((o) => o.orderId)).toEqual([sells[0]]);
    const buys = await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/open?side=BUY");
    expect(buys.data.map((o) => o.side)).toEqual(["BUY", "BUY", "BUY"]);
    expect((await call(run.app, cookie, "GET", "/v1/paper/orders/open?side=LONG")).code).not.toBe(Code.OK);

    for (const o of placed) await call(run.app, cookie, "DELETE", `/v1/paper/orders/${o.id}`);
    const history = await call<PaperOrder[]>(
      run.app,
      cookie,
      "GET",
      "/v1/paper/orders/history?side=BUY&limit=1",
    );
    expect(history.data).toEqual([expect.objectContaining({ side: "BUY", status: "CANCELED" })]);

    // One fill on the buy side: a market buy against a maker sell.
    run.venue.makerOrder("BTCUSDT", Side.Sell, asTicks(6_200_000), asLots(1_000));
    const bought = await call<PlaceOrderResult>(
      run.app,
      cookie,
      "POST",
      "/v1/paper/orders",
      order({ side: "BUY", type: "MARKET", quantity: "0.001" }),
    );
    expect(bought.data.order.status).toBe("FILLED");
    expect((await call<unknown[]>(run.app, cookie, "GET", "/v1/paper/trades?side=BUY")).data.length).toBe(1);
    expect((await call<unknown[]>(run.app, cookie, "GET", "/v1/paper/trades?side=SELL")).data).toEqual([]);
  });

  it("tops up within the cap and resets to the initial set", async () => {
    const cookie = await run.login();
    const up = await call<PaperBalance[]>(run.app, cookie, "POST", "/v1/paper/topup", {
      asset: "USDT",
      amount: "1000",
    });
    expect(balanceOf(up.data, "USDT")?.available).toBe("51000.00000000");
    const over = await call(run.app, cookie, "POST", "/v1/paper/topup", { asset: "BTC", amount: "10" });
    expect(over.code).toBe(PaperCode.TOPUP_LIMIT);
    await call(
      run.app,
      cookie,
      "POST",
      "/v1/paper/orders",
      order({ side: "BUY", type: "LIMIT", price: "10000.00", quantity: "1" }),
    );
    const reset = await call<PaperBalance[]>(run.app, cookie, "POST", "/v1/paper/reset");
    expect(reset.data.map((b) => [b.asset, b.available, b.held])).toEqual([
      ["BTC", "0.50000000", "0.00000000"],
      ["ETH", "5.00000000", "0.00000000"],
      ["USDT", "50000.00000000", "0.00000000"],
    ]);
    expect((await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/open")).data).toEqual([]);
  });

  it("serves the fee tiers with the user's tier", async () => {
    const cookie = await run.login();
    const fees = await call<{ tiers: unknown[]; current: unknown }>(run.app, cookie, "GET", "/v1/paper/fees");
    expect(fees.data.tiers).toHaveLength(10);
    expect(fees.data.current).toMatchObject({ level: 0, makerRate: "0.1", takerRate: "0.1" });
  });

  it("rebuilds books and open orders identically after a restart, and the journal replays to the balances", async () => {
    const cookie = await run.login();
    for (const [price, qty] of [
      ["40000.00", "0.01"],
      ["40000.00", "0.02"],
      ["41000.00", "0.01"],
    ]) {
      await call(
        run.app,
        cookie,
        "POST",
        "/v1/paper/orders",
        order({ side: "BUY", type: "LIMIT", price, quantity: qty }),
      );
    }
    await call(
      run.app,
      cookie,
      "POST",
      "/v1/paper/orders",
      order({ side: "SELL", type: "STOP_MARKET", stopPrice: "30000.00", quantity: "0.01" }),
    );
    const userOrders = (r: PaperTestApp) =>
      r.venue
        .book("BTCUSDT")
        ?.book.snapshot()
        .orders.filter((o) => o.account !== 0)
        .map((o) => [o.id, o.side, o.price, o.qty]);
    const open = (await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/open")).data;
    const before = userOrders(run);
    expect(open.length).toBeGreaterThanOrEqual(4);
    await run.app.close();
    await run.db.close();
    run = await paperTestApp(env.db());
    expect((await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/open")).data).toEqual(open);
    expect(userOrders(run)).toEqual(before);
    const audit = await run.ledger.audit();
    expect(audit.replayEqualsBalances).toBe(true);
    for (const sum of Object.values(audit.assetSums)) expect(sum).toBe("0");
  });
});
