import type {
  FuturesAccount,
  FuturesOrder,
  FuturesPosition,
  PaperBalance,
  PaperOrder,
} from "@meridian/contracts";
import ccxt from "ccxt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BotApiServer, bitgetClient, startBotApiServer, subscribed } from "../../test/bot-api.ts";

/**
 * The contract tests: ccxt's own `bitget` class (4.5.84, sandbox mode, only its URLs
 * pointed here) drives the paper API, and every result is checked against what the web
 * API (`/v1/paper/*`) says about the same account.
 */
type Client = Awaited<ReturnType<typeof bitgetClient>>;

const RATE_SCALE = 5;
let server: BotApiServer;
let cookie: string;
let key: Awaited<ReturnType<BotApiServer["createKey"]>>;
let ex: Client;

beforeAll(async () => {
  // Limits ×RATE_SCALE: the suite runs as fast as the machine allows and must not meet
  // them, except in the test of the limits, which counts with the same scale.
  server = await startBotApiServer({ liveMarket: true, rateScale: RATE_SCALE });
  cookie = await server.newUser();
  key = await server.createKey(cookie);
  ex = await bitgetClient(server.base, key);
  await ex.loadMarkets();
}, 60_000);

afterAll(async () => {
  await ex?.close();
  await server?.close();
});

/** An order's id (ccxt types it as possibly undefined). */
function oid(o: { id?: string | undefined }): string {
  if (o.id === undefined) throw new Error("order without id");
  return o.id;
}

const num = (s: string | undefined) => Number(s ?? "NaN");
const webBalances = async () => (await server.web<PaperBalance[]>(cookie, "GET", "/v1/paper/balances")).data;
const webOpen = async () => (await server.web<PaperOrder[]>(cookie, "GET", "/v1/paper/orders/open")).data;

async function lastPrice(symbol: string): Promise<number> {
  const t = await ex.fetchTicker(symbol);
  if (t.last === undefined) throw new Error(`no last price for ${symbol}`);
  return t.last;
}

async function rejects(p: Promise<unknown>, cls: new (...args: never[]) => Error): Promise<Error> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(cls);
  return error as Error;
}

describe("public market data", () => {
  it("loads spot and USDT-M swap markets with their precision and limits", () => {
    const spot = ex.market("BTC/USDT");
    expect(spot.spot).toBe(true);
    expect(spot.precision.price).toBe(0.01);
    expect(spot.limits.cost?.min).toBeGreaterThan(0);
    const swap = ex.market("BTC/USDT:USDT");
    expect(swap.swap && swap.linear).toBe(true);
    expect(swap.settle).toBe("USDT");
    expect(swap.precision.price).toBe(0.1);
    expect(swap.precision.amount).toBe(0.001);
  });

  it("answers time, tickers, books, candles, trades and funding", async () => {
    expect(Math.abs((await ex.fetchTime()) ?? 0) - Date.now()).toBeLessThan(5_000);
    const t = await ex.fetchTicker("BTC/USDT");
    expect(t.bid).toBeLessThan(t.ask ?? 0);
    const swapTicker = await ex.fetchTicker("BTC/USDT:USDT");
    expect(swapTicker.markPrice).toBeGreaterThan(0);
    expect(Object.keys(await ex.fetchTickers(undefined, { type: "swap" }))).toContain("BTC/USDT:USDT");
    const book = await ex.fetchOrderBook("BTC/USDT", 5);
    expect(book.bids.length).toBe(5);
    expect(book.bids[0]?.[0]).toBeLessThan(book.asks[0]?.[0] ?? 0);
    expect((await ex.fetchOrderBook("BTC/USDT:USDT")).asks.length).toBeGreaterThan(0);
    const candles = await ex.fetchOHLCV("BTC/USDT", "1m", undefined, 10);
    expect(candles.length).toBeGreaterThan(0);
    expect(candles.length).toBeLessThanOrEqual(10);
    expect((await ex.fetchOHLCV("BTC/USDT:USDT", "1h", undefined, 5)).length).toBeGreaterThan(0);
    // The live feed prints its first trades within a tick or two of starting.
    await expect
      .poll(async () => (await ex.fetchTrades("BTC/USDT")).length, { timeout: 5_000 })
      .toBeGreaterThan(0);
    const [trade] = await ex.fetchTrades("BTC/USDT", undefined, 5);
    expect(trade?.price).toBeGreaterThan(0);
    expect(["buy", "sell"]).toContain(trade?.side);
    const rate = await ex.fetchFundingRate("BTC/USDT:USDT");
    expect(rate.symbol).toBe("BTC/USDT:USDT");
    expect(typeof rate.fundingRate).toBe("number");
  });
});

