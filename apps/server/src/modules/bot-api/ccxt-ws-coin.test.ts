import type { FuturesAccount, FuturesOrder, FuturesPosition } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { onMessages, subscribed, useBotApiTrader } from "../../test/bot-api.ts";

/**
 * COIN-FUTURES on Bitget's v2 WebSockets (issue 34): ccxt.pro's own `bitget` class
 * (4.5.84, sandbox mode) watches the inverse `BTC/USD:BTC` market's ticker, book, trades
 * and candles on `/v2/ws/public`, and a coin-M trader's orders, fills, positions and BTC
 * wallet on `/v2/ws/private`; each result is checked against the web API's view.
 */
const S = "BTC/USD:BTC";
const COIN = { type: "swap", instType: "COIN-FUTURES" };
const bot = useBotApiTrader({ liveMarket: true });

const num = (s: string | undefined) => Number(s ?? "NaN");
const webAccount = async () =>
  (await bot.server.web<FuturesAccount>(bot.cookie, "GET", "/v1/paper/futures/account?marginCoin=BTC")).data;
const webPositions = async () =>
  (await bot.server.web<FuturesPosition[]>(bot.cookie, "GET", "/v1/paper/futures/positions?family=coin"))
    .data;

interface Push {
  event?: string;
  action?: string;
  arg?: { instType?: string; channel?: string };
  data?: Array<Record<string, unknown>>;
}

describe("COIN-FUTURES through ccxt.pro", () => {
  it("watches the inverse contract's ticker, book (checksummed), trades and candles", async () => {
    const ticker = await bot.ex.watchTicker(S);
    expect(ticker.symbol).toBe(S);
    expect(ticker.last).toBeGreaterThan(0);
    const info = ticker.info as { instId?: string; markPrice?: string; indexPrice?: string };
    expect(info.instId).toBe("BTCUSD");
    // BTCUSD's own mark (its 0.1 tick), as REST's ticker has it.
    expect(info.markPrice).toMatch(/^\d+\.\d$/);
    const marks = (
      await bot.server.web<{ symbol: string; indexPrice: string }[]>(
        bot.cookie,
        "GET",
        "/v1/paper/futures/marks?family=coin",
      )
    ).data;
    expect(marks.some((m) => m.symbol === "BTCUSD")).toBe(true);
    // The snapshot, then two updates checked against the checksum (ccxt raises ChecksumError otherwise).
    let book = await bot.ex.watchOrderBook(S);
    for (let i = 0; i < 2; i++) book = await bot.ex.watchOrderBook(S);
    expect(book.symbol).toBe(S);
    expect(book.bids[0]?.[0]).toBeLessThan(book.asks[0]?.[0] ?? 0);
    expect(book.asks.length).toBeGreaterThan(10);
    const trades = await bot.ex.watchTrades(S);
    expect(trades.length).toBeGreaterThan(0);
    expect(trades[0]?.symbol).toBe(S);
    const candles = await bot.ex.watchOHLCV(S, "1m");
    expect(candles.length).toBeGreaterThan(0);
    expect(candles.at(-1)?.[4]).toBeGreaterThan(0);
    // A USDT-M symbol is not a COIN-FUTURES instrument (nor BTCUSD a USDT-M one).
    await expect(bot.ex.watchTicker("BTC/USDT:USDT", { instType: "COIN-FUTURES" })).rejects.toThrow(
      /doesn't exist/,
    );
  });

  it("pushes the BTC wallet, orders, fills and positions of BTCUSD, and nothing of it on USDT-FUTURES", async () => {
    const linear: Push[] = [];
    const off = onMessages(bot.ex, (m) => {
      const p = m as Push | null;
      if (p?.arg?.instType === "USDT-FUTURES" && p.action !== undefined) linear.push(p);
    });
    try {
      // A USDT-M subscription on the same connection must not carry the coin-M pushes.
      const linearAcked = subscribed(bot.ex, "orders");
      void bot.ex.watchOrders("BTC/USDT:USDT").catch(() => undefined);
      await linearAcked;

      // Each commit pushes positions and wallets: the settings change comes before the watches.
      await bot.ex.setLeverage(20, S);
      await bot.ex.transfer("BTC", 0.1, "spot", "future");
      const balanceAcked = subscribed(bot.ex, "account");
      const balance = bot.ex.watchBalance(COIN);
      await balanceAcked;
      const funded = await balance;
      const web = await webAccount();
      expect(funded.BTC?.total).toBe(num(web.marginBalance));
      expect(funded.BTC?.free).toBe(num(web.maxTransferOut));

      const ordersAcked = subscribed(bot.ex, "orders");
      const orders = bot.ex.watchOrders(S);
      await ordersAcked;
      const fillsAcked = subscribed(bot.ex, "fill");
      const fills = bot.ex.watchMyTrades(S);
      await fillsAcked;
      // The subscription's own snapshot first (no position yet), then the push of the fill.
      await bot.ex.watchPositions([S]);
      const positions = bot.ex.watchPositions([S]);
      const afterFill = bot.ex.watchBalance(COIN);

      const placed = await bot.ex.createOrder(S, "market", "buy", 10);
      const seen = await orders;
      expect(seen.find((o) => o.id === placed.id)).toMatchObject({ symbol: S, side: "buy", amount: 10 });
      const myTrades = await fills;
      const fill = myTrades.find((t) => t.order === placed.id);
      expect(fill).toMatchObject({ symbol: S, side: "buy", amount: 10 });
      expect(fill?.fee?.currency).toBe("BTC");

      const pos = (await positions).find((p) => p.symbol === S);
      const [webPos] = await webPositions();
      expect(pos).toMatchObject({ side: "long", contracts: 10, leverage: 20 });
      expect(pos?.entryPrice).toBe(num(webPos?.entryPrice));
      expect(pos?.info).toMatchObject({ instId: "BTCUSD", marginCoin: "BTC" });

      // The commit's wallet push: the margin and fee came out of the BTC wallet.
      const after = await afterFill;
      expect(after.BTC?.total).toBeLessThan(0.1);
      expect((after.info as Push).data?.every((w) => typeof w.marginCoin === "string")).toBe(true);
      const orderIds = (
        await bot.server.web<FuturesOrder[]>(
          bot.cookie,
          "GET",
          "/v1/paper/futures/orders/history?family=coin",
        )
      ).data.map((o) => String(o.id));
      expect(orderIds).toContain(placed.id);

      await bot.ex.closePosition(S);
      expect(await webPositions()).toEqual([]);
      // Nothing of BTCUSD reached the USDT-FUTURES orders subscription.
      expect(linear.flatMap((p) => p.data ?? []).filter((o) => o.instId === "BTCUSD")).toEqual([]);
    } finally {
      off();
    }
  });
});
