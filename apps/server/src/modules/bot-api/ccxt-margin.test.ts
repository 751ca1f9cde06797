import type { MarginAccountView, MarginOrder, MarginRecord, MarginTrade } from "@meridian/contracts";
import ccxt from "ccxt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BotApiServer, bitgetClient, startBotApiServer, subscribed } from "../../test/bot-api.ts";

/**
 * The margin part of the contract tests: ccxt's `bitget` (4.5.84, sandbox, only its URLs
 * pointed here) on cross and isolated paper margin, each result checked against the web
 * API's view (`/v1/paper/margin/*`) of the same account.
 */
type Client = Awaited<ReturnType<typeof bitgetClient>>;

let server: BotApiServer;
let cookie: string;
let ex: Client;
let key: Awaited<ReturnType<BotApiServer["createKey"]>>;
const S = "BTC/USDT";

beforeAll(async () => {
  // Interest every second instead of every hour, so a test sees it charged.
  process.env.MARGIN_INTEREST_INTERVAL_MS = "1000";
  server = await startBotApiServer({ liveMarket: true });
  cookie = await server.newUser();
  key = await server.createKey(cookie);
  ex = await bitgetClient(server.base, key);
}, 60_000);

afterAll(async () => {
  delete process.env.MARGIN_INTEREST_INTERVAL_MS;
  await ex?.close();
  await server?.close();
});

const num = (s: string | undefined) => Number(s ?? "NaN");
async function web<T>(url: string): Promise<T> {
  const res = await server.web<T>(cookie, "GET", url);
  if (res.code !== "00000") throw new Error(`${url}: ${res.code} ${res.msg}`);
  return res.data;
}
const webAccount = (q: string) => web<MarginAccountView>(`/v1/paper/margin/account?${q}`);
const asset = (v: MarginAccountView, a: string) => v.assets.find((x) => x.asset === a);
const debt = (v: MarginAccountView, a: string) => num(asset(v, a)?.borrowed) + num(asset(v, a)?.interest);
/** Interest is charged every second here: ccxt's debt lies between two web reads around it. */
async function debtBetween(q: string, read: () => Promise<number | undefined>, a = "USDT") {
  const before = debt(await webAccount(q), a);
  const got = (await read()) ?? Number.NaN;
  const after = debt(await webAccount(q), a);
  expect(got).toBeGreaterThanOrEqual(before - 1e-8);
  expect(got).toBeLessThanOrEqual(after + 1e-8);
}
async function rejects(p: Promise<unknown>, cls: new (...args: never[]) => Error): Promise<void> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(cls);
}
async function lastPrice(): Promise<number> {
  const t = await ex.fetchTicker(S);
  if (t.last === undefined) throw new Error("no last price");
  return t.last;
}