describe("spot trading through ccxt shows on the web API", () => {
  it("balances match the web view", async () => {
    const bal = await ex.fetchBalance();
    for (const b of await webBalances()) {
      expect(bal[b.asset]?.free).toBe(num(b.available));
      expect(bal[b.asset]?.used).toBe(num(b.held));
    }
  });

  it("places, lists, fetches and cancels a limit order", async () => {
    const price = Math.round((await lastPrice("BTC/USDT")) * 0.5);
    const order = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, price);
    const open = await ex.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.id)).toContain(order.id);
    const web = (await webOpen()).find((o) => String(o.orderId) === order.id);
    expect(web?.price).toBe(`${price}.00`);
    expect(web?.origQty).toBe("0.00100");
    const fetched = await ex.fetchOrder(oid(order), "BTC/USDT");
    expect(fetched).toMatchObject({ status: "open", price, amount: 0.001, side: "buy", type: "limit" });
    expect((await ex.fetchBalance()).USDT?.used).toBeCloseTo(price * 0.001 * 1.001, 2);
    await ex.cancelOrder(oid(order), "BTC/USDT");
    expect((await webOpen()).some((o) => String(o.orderId) === order.id)).toBe(false);
    expect((await ex.fetchOrder(oid(order), "BTC/USDT")).status).toBe("canceled");
  });

  it("a market buy fills, and its trade and fee show on both sides", async () => {
    const before = await ex.fetchBalance();
    const price = await lastPrice("BTC/USDT");
    const order = await ex.createOrder("BTC/USDT", "market", "buy", 0.002, price);
    const done = await ex.fetchOrder(oid(order), "BTC/USDT");
    expect(done.status).toBe("closed");
    expect(done.filled).toBeGreaterThan(0);
    const trades = await ex.fetchMyTrades("BTC/USDT");
    const mine = trades.filter((t) => t.order === order.id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0]?.fee?.cost).toBeGreaterThan(0);
    const webTrades = (
      await server.web<{ orderId: number; qty: string }[]>(cookie, "GET", "/v1/paper/trades?symbol=BTCUSDT")
    ).data;
    const filled = webTrades
      .filter((t) => String(t.orderId) === order.id)
      .reduce((s, t) => s + num(t.qty), 0);
    expect(filled).toBeCloseTo(done.filled ?? 0, 8);
    const after = await ex.fetchBalance();
    expect((after.BTC?.total ?? 0) - (before.BTC?.total ?? 0)).toBeCloseTo(done.filled ?? 0, 8);
    const closed = await ex.fetchClosedOrders("BTC/USDT");
    expect(closed.map((o) => o.id)).toContain(order.id);
  });

  it("a spot FOK fills whole at once or expires with nothing filled; an IOC never rests", async () => {
    const price = await lastPrice("BTC/USDT");
    const far = Math.round(price * 0.5);
    const fok = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, far, { timeInForce: "FOK" });
    expect(await ex.fetchOrder(oid(fok), "BTC/USDT")).toMatchObject({ status: "canceled", filled: 0 });
    const ioc = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, far, { timeInForce: "IOC" });
    expect(await ex.fetchOrder(oid(ioc), "BTC/USDT")).toMatchObject({ status: "canceled", filled: 0 });
    expect((await webOpen()).map((o) => String(o.orderId))).not.toContain(fok.id);
    const taken = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, Math.round(price * 1.05), {
      timeInForce: "FOK",
    });
    expect(await ex.fetchOrder(oid(taken), "BTC/USDT")).toMatchObject({ status: "closed", filled: 0.001 });
  });

  it("trigger orders and cancel-all", async () => {
    const price = await lastPrice("BTC/USDT");
    // A sell stop below the market (Meridian's stops fire on a fall for sells, a rise for buys).
    const trigger = Math.round(price * 0.6);
    const plan = await ex.createOrder("BTC/USDT", "limit", "sell", 0.001, trigger - 10, {
      triggerPrice: trigger,
    });
    const plans = await ex.fetchOpenOrders("BTC/USDT", undefined, undefined, { trigger: true });
    expect(plans.map((o) => o.id)).toContain(plan.id);
    const web = (await webOpen()).find((o) => String(o.orderId) === plan.id);
    expect(web).toMatchObject({ type: "STOP_LIMIT", stopPrice: `${trigger}.00` });
    await ex.cancelOrder(oid(plan), "BTC/USDT", { trigger: true });
    expect((await webOpen()).some((o) => String(o.orderId) === plan.id)).toBe(false);

    // A stop-market buy: ccxt sends the quote to spend (0.002 x price) as `size`; it rests
    // as that quote's base quantity at the trigger, rounded down to the lot.
    const up = Math.round(price * 1.5);
    const stopBuy = await ex.createOrder("BTC/USDT", "market", "buy", 0.002, price, { triggerPrice: up });
    const quote = (0.002 * price).toFixed(2);
    const stopWeb = (await webOpen()).find((o) => String(o.orderId) === stopBuy.id);
    expect(stopWeb).toMatchObject({ type: "STOP_MARKET", side: "BUY", stopPrice: `${up}.00` });
    const lots = Math.floor((Number(quote) / up) * 1e5);
    expect(Math.round(num(stopWeb?.origQty) * 1e5)).toBe(lots);
    await ex.cancelOrder(oid(stopBuy), "BTC/USDT", { trigger: true });

    const low = Math.round(price * 0.5);
    await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, low);
    await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, low + 1);
    expect((await webOpen()).length).toBe(2);
    await ex.cancelAllOrders("BTC/USDT");
    expect(await webOpen()).toEqual([]);
  });

  it("web orders show through ccxt", async () => {
    const price = Math.round((await lastPrice("BTC/USDT")) * 0.5);
    const placed = await server.web<{ order: PaperOrder }>(cookie, "POST", "/v1/paper/orders", {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "LIMIT",
      price: String(price),
      quantity: "0.001",
    });
    const id = String(placed.data.order.orderId);
    expect((await ex.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toContain(id);
    await ex.cancelOrder(id, "BTC/USDT");
  });

  it("maps refusals to ccxt's exception classes", async () => {
    const price = Math.round(await lastPrice("BTC/USDT"));
    await rejects(ex.createOrder("BTC/USDT", "limit", "buy", 10, price), ccxt.InsufficientFunds);
    await rejects(
      ex.createOrder("BTC/USDT", "limit", "buy", 0.00001, Math.round(price / 2)),
      ccxt.InvalidOrder,
    );
    await rejects(ex.fetchOrder("999999", "BTC/USDT"), ccxt.OrderNotFound);
    await rejects(ex.cancelOrder("999999", "BTC/USDT"), ccxt.OrderNotFound);
    expect(await webOpen()).toEqual([]);
  });
});

describe("authentication and limits", () => {
  it("refuses a wrong secret, passphrase, key, stale timestamp, or missing PAPTRADING", async () => {
    const wrongSecret = await bitgetClient(server.base, { ...key, secret: "0".repeat(64) });
    await rejects(wrongSecret.fetchBalance(), ccxt.AuthenticationError);
    const wrongPass = await bitgetClient(server.base, { ...key, passphrase: "Wrong12345" });
    await rejects(wrongPass.fetchBalance(), ccxt.AuthenticationError);
    const unknown = await bitgetClient(server.base, { ...key, apiKey: `bg_${"a".repeat(32)}` });
    await rejects(unknown.fetchBalance(), ccxt.AuthenticationError);
    const stale = await bitgetClient(server.base, key);
    stale.options.timeDifference = 60_000;
    await rejects(stale.fetchBalance(), ccxt.InvalidNonce);
    const live = await bitgetClient(server.base, key);
    live.setSandboxMode(false);
    const e = await rejects(live.fetchBalance(), ccxt.ExchangeError);
    expect(e.message).toContain("40099");
    for (const c of [wrongSecret, wrongPass, unknown, stale, live]) await c.close();
  });

  it("enforces permissions and the IP allow-list", async () => {
    const readOnly = await server.createKey(cookie, { permissions: ["read"] });
    const ro = await bitgetClient(server.base, readOnly);
    expect((await ro.fetchBalance()).USDT?.total).toBeGreaterThan(0);
    await rejects(ro.createOrder("BTC/USDT", "limit", "buy", 0.001, 1000), ccxt.PermissionDenied);
    await rejects(ro.transfer("USDT", 1, "spot", "swap"), ccxt.PermissionDenied);
    const fenced = await server.createKey(cookie, { ips: ["10.1.2.0/24"] });
    expect(fenced.expiresAt).toBeNull();
    const fc = await bitgetClient(server.base, fenced);
    await rejects(fc.fetchBalance(), ccxt.PermissionDenied);
    const local = await server.createKey(cookie, { ips: ["127.0.0.1"] });
    expect((await (await bitgetClient(server.base, local)).fetchBalance()).USDT).toBeDefined();
    await ro.close();
    await fc.close();
  });

  it("rate-limits a key per endpoint with RateLimitExceeded", async () => {
    const own = await server.createKey(cookie, { permissions: ["read"] });
    const c = await bitgetClient(server.base, own);
    // Rounds of twice the key's query limit at once, until one is refused (a slow machine
    // may spread a round over two windows). Each call differs (its limit): byte-identical
    // calls signed in one millisecond are one request to the replay check (40005).
    const perSecond = 20 * RATE_SCALE;
    let refused: PromiseSettledResult<unknown>[] = [];
    for (let round = 0; round < 10 && refused.length === 0; round++) {
      const results = await Promise.allSettled(
        Array.from({ length: 2 * perSecond }, (_, i) => c.fetchOpenOrders("BTC/USDT", undefined, i + 1)),
      );
      refused = results.filter((r) => r.status === "rejected");
    }
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ccxt.RateLimitExceeded);
    await c.close();
  });
});

describe("USDT-M perpetuals through ccxt show on the web API", () => {
  const S = "BTC/USDT:USDT";
  const webAccount = async () =>
    (await server.web<FuturesAccount>(cookie, "GET", "/v1/paper/futures/account")).data;
  const webPositions = async () =>
    (await server.web<FuturesPosition[]>(cookie, "GET", "/v1/paper/futures/positions")).data.filter(
      (p) => num(p.quantity) !== 0,
    );

  it("transfers USDT from spot and shows the swap balance", async () => {
    const spotBefore = (await ex.fetchBalance()).USDT?.free ?? 0;
    const first = await ex.transfer("USDT", 5000, "spot", "swap");
    // A real id, a new one for each transfer (0 was answered for all of them once).
    expect(num(first.id)).toBeGreaterThan(0);
    const back = await ex.transfer("USDT", 1, "swap", "spot");
    expect(num(back.id)).toBeGreaterThan(num(first.id));
    await ex.transfer("USDT", 1, "spot", "swap");
    expect((await ex.fetchBalance()).USDT?.free).toBeCloseTo(spotBefore - 5000, 6);
    const web = await webAccount();
    expect(num(web.wallet)).toBe(5000);
    const swap = await ex.fetchBalance({ type: "swap" });
    expect(swap.USDT?.total).toBe(num(web.marginBalance));
    expect(swap.USDT?.free).toBe(num(web.maxTransferOut));
  });

  it("sets leverage and margin mode", async () => {
    await ex.setMarginMode("isolated", S);
    await ex.setLeverage(5, S);
    const settings = (
      await server.web<{ leverage: number; marginMode: string }>(
        cookie,
        "GET",
        "/v1/paper/futures/settings?symbol=BTCUSDT",
      )
    ).data;
    expect(settings).toMatchObject({ leverage: 5, marginMode: "isolated" });
    await ex.setMarginMode("cross", S);
    expect((await ex.fetchLeverage(S)).longLeverage).toBe(5);
  });

  it("opens a position with TP/SL, lists it, and closes it", async () => {
    const price = await lastPrice(S);
    const order = await ex.createOrder(S, "market", "buy", 0.01, undefined, {
      takeProfit: { triggerPrice: Math.round(price * 1.2) },
      stopLoss: { triggerPrice: Math.round(price * 0.8) },
    });
    const detail = await ex.fetchOrder(oid(order), S);
    expect(detail).toMatchObject({ status: "closed", filled: 0.01, side: "buy" });
    const positions = await ex.fetchPositions([S]);
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ symbol: S, side: "long", contracts: 0.01 });
    const web = await webPositions();
    expect(web).toHaveLength(1);
    expect(web[0]).toMatchObject({ symbol: "BTCUSDT", quantity: "0.010" });
    expect(positions[0]?.entryPrice).toBe(num(web[0]?.entryPrice));
    const plans = await ex.fetchOpenOrders(S, undefined, undefined, { trigger: true });
    expect(plans.map((o) => o.triggerPrice).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([
      Math.round(price * 0.8),
      Math.round(price * 1.2),
    ]);
    const fills = await ex.fetchMyTrades(S);
    expect(fills.some((t) => t.order === order.id)).toBe(true);
    expect((await ex.fetchClosedOrders(S)).map((o) => o.id)).toContain(order.id);
    // The position names its TP/SL orders and its times; the order its fee and presets.
    const tp = plans.find((o) => o.triggerPrice === Math.round(price * 1.2));
    const sl = plans.find((o) => o.triggerPrice === Math.round(price * 0.8));
    const fill = fills.find((t) => t.order === order.id);
    expect(positions[0]?.info).toMatchObject({
      takeProfitId: tp?.id,
      stopLossId: sl?.id,
      assetMode: "single",
      cTime: String(fill?.timestamp),
      uTime: String(fill?.timestamp),
    });
    const webDetail = (
      await server.web<{ fee: string }>(cookie, "GET", `/v1/paper/futures/orders/${order.id}`)
    ).data;
    expect(detail.info).toMatchObject({
      fee: `-${webDetail.fee}`,
      presetStopSurplusPrice: `${Math.round(price * 1.2)}.0`,
      presetStopLossPrice: `${Math.round(price * 0.8)}.0`,
      cancelReason: "",
    });
    expect(detail.fee?.cost).toBe(num(webDetail.fee));

    // Leverage changes with the (cross) position open, while the margin allows it.
    await ex.setLeverage(10, S);
    expect((await ex.fetchPositions([S]))[0]?.leverage).toBe(10);
    expect((await webPositions())[0]?.leverage).toBe(10);

    await ex.closePosition(S);
    expect(await webPositions()).toEqual([]);
    expect(await ex.fetchPositions([S])).toEqual([]);
  });

  it("honours IOC, FOK and post-only on swap limit orders", async () => {
    const price = await lastPrice(S);
    const far = Math.round(price * 0.7);
    const webOpenIds = async () =>
      (await server.web<FuturesOrder[]>(cookie, "GET", "/v1/paper/futures/orders/open")).data.map((o) =>
        String(o.id),
      );
    // ccxt sends `force: "IOC"` (upper case): nothing fills far below the market, nothing rests.
    const ioc = await ex.createOrder(S, "limit", "buy", 0.01, far, { timeInForce: "IOC" });
    expect(await ex.fetchOrder(oid(ioc), S)).toMatchObject({
      status: "canceled",
      filled: 0,
      timeInForce: "IOC",
    });
    expect(await webOpenIds()).not.toContain(ioc.id);
    // Above the ask an IOC buy fills at once.
    const taken = await ex.createOrder(S, "limit", "buy", 0.01, Math.round(price * 1.05), {
      timeInForce: "IOC",
    });
    expect(await ex.fetchOrder(oid(taken), S)).toMatchObject({ status: "closed", filled: 0.01 });
    await ex.closePosition(S);
    // A FOK that cannot fill in full at its price is accepted and expires with nothing filled
    // (as on Bitget); one that can fills in full at once.
    const fokFar = await ex.createOrder(S, "limit", "buy", 0.01, far, { timeInForce: "FOK" });
    expect(await ex.fetchOrder(oid(fokFar), S)).toMatchObject({
      status: "canceled",
      filled: 0,
      timeInForce: "FOK",
    });
    expect(await webOpenIds()).not.toContain(fokFar.id);
    const fokTaken = await ex.createOrder(S, "limit", "buy", 0.01, Math.round(price * 1.05), {
      timeInForce: "FOK",
    });
    expect(await ex.fetchOrder(oid(fokTaken), S)).toMatchObject({ status: "closed", filled: 0.01 });
    await ex.closePosition(S);
    await rejects(
      ex.createOrder(S, "limit", "buy", 0.01, Math.round(price * 1.05), { postOnly: true }),
      ccxt.InvalidOrder,
    );
    const maker = await ex.createOrder(S, "limit", "buy", 0.01, far, { postOnly: true });
    expect(await webOpenIds()).toContain(maker.id);
    // The order says what was asked (Bitget's `force`), in ccxt's words.
    expect(await ex.fetchOrder(oid(maker), S)).toMatchObject({ timeInForce: "PO", postOnly: true });
    const web = (await server.web<FuturesOrder[]>(cookie, "GET", "/v1/paper/futures/orders/open")).data;
    expect(web.find((o) => String(o.id) === maker.id)?.timeInForce).toBe("GTX");
    await ex.cancelOrder(oid(maker), S);
  });

  it("places, lists and cancels a resting swap order, and maps refusals", async () => {
    const price = Math.round(await lastPrice(S));
    const order = await ex.createOrder(S, "limit", "buy", 0.01, Math.round(price * 0.7));
    expect((await ex.fetchOpenOrders(S)).map((o) => o.id)).toContain(order.id);
    const webOpenF = (await server.web<FuturesOrder[]>(cookie, "GET", "/v1/paper/futures/orders/open")).data;
    expect(webOpenF.map((o) => String(o.id))).toContain(order.id);
    await ex.cancelOrder(oid(order), S);
    expect((await ex.fetchOrder(oid(order), S)).status).toBe("canceled");
    await rejects(ex.createOrder(S, "market", "buy", 100, undefined), ccxt.InsufficientFunds);
    await rejects(ex.cancelOrder("999999", S), ccxt.OrderNotFound);
  });

  it("a clientOrderId places a swap order once; fetch and cancel by it; a clientOid transfers once", async () => {
    const price = Math.round((await lastPrice(S)) * 0.7);
    const cid = `ccxt-${Date.now().toString(36)}`;
    // Two at once with one id (the second differs in price: byte-identical requests signed
    // in one millisecond would be one request to the replay check).
    const [a, b] = await Promise.all([
      ex.createOrder(S, "limit", "buy", 0.01, price, { clientOrderId: cid }),
      ex.createOrder(S, "limit", "buy", 0.01, price - 1, { clientOrderId: cid }),
    ]);
    expect(b.id).toBe(a.id);
    expect(a.clientOrderId).toBe(cid);
    const again = await ex.createOrder(S, "limit", "buy", 0.01, price, { clientOrderId: cid });
    expect(again.id).toBe(a.id);
    const open = (await ex.fetchOpenOrders(S)).filter((o) => o.clientOrderId === cid);
    expect(open.map((o) => o.id)).toEqual([a.id]);
    expect((await ex.fetchOpenOrders(S, undefined, undefined, { clientOid: cid })).map((o) => o.id)).toEqual([
      a.id,
    ]);
    expect(await ex.fetchOrder("", S, { clientOrderId: cid })).toMatchObject({ id: a.id, status: "open" });
    await ex.cancelOrder("", S, { clientOrderId: cid });
    expect((await ex.fetchOrder(oid(a), S)).status).toBe("canceled");
    await rejects(ex.fetchOrder("", S, { clientOrderId: `${cid}-none` }), ccxt.OrderNotFound);

    // createOrders: the batch answers each item; the repeated id is the first order again.
    const batch = await ex.createOrders([
      { symbol: S, type: "limit", side: "buy", amount: 0.01, price, params: { clientOrderId: `${cid}-b` } },
      { symbol: S, type: "limit", side: "buy", amount: 0.01, price, params: { clientOrderId: `${cid}-b` } },
    ]);
    expect(batch.map((o) => o.id)).toEqual([batch[0]?.id, batch[0]?.id]);
    await ex.cancelOrder(oid(batch[0] ?? {}), S);

    const walletBefore = num((await webAccount()).wallet);
    const tid = `tr-${Date.now().toString(36)}`;
    const twice = await Promise.all([
      ex.transfer("USDT", 7, "spot", "swap", { clientOid: tid }),
      ex.transfer("USDT", 7.5, "spot", "swap", { clientOid: tid }),
    ]);
    const resent = await ex.transfer("USDT", 7, "spot", "swap", { clientOid: tid });
    // Each answer names the one transfer made, by its real id.
    expect(num(resent.id)).toBeGreaterThan(0);
    expect(twice.map((t) => t.id)).toEqual([resent.id, resent.id]);
    // One transfer moved, whichever of the two came first.
    expect([walletBefore + 7, walletBefore + 7.5]).toContain(num((await webAccount()).wallet));
  });

  it("lists the transfers with their ids, coins, amounts and wallets (fetchTransfers)", async () => {
    const walletBefore = num((await webAccount()).wallet);
    const tid = `tl-${Date.now().toString(36)}`;
    const toSwap = await ex.transfer("USDT", 12.5, "spot", "swap", { clientOid: tid });
    const toCross = await ex.transfer("USDT", 3, "spot", "cross");
    const back = await ex.transfer("USDT", 2, "swap", "spot");
    // One made on the web page lists beside them, under the id the page was answered.
    const web = await server.web<{ tranId: number }>(cookie, "POST", "/v1/paper/asset/transfer", {
      from: "SPOT",
      to: "FUTURES",
      asset: "USDT",
      amount: "1.25",
    });
    expect(web.data.tranId).toBeGreaterThan(0);
    const webId = String(web.data.tranId);
    expect(num((await webAccount()).wallet)).toBeCloseTo(walletBefore + 12.5 - 2 + 1.25, 8);

    const fromSpot = await ex.fetchTransfers("USDT");
    const byId = new Map(fromSpot.map((t) => [t.id, t]));
    expect(byId.get(toSwap.id)).toMatchObject({
      currency: "USDT",
      amount: 12.5,
      fromAccount: "spot",
      toAccount: "swap",
      status: "ok",
    });
    expect(((byId.get(toSwap.id)?.info ?? {}) as { clientOid?: string }).clientOid).toBe(tid);
    expect(byId.get(toCross.id)).toMatchObject({ amount: 3, fromAccount: "spot", toAccount: "cross" });
    expect(byId.get(webId)).toMatchObject({ amount: 1.25, fromAccount: "spot", toAccount: "swap" });
    // Transfers out of another wallet are not among spot's.
    expect(byId.has(back.id ?? "")).toBe(false);
    // Every id once, each with its time; Bitget answers newest first (ccxt sorts by time).
    const ids = fromSpot.map((t) => num(t.id));
    expect(new Set(ids).size).toBe(ids.length);
    const raw = await (
      ex as unknown as {
        privateSpotGetV2SpotAccountTransferRecords(
          p: object,
        ): Promise<{ data: Array<{ transferId: string }> }>;
      }
    ).privateSpotGetV2SpotAccountTransferRecords({ coin: "USDT", fromType: "spot", limit: 2 });
    expect(raw.data.map((t) => t.transferId)).toEqual([webId, toCross.id]);
    expect(fromSpot.every((t) => (t.timestamp ?? 0) > 0)).toBe(true);

    const fromSwap = await ex.fetchTransfers("USDT", undefined, undefined, { type: "swap" });
    expect(fromSwap.at(-1)).toMatchObject({ id: back.id, amount: 2, fromAccount: "swap", toAccount: "spot" });
    // The web's cross margin records show the same transfer in.
    const records = (
      await server.web<Array<{ type: string; amount: string }>>(
        cookie,
        "GET",
        "/v1/paper/margin/records?type=TRANSFER_IN",
      )
    ).data;
    expect(records.map((r) => num(r.amount))).toContain(3);
  });
});