describe("cross margin through ccxt shows on the web API", () => {
  it("lists the spot pairs as marginable in both modes", () => {
    const m = ex.market(S);
    expect(m.margin).toBe(true);
    expect(m.marginModes).toEqual({ cross: true, isolated: true });
  });

  it("transfers in, borrows, and the balance matches the web view", async () => {
    await ex.transfer("USDT", 1000, "spot", "cross");
    await ex.borrowCrossMargin("USDT", 200);
    const view = await webAccount("mode=cross");
    expect(num(asset(view, "USDT")?.borrowed)).toBe(200);
    const bal = await ex.fetchBalance({ marginMode: "cross" });
    expect(bal.USDT?.total).toBe(num(asset(view, "USDT")?.free) + num(asset(view, "USDT")?.locked));
    await debtBetween("mode=cross", async () => (await ex.fetchBalance({ marginMode: "cross" })).USDT?.debt);
    expect(bal.USDT?.free).toBeGreaterThan(0);
    expect(bal.USDT?.free).toBeLessThanOrEqual(bal.USDT?.total ?? 0);
  });

  it("places, lists and cancels a margin limit order", async () => {
    const price = Math.round((await lastPrice()) * 0.5);
    const order = await ex.createOrder(S, "limit", "buy", 0.001, price, { marginMode: "cross" });
    const open = await ex.fetchOpenOrders(S, undefined, undefined, { marginMode: "cross" });
    const mine = open.find((o) => o.id === order.id);
    expect(mine).toMatchObject({ status: "open", price, amount: 0.001, side: "buy", type: "limit" });
    const webOpen = await web<MarginOrder[]>("/v1/paper/margin/orders/open?mode=cross");
    expect(webOpen.map((o) => String(o.orderId))).toContain(order.id);
    expect((await ex.fetchBalance({ marginMode: "cross" })).USDT?.total).toBeGreaterThan(0);
    await ex.cancelOrder(order.id ?? "", S, { marginMode: "cross" });
    expect((await web<MarginOrder[]>("/v1/paper/margin/orders/open?mode=cross")).length).toBe(0);
    const canceled = await ex.fetchCanceledOrders(S, undefined, undefined, { marginMode: "cross" });
    expect(canceled.find((o) => o.id === order.id)?.status).toBe("canceled");
  });

  it("a margin market buy with autoLoan fills; its trades match the web's", async () => {
    const price = await lastPrice();
    const order = await ex.createOrder(S, "market", "buy", 0.01, price, {
      marginMode: "cross",
      loanType: "autoLoan",
    });
    const trades = await ex.fetchMyTrades(S, undefined, undefined, { marginMode: "cross" });
    const mine = trades.filter((t) => t.order === order.id);
    expect(mine.length).toBeGreaterThan(0);
    const webTrades = await web<MarginTrade[]>("/v1/paper/margin/trades?mode=cross");
    expect(webTrades.filter((t) => String(t.orderId) === order.id).map((t) => String(t.tradeId))).toEqual(
      expect.arrayContaining(mine.map((t) => t.id)),
    );
    expect(mine[0]?.fee?.cost).toBeGreaterThan(0);
    expect(num(asset(await webAccount("mode=cross"), "BTC")?.free)).toBeGreaterThan(0);
  });

  it("charges interest, which fetchBorrowInterest lists as the web records do", async () => {
    await expect
      .poll(async () => (await ex.fetchBorrowInterest("USDT", undefined, undefined, undefined)).length, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    const rows = await ex.fetchBorrowInterest("USDT", undefined, undefined, undefined, {
      marginMode: "cross",
    });
    const records = await web<MarginRecord[]>("/v1/paper/margin/records?mode=cross&type=INTEREST");
    const ids = new Set(records.map((r) => String(r.id)));
    for (const row of rows) {
      expect(ids.has((row.info as { interestId: string }).interestId)).toBe(true);
      expect(row.interest).toBeGreaterThan(0);
      expect(row.marginMode).toBe("cross");
    }
    const rate = await ex.fetchCrossBorrowRate("USDT");
    expect(rate.rate).toBeGreaterThan(0);
  });

  it("repays, and the debt drops on the web view", async () => {
    const before = num(asset(await webAccount("mode=cross"), "USDT")?.borrowed);
    await ex.repayCrossMargin("USDT", 50);
    const after = await webAccount("mode=cross");
    expect(num(asset(after, "USDT")?.borrowed)).toBeLessThan(before);
    await debtBetween("mode=cross", async () => (await ex.fetchBalance({ marginMode: "cross" })).USDT?.debt);
  });

  it("maps refusals to ccxt's exception classes", async () => {
    await rejects(ex.borrowCrossMargin("USDT", 10_000_000), ccxt.InsufficientFunds);
    await rejects(ex.cancelOrder("999999", S, { marginMode: "cross" }), ccxt.OrderNotFound);
    await rejects(
      ex.createOrder(S, "limit", "buy", 100, Math.round(await lastPrice()), { marginMode: "cross" }),
      ccxt.InsufficientFunds,
    );
  });
});

describe("isolated margin through ccxt shows on the web API", () => {
  it("transfers in, borrows, trades, repays", async () => {
    await ex.transfer("USDT", 300, "spot", "isolated", { symbol: S });
    await ex.borrowIsolatedMargin(S, "USDT", 100);
    const view = await webAccount("mode=isolated&symbol=BTCUSDT");
    expect(num(asset(view, "USDT")?.borrowed)).toBe(100);
    const bal = await ex.fetchBalance({ marginMode: "isolated" });
    expect(bal.USDT?.total).toBe(num(asset(view, "USDT")?.free) + num(asset(view, "USDT")?.locked));
    await debtBetween(
      "mode=isolated&symbol=BTCUSDT",
      async () => (await ex.fetchBalance({ marginMode: "isolated" })).USDT?.debt,
    );

    const price = Math.round((await lastPrice()) * 0.5);
    const order = await ex.createOrder(S, "limit", "buy", 0.001, price, { marginMode: "isolated" });
    const webOpen = await web<MarginOrder[]>("/v1/paper/margin/orders/open?mode=isolated");
    expect(webOpen.map((o) => String(o.orderId))).toContain(order.id);
    expect(
      (await ex.fetchOpenOrders(S, undefined, undefined, { marginMode: "isolated" })).map((o) => o.id),
    ).toContain(order.id);
    // Cross lists only cross orders.
    expect(
      (await ex.fetchOpenOrders(S, undefined, undefined, { marginMode: "cross" })).map((o) => o.id),
    ).not.toContain(order.id);
    await ex.cancelOrder(order.id ?? "", S, { marginMode: "isolated" });

    const rate = await ex.fetchIsolatedBorrowRate(S);
    expect(rate.quoteRate).toBeGreaterThan(0);
    await ex.repayIsolatedMargin(S, "USDT", 40);
    expect(num(asset(await webAccount("mode=isolated&symbol=BTCUSDT"), "USDT")?.borrowed)).toBeLessThan(100);
  });
});

describe("margin over the private WebSocket through ccxt.pro", () => {
  it("watches cross margin orders and the cross account as REST trading happens", async () => {
    const price = Math.round((await lastPrice()) * 0.5);
    const acked = subscribed(ex, "orders-crossed");
    const orders = ex.watchOrders(S, undefined, undefined, { marginMode: "cross" });
    await acked;
    const placed = await ex.createOrder(S, "limit", "buy", 0.001, price, { marginMode: "cross" });
    const seen = await orders;
    expect(seen.find((o) => o.id === placed.id)).toMatchObject({
      status: "open",
      side: "buy",
      amount: 0.001,
    });

    // The subscription's own snapshot first, then the push of the cancel.
    await ex.watchBalance({ marginMode: "cross" });
    const balance = ex.watchBalance({ marginMode: "cross" });
    await ex.cancelOrder(placed.id ?? "", S, { marginMode: "cross" });
    const bal = await balance;
    const view = await webAccount("mode=cross");
    expect(bal.USDT?.free).toBe(num(asset(view, "USDT")?.free));
    expect(bal.USDT?.debt).toBeGreaterThan(0);
  });

  it("watches isolated margin orders", async () => {
    // A client of its own: ccxt 4.5.84 keys margin order subscriptions by symbol and
    // instType only, so after the cross watch above it would not subscribe orders-isolated.
    const iso = await bitgetClient(server.base, key);
    try {
      const price = Math.round((await lastPrice()) * 0.5);
      const acked = subscribed(iso, "orders-isolated");
      const orders = iso.watchOrders(S, undefined, undefined, { marginMode: "isolated" });
      await acked;
      const placed = await iso.createOrder(S, "limit", "buy", 0.001, price, { marginMode: "isolated" });
      expect((await orders).map((o) => o.id)).toContain(placed.id);
      await iso.cancelOrder(placed.id ?? "", S, { marginMode: "isolated" });
    } finally {
      await iso.close();
    }
  });
});