describe("WebSocket through ccxt.pro", () => {
  it("watches ticker, books (incremental, checksummed), books5, trades and candles", async () => {
    const ticker = await ex.watchTicker("BTC/USDT");
    expect(ticker.symbol).toBe("BTC/USDT");
    expect(ticker.last).toBeGreaterThan(0);
    const swapTicker = await ex.watchTicker("BTC/USDT:USDT");
    expect(swapTicker.symbol).toBe("BTC/USDT:USDT");
    expect(num((swapTicker.info as { markPrice?: string }).markPrice)).toBeGreaterThan(0);
    // The snapshot, then two updates checked against the checksum (ccxt raises ChecksumError otherwise).
    let book = await ex.watchOrderBook("BTC/USDT");
    for (let i = 0; i < 2; i++) book = await ex.watchOrderBook("BTC/USDT");
    expect(book.bids[0]?.[0]).toBeLessThan(book.asks[0]?.[0] ?? 0);
    expect(book.bids.length).toBeGreaterThan(10);
    const top5 = await ex.watchOrderBook("ETH/USDT", 5);
    expect(top5.asks.length).toBe(5);
    const trades = await ex.watchTrades("BTC/USDT");
    expect(trades.length).toBeGreaterThan(0);
    expect(trades[0]?.symbol).toBe("BTC/USDT");
    const candles = await ex.watchOHLCV("BTC/USDT", "1m");
    expect(candles.length).toBeGreaterThan(0);
    expect(candles.at(-1)?.[4]).toBeGreaterThan(0);
  });

  it("logs in and watches orders, fills, balance and positions as REST trading happens", async () => {
    const price = Math.round((await lastPrice("BTC/USDT")) * 0.5);
    const ordersAcked = subscribed(ex, "orders");
    const orders = ex.watchOrders("BTC/USDT");
    await ordersAcked;
    const placed = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, price);
    const seen = await orders;
    expect(seen.map((o) => o.id)).toContain(placed.id);
    expect(seen.find((o) => o.id === placed.id)).toMatchObject({ status: "open", side: "buy" });

    const balanceAcked = subscribed(ex, "account");
    const balance = ex.watchBalance();
    await balanceAcked;
    await ex.cancelOrder(oid(placed), "BTC/USDT");
    const bal = await balance;
    const web = await webBalances();
    expect(bal.USDT?.free).toBe(num(web.find((b) => b.asset === "USDT")?.available));

    const fillsAcked = subscribed(ex, "fill");
    const fills = ex.watchMyTrades("BTC/USDT");
    await fillsAcked;
    const bought = await ex.createOrder("BTC/USDT", "market", "buy", 0.001, await lastPrice("BTC/USDT"));
    const myTrades = await fills;
    expect(myTrades.some((t) => t.order === bought.id)).toBe(true);

    const S = "BTC/USDT:USDT";
    await ex.transfer("USDT", 500, "spot", "swap");
    // The subscription's own snapshot first (no position yet), then the push of the fill.
    await ex.watchPositions([S]);
    const positions = ex.watchPositions([S]);
    await ex.createOrder(S, "market", "sell", 0.01);
    const pos = await positions;
    expect(pos.find((p) => p.symbol === S && p.side === "short")).toMatchObject({ contracts: 0.01 });
    // The push carries the position's times from its fills, as REST does.
    const pushed = pos.find((p) => p.symbol === S)?.info as { cTime?: string; uTime?: string } | undefined;
    const rest = (await ex.fetchPositions([S]))[0]?.info as { cTime?: string; uTime?: string } | undefined;
    expect(pushed?.cTime).toMatch(/^\d{13}$/);
    expect([pushed?.cTime, pushed?.uTime]).toEqual([rest?.cTime, rest?.uTime]);
    await ex.closePosition(S);
  });
});

describe("WebSocket protocol details", () => {
  it("answers the string ping, refuses unknown channels, private channels before login, and bad logins", async () => {
    const ws = (path: string) =>
      new Promise<WebSocket>((resolve, reject) => {
        const s = new WebSocket(`${server.base.replace(/^http/, "ws")}${path}`);
        s.onopen = () => resolve(s);
        s.onerror = () => reject(new Error("ws error"));
      });
    const next = (s: WebSocket) =>
      new Promise<string>((resolve) => {
        s.onmessage = (e) => resolve(String(e.data));
      });
    const pub = await ws("/v2/ws/public");
    let reply = next(pub);
    pub.send("ping");
    expect(await reply).toBe("pong");
    reply = next(pub);
    pub.send(
      JSON.stringify({ op: "subscribe", args: [{ instType: "SPOT", channel: "nope", instId: "BTCUSDT" }] }),
    );
    expect(JSON.parse(await reply)).toMatchObject({ event: "error", code: 30001 });
    pub.close();

    const priv = await ws("/v2/ws/private");
    reply = next(priv);
    priv.send(
      JSON.stringify({ op: "subscribe", args: [{ instType: "SPOT", channel: "orders", instId: "default" }] }),
    );
    expect(JSON.parse(await reply)).toMatchObject({ event: "error", code: 30002 });
    reply = next(priv);
    const ts = String(Math.floor(Date.now() / 1000));
    priv.send(
      JSON.stringify({
        op: "login",
        args: [{ apiKey: key.apiKey, passphrase: key.passphrase, timestamp: ts, sign: "AAAA" }],
      }),
    );
    expect(JSON.parse(await reply)).toMatchObject({ event: "error", code: 30015 });
    priv.close();
  });
});

describe("what paper trading cannot do, and paths it does not serve", () => {
  it("raises PermissionDenied for deposits and withdrawals, BadRequest for an unknown endpoint", async () => {
    const since = Date.now() - 86_400_000;
    for (const call of [
      () => ex.fetchDeposits("USDT", since),
      () => ex.fetchWithdrawals("USDT", since),
      () =>
        ex.withdraw("USDT", 10, "0x0000000000000000000000000000000000000001", undefined, {
          network: "ERC20",
        }),
    ]) {
      const error = await rejects(call(), ccxt.PermissionDenied);
      expect(error.message).toMatch(/not available on paper trading/);
    }
    // An endpoint Meridian does not have: Bitget's 40404, never HTML (ExchangeNotAvailable).
    await rejects(ex.privateConvertGetV2ConvertCurrencies(), ccxt.BadRequest);
    await rejects(ex.privateConvertPostV2ConvertTrade({ fromCoin: "USDT", toCoin: "BTC" }), ccxt.BadRequest);
  });
});

describe("fees, mark prices, batch cancels and isolated margin through ccxt", () => {
  const S = "BTC/USDT:USDT";

  it("fetchTradingFee answers the owner's VIP rates, as the web's fee page", async () => {
    const fees = (
      await server.web<{ current: { makerPpm: number; takerPpm: number } }>(cookie, "GET", "/v1/paper/fees")
    ).data.current;
    const spot = await ex.fetchTradingFee("BTC/USDT");
    expect([spot.maker, spot.taker]).toEqual([fees.makerPpm / 1e6, fees.takerPpm / 1e6]);
    const swap = await ex.fetchTradingFee(S);
    expect(swap.maker).toBeGreaterThanOrEqual(0);
    expect(swap.taker).toBeGreaterThan(swap.maker ?? 0);
    await rejects(ex.fetchTradingFee("ETH/BTC"), ccxt.BadSymbol);
  });

  it("fetchMarkPrice answers the futures marks", async () => {
    const marks = (
      await server.web<{ symbol: string; markPrice: string; indexPrice: string }[]>(
        cookie,
        "GET",
        "/v1/paper/futures/marks",
      )
    ).data;
    const mark = await ex.fetchMarkPrice(S);
    const web = marks.find((m) => m.symbol === "BTCUSDT");
    expect(mark.symbol).toBe(S);
    // The mark moves with the market: within a percent of the web's a moment later.
    expect(Math.abs((mark.markPrice ?? 0) / num(web?.markPrice) - 1)).toBeLessThan(0.01);
    expect(mark.indexPrice).toBeGreaterThan(0);
  });

  it("createOrders places a spot batch; a refused item is in failureList", async () => {
    const price = Math.round((await lastPrice("BTC/USDT")) * 0.5);
    const placed = await ex.createOrders([
      { symbol: "BTC/USDT", type: "limit", side: "buy", amount: 0.001, price },
      { symbol: "BTC/USDT", type: "limit", side: "buy", amount: 0.001, price: price + 1 },
      { symbol: "BTC/USDT", type: "limit", side: "buy", amount: 1_000, price },
    ]);
    // ccxt 4.5.84 parses the failureList too, but its symbol filter drops those entries
    // (they carry no symbol): the refusal shows in the raw answer below.
    const ok = placed.filter((o) => o.status !== "rejected").map((o) => o.id);
    expect(ok).toHaveLength(2);
    const raw = (await (
      ex as unknown as { privateSpotPostV2SpotTradeBatchOrders(b: unknown): Promise<unknown> }
    ).privateSpotPostV2SpotTradeBatchOrders({
      symbol: "BTCUSDT",
      orderList: [{ orderType: "limit", price: String(price), force: "GTC", side: "buy", size: "1000" }],
    })) as { data: { successList: unknown[]; failureList: { errorCode: string }[] } };
    expect(raw.data.successList).toEqual([]);
    expect(raw.data.failureList.map((f) => f.errorCode)).toEqual(["43012"]);
    const open = (await webOpen()).map((o) => String(o.orderId));
    for (const id of ok) expect(open).toContain(id);
    await ex.cancelOrders(
      ok.map((id) => id ?? ""),
      "BTC/USDT",
    );
    expect((await webOpen()).map((o) => String(o.orderId))).not.toContain(ok[0]);
  });

  it("cancelOrders cancels listed spot and swap orders, reporting one already gone", async () => {
    const spotPrice = Math.round((await lastPrice("BTC/USDT")) * 0.5);
    const a = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, spotPrice);
    const b = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, spotPrice + 1);
    await ex.cancelOrder(oid(b), "BTC/USDT");
    const spotDone = await ex.cancelOrders([oid(a), oid(b)], "BTC/USDT");
    expect(spotDone.filter((o) => o.status !== "rejected").map((o) => o.id)).toEqual([a.id]);
    expect((await webOpen()).map((o) => String(o.orderId))).not.toContain(a.id);

    const swapPrice = Math.round((await lastPrice(S)) * 0.7);
    const c = await ex.createOrder(S, "limit", "buy", 0.01, swapPrice);
    const d = await ex.createOrder(S, "limit", "buy", 0.01, swapPrice + 1);
    const swapDone = await ex.cancelOrders([oid(c), oid(d), "999999"], S);
    expect(swapDone.filter((o) => o.status !== "rejected").map((o) => o.id)).toEqual([c.id, d.id]);
    const webF = (await server.web<FuturesOrder[]>(cookie, "GET", "/v1/paper/futures/orders/open")).data;
    expect(webF.map((o) => String(o.id))).not.toContain(c.id);
  });

  it("addMargin and reduceMargin move an isolated position's margin", async () => {
    await ex.transfer("USDT", 200, "spot", "swap");
    // Margin mode changes need no orders on the symbol: earlier tests' TP/SL legs may rest.
    await ex.cancelAllOrders(S);
    await ex.cancelAllOrders(S, { trigger: true });
    await ex.setMarginMode("isolated", S);
    const webMargin = async () =>
      num(
        (await server.web<FuturesPosition[]>(cookie, "GET", "/v1/paper/futures/positions")).data.find(
          (p) => p.symbol === "BTCUSDT" && num(p.quantity) !== 0,
        )?.margin,
      );
    // ccxt sends `marginMode: "crossed"` unless told: the order sets the symbol's mode.
    await ex.createOrder(S, "market", "buy", 0.002, undefined, { marginMode: "isolated" });
    const before = await webMargin();
    const added = await ex.addMargin(S, 10, { holdSide: "long" });
    expect(added).toMatchObject({ status: "ok", type: "add", amount: 10 });
    expect(await webMargin()).toBeCloseTo(before + 10, 6);
    await ex.reduceMargin(S, -5, { holdSide: "long" });
    expect(await webMargin()).toBeCloseTo(before + 5, 6);
    await rejects(ex.reduceMargin(S, -100_000, { holdSide: "long" }), ccxt.InsufficientFunds);
    await ex.closePosition(S);
    await ex.setMarginMode("cross", S);
  });
});

describe("position history, funding and the swap ledger through ccxt", () => {
  const S = "BTC/USDT:USDT";

  it("fetchFundingHistory, fetchLedger and fetchPositionsHistory match the web's records", async () => {
    await ex.transfer("USDT", 100, "spot", "swap");
    const opened = await ex.createOrder(S, "market", "sell", 0.002);
    // A funding settlement while the short is open (the futures service's own tick).
    await (server.scope.futures.local as { settleFunding(): Promise<void> }).settleFunding();
    await ex.closePosition(S);

    const webFunding = (
      await server.web<{ id: number; amount: string; time: number }[]>(
        cookie,
        "GET",
        "/v1/paper/futures/funding",
      )
    ).data;
    expect(webFunding.length).toBeGreaterThan(0);
    const funding = await ex.fetchFundingHistory(S);
    expect(funding.map((f) => [f.id, f.amount])).toEqual(
      webFunding.map((f) => [`2${f.id}`, num(f.amount)]).slice(0, funding.length),
    );

    const ledger = await ex.fetchLedger("USDT", undefined, undefined, { type: "swap", symbol: S });
    const fills = await ex.fetchMyTrades(S);
    const openFill = fills.find((t) => t.order === opened.id);
    expect(ledger.map((e) => e.id)).toContain(`1${openFill?.id}`);

    const history = await ex.fetchPositionsHistory([S]);
    const webHistory = (
      await server.web<{ openTime: number; closeTime: number; realisedPnl: string; direction: string }[]>(
        cookie,
        "GET",
        "/v1/paper/futures/positions/history?symbol=BTCUSDT",
      )
    ).data;
    expect(history[0]).toMatchObject({ symbol: S, side: "short" });
    expect(history[0]?.realizedPnl).toBe(num(webHistory[0]?.realisedPnl));
    expect((history[0]?.info as { utime?: string } | undefined)?.utime).toBe(
      String(webHistory[0]?.closeTime),
    );
  });
});

describe("funding rate history through ccxt", () => {
  it("lists each settled rate, newest last, as the web's funding records saw it", async () => {
    const S = "BTC/USDT:USDT";
    const settle = () => (server.scope.futures.local as { settleFunding(): Promise<void> }).settleFunding();
    const before = await ex.fetchFundingRateHistory(S);
    await ex.transfer("USDT", 100, "spot", "swap");
    await ex.createOrder(S, "market", "buy", 0.002);
    await settle();
    await ex.closePosition(S);
    // Recorded with no position open too: it is the market's rate, not an account's.
    await settle();
    const after = await ex.fetchFundingRateHistory(S);
    expect(after.length).toBe(before.length + 2);
    const webFunding = (
      await server.web<{ rate: string; time: number }[]>(cookie, "GET", "/v1/paper/futures/funding")
    ).data;
    const paid = after.at(-2);
    expect(paid?.symbol).toBe(S);
    expect(paid?.fundingRate).toBe(num(webFunding[0]?.rate));
    expect(paid?.timestamp ?? 0).toBeLessThanOrEqual(webFunding[0]?.time ?? 0);
    expect((after.at(-1)?.timestamp ?? 0) >= (paid?.timestamp ?? 0)).toBe(true);
    // Pages of Bitget's pageSize and pageNo, newest first.
    const page = await ex.fetchFundingRateHistory(S, undefined, 1, { pageNo: 2 });
    expect(page.map((r) => r.timestamp)).toEqual([paid?.timestamp]);
  });
});

describe("mark and index candles through ccxt", () => {
  it("follow the futures mark model, not the last price", async () => {
    const S = "BTC/USDT:USDT";
    const futures = server.scope.futures.local as {
      pinMark(symbol: string, price: string | null): Promise<unknown>;
    };
    const last = await ex.fetchOHLCV(S, "1m", undefined, 2);
    const lastClose = last.at(-1)?.[4] ?? 0;
    // A mark pinned 3 % under the last price: the mark candles close there, the others do not.
    const pinned = (Math.round(lastClose * 0.97 * 10) / 10).toFixed(1);
    await futures.pinMark("BTCUSDT", pinned);
    try {
      const mark = await ex.fetchOHLCV(S, "1m", undefined, 2, { price: "mark" });
      expect(mark.at(-1)?.[4]).toBe(num(pinned));
      expect((await ex.fetchOHLCV(S, "1m", undefined, 2)).at(-1)?.[4]).not.toBe(num(pinned));
      // The history endpoint (history-mark-candles) answers the same series.
      const history = await ex.fetchOHLCV(S, "1m", undefined, 2, { price: "mark", useHistoryEndpoint: true });
      expect(history.at(-1)?.[4]).toBe(num(pinned));
      const marks = (
        await server.web<{ symbol: string; markPrice: string; indexPrice: string }[]>(
          cookie,
          "GET",
          "/v1/paper/futures/marks",
        )
      ).data;
      expect(num(marks.find((m) => m.symbol === "BTCUSDT")?.markPrice)).toBe(num(pinned));
      // The index candles follow the index (the spot price), which pinning leaves alone.
      const index = await ex.fetchOHLCV(S, "1m", undefined, 2, { price: "index" });
      const webIndex = num(marks.find((m) => m.symbol === "BTCUSDT")?.indexPrice);
      expect(Math.abs((index.at(-1)?.[4] ?? 0) / webIndex - 1)).toBeLessThan(0.01);
      const indexHistory = await ex.fetchOHLCV(S, "1m", undefined, 2, {
        price: "index",
        useHistoryEndpoint: true,
      });
      expect(indexHistory.length).toBeGreaterThan(0);
    } finally {
      await futures.pinMark("BTCUSDT", null);
    }
  });
});

describe("open interest through ccxt", () => {
  it("is the size held in open positions: this account's, the only trader here", async () => {
    const S = "BTC/USDT:USDT";
    await ex.transfer("USDT", 100, "spot", "swap");
    const before = (await ex.fetchOpenInterest(S)).openInterestAmount ?? Number.NaN;
    await ex.createOrder(S, "market", "sell", 0.003);
    const held = (await server.web<FuturesPosition[]>(cookie, "GET", "/v1/paper/futures/positions")).data
      .filter((p) => p.symbol === "BTCUSDT")
      .reduce((sum, p) => sum + Math.abs(num(p.quantity)), 0);
    const oi = await ex.fetchOpenInterest(S);
    expect(oi.symbol).toBe(S);
    expect(oi.openInterestAmount).toBeCloseTo(held, 9);
    expect(oi.openInterestAmount).toBeCloseTo(before + 0.003, 9);
    await ex.closePosition(S);
  });
});

describe("the spot ledger through ccxt", () => {
  it("lists each spot fill's base and quote movement, as the web's trades", async () => {
    const bought = await ex.createOrder("BTC/USDT", "market", "buy", 0.001, await lastPrice("BTC/USDT"));
    const webTrades = (
      await server.web<{ tradeId: number; orderId: number; qty: string; quoteQty: string; fee: string }[]>(
        cookie,
        "GET",
        "/v1/paper/trades?symbol=BTCUSDT",
      )
    ).data.filter((t) => String(t.orderId) === bought.id);
    expect(webTrades.length).toBeGreaterThan(0);
    const usdt = await ex.fetchLedger("USDT");
    const btc = await ex.fetchLedger("BTC");
    for (const t of webTrades) {
      expect(usdt.find((e) => e.id === `${t.tradeId}1`)).toMatchObject({
        direction: "out",
        amount: num(t.quoteQty),
        currency: "USDT",
      });
      expect(usdt.find((e) => e.id === `${t.tradeId}1`)?.fee?.cost).toBe(num(t.fee));
      expect(btc.find((e) => e.id === `${t.tradeId}0`)).toMatchObject({
        direction: "in",
        amount: num(t.qty),
      });
    }
  });
});

describe("editOrder through ccxt", () => {
  it("replaces a resting spot and swap order with the new price and size", async () => {
    const spotPrice = Math.round((await lastPrice("BTC/USDT")) * 0.5);
    const spot = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, spotPrice);
    const edited = await ex.editOrder(oid(spot), "BTC/USDT", "limit", "buy", 0.002, spotPrice + 5);
    expect(edited.id).not.toBe(spot.id);
    const open = await webOpen();
    expect(open.map((o) => String(o.orderId))).not.toContain(spot.id);
    expect(open.find((o) => String(o.orderId) === edited.id)).toMatchObject({
      side: "BUY",
      price: `${spotPrice + 5}.00`,
      origQty: "0.00200",
    });
    await ex.cancelOrder(oid(edited), "BTC/USDT");

    const S = "BTC/USDT:USDT";
    const swapPrice = Math.round((await lastPrice(S)) * 0.7);
    const swap = await ex.createOrder(S, "limit", "buy", 0.01, swapPrice);
    const moved = await ex.editOrder(oid(swap), S, "limit", "buy", 0.02, swapPrice + 3);
    expect(moved.id).not.toBe(swap.id);
    const webF = (await server.web<FuturesOrder[]>(cookie, "GET", "/v1/paper/futures/orders/open")).data;
    expect(webF.map((o) => String(o.id))).not.toContain(swap.id);
    expect(webF.find((o) => String(o.id) === moved.id)).toMatchObject({ side: "BUY", quantity: "0.020" });
    expect(num(webF.find((o) => String(o.id) === moved.id)?.price ?? undefined)).toBe(swapPrice + 3);
    await ex.cancelOrder(oid(moved), S);
    await rejects(ex.editOrder("999999", S, "limit", "buy", 0.01, swapPrice), ccxt.OrderNotFound);
  });

  it("moves a spot and a swap trigger order to a new trigger", async () => {
    const price = await lastPrice("BTC/USDT");
    const t1 = Math.round(price * 0.6);
    const plan = await ex.createOrder("BTC/USDT", "limit", "sell", 0.001, t1 - 10, { triggerPrice: t1 });
    const t2 = t1 - 100;
    const moved = await ex.editOrder(oid(plan), "BTC/USDT", "limit", "sell", 0.002, t2 - 10, {
      triggerPrice: t2,
    });
    const open = await webOpen();
    expect(open.map((o) => String(o.orderId))).not.toContain(plan.id);
    expect(open.find((o) => String(o.orderId) === moved.id)).toMatchObject({
      type: "STOP_LIMIT",
      side: "SELL",
      stopPrice: `${t2}.00`,
      price: `${t2 - 10}.00`,
      origQty: "0.00200",
    });
    await ex.cancelOrder(oid(moved), "BTC/USDT", { trigger: true });

    const S = "BTC/USDT:USDT";
    const mark = (await ex.fetchTicker(S)).markPrice ?? 0;
    const swapPlan = await ex.createOrder(S, "market", "buy", 0.001, undefined, {
      triggerPrice: Math.round(mark * 1.2),
    });
    const up = Math.round(mark * 1.25);
    const swapMoved = await ex.editOrder(oid(swapPlan), S, "market", "buy", 0.002, undefined, {
      triggerPrice: up,
    });
    const webF = (await server.web<FuturesOrder[]>(cookie, "GET", "/v1/paper/futures/orders/open")).data;
    expect(webF.map((o) => String(o.id))).not.toContain(swapPlan.id);
    const again = webF.find((o) => String(o.id) === swapMoved.id);
    expect(again).toMatchObject({ side: "BUY", quantity: "0.002" });
    expect(num(again?.stopPrice ?? undefined)).toBe(up);
    await ex.cancelOrder(oid(swapMoved), S, { trigger: true });
  });
});

describe("limit and trailing plans, and TP/SL edits, through ccxt", () => {
  const S = "BTC/USDT:USDT";
  const webFutures = async () =>
    (await server.web<FuturesOrder[]>(cookie, "GET", "/v1/paper/futures/orders/open")).data;

  it("places, lists, moves and cancels a limit-executed trigger order", async () => {
    await ex.transfer("USDT", 100, "spot", "swap");
    const mark = (await ex.fetchTicker(S)).markPrice ?? 0;
    const trigger = Math.round(mark * 1.2);
    const plan = await ex.createOrder(S, "limit", "buy", 0.001, trigger + 10, { triggerPrice: trigger });
    const listed = (await ex.fetchOpenOrders(S, undefined, undefined, { trigger: true })).find(
      (o) => o.id === plan.id,
    );
    expect(listed).toMatchObject({ type: "limit", price: trigger + 10, triggerPrice: trigger });
    expect(listed?.info).toMatchObject({ planType: "normal_plan", planStatus: "live" });
    const web = (await webFutures()).find((o) => String(o.id) === plan.id);
    expect(web).toMatchObject({ type: "STOP_LIMIT", side: "BUY", quantity: "0.001" });
    expect(num(web?.price ?? undefined)).toBe(trigger + 10);
    expect(num(web?.stopPrice ?? undefined)).toBe(trigger);
    // Not among the normal orders until it fires.
    expect((await ex.fetchOpenOrders(S)).map((o) => o.id)).not.toContain(plan.id);

    const moved = await ex.editOrder(oid(plan), S, "limit", "buy", 0.002, trigger + 20, {
      triggerPrice: trigger + 5,
    });
    const again = (await webFutures()).find((o) => String(o.id) === moved.id);
    expect(again).toMatchObject({ type: "STOP_LIMIT", quantity: "0.002" });
    expect(num(again?.price ?? undefined)).toBe(trigger + 20);
    expect(num(again?.stopPrice ?? undefined)).toBe(trigger + 5);
    expect((await webFutures()).map((o) => String(o.id))).not.toContain(plan.id);
    await ex.cancelOrder(oid(moved), S, { trigger: true });
    expect((await webFutures()).map((o) => String(o.id))).not.toContain(moved.id);
    const history = await ex.fetchCanceledOrders(S, undefined, undefined, { trigger: true });
    expect(history.find((o) => o.id === moved.id)?.info).toMatchObject({ planStatus: "cancelled" });
  });

  it("places, lists, edits and cancels a trailing stop (track_plan)", async () => {
    const mark = (await ex.fetchTicker(S)).markPrice ?? 0;
    const activation = Math.round(mark * 1.3);
    const trail = await ex.createOrder(S, "market", "sell", 0.001, undefined, {
      trailingPercent: 2,
      trailingTriggerPrice: activation,
    });
    const web = (await webFutures()).find((o) => String(o.id) === trail.id);
    expect(web).toMatchObject({ type: "TRAILING_STOP_MARKET", side: "SELL", callbackRate: "2" });
    expect(num(web?.stopPrice ?? undefined)).toBe(activation);
    const trailing = await ex.fetchOpenOrders(S, undefined, undefined, { trailing: true });
    expect(trailing.map((o) => o.id)).toEqual([trail.id]);
    expect(trailing[0]?.info).toMatchObject({ planType: "track_plan", callbackRatio: "2" });
    // A normal plan listing does not show it, as on Bitget.
    expect(
      (await ex.fetchOpenOrders(S, undefined, undefined, { trigger: true })).map((o) => o.id),
    ).not.toContain(trail.id);

    const edited = await ex.editOrder(oid(trail), S, "market", "sell", 0.002, undefined, {
      trailingPercent: 3.5,
    });
    const now = (await webFutures()).find((o) => String(o.id) === edited.id);
    expect(now).toMatchObject({ type: "TRAILING_STOP_MARKET", callbackRate: "3.5", quantity: "0.002" });
    expect(num(now?.stopPrice ?? undefined)).toBe(activation);
    await rejects(
      ex.createOrder(S, "market", "sell", 0.001, undefined, {
        trailingPercent: 12,
        trailingTriggerPrice: activation,
      }),
      ccxt.InvalidOrder,
    );
    await ex.cancelOrder(oid(edited), S, { trailing: true });
    expect((await webFutures()).map((o) => String(o.id))).not.toContain(edited.id);
  });

  it("moves a position's stop-loss with editOrder (modify-tpsl-order)", async () => {
    const price = await lastPrice(S);
    await ex.createOrder(S, "market", "buy", 0.01);
    const sl = await ex.createOrder(S, "market", "sell", 0.01, undefined, {
      stopLossPrice: Math.round(price * 0.8),
    });
    const lower = Math.round(price * 0.75);
    const moved = await ex.editOrder(oid(sl), S, "market", "sell", 0.01, undefined, { stopLossPrice: lower });
    const positions = (await server.web<FuturesPosition[]>(cookie, "GET", "/v1/paper/futures/positions"))
      .data;
    expect(num(positions.find((p) => p.symbol === "BTCUSDT")?.stopLoss ?? undefined)).toBe(lower);
    const open = await webFutures();
    expect(open.map((o) => String(o.id))).toContain(moved.id);
    expect(open.map((o) => String(o.id))).not.toContain(sl.id);
    await rejects(
      ex.editOrder("999999", S, "market", "sell", 0.01, undefined, { stopLossPrice: lower }),
      ccxt.OrderNotFound,
    );
    await ex.closePosition(S);
  });
});
