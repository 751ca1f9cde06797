import type { FuturesAccount, FuturesOrder, FuturesPosition } from "@meridian/contracts";
import ccxt from "ccxt";
import { describe, expect, it } from "vitest";
import { useBotApiTrader } from "../../test/bot-api.ts";

/**
 * The contract tests of the coin-margined perpetuals (issue 34): ccxt's own `bitget`
 * class (4.5.84, sandbox mode) trades the inverse `BTC/USD:BTC` market, and every result
 * is checked against what the web API says about the same account.
 */
const S = "BTC/USD:BTC";
const bot = useBotApiTrader({ liveMarket: true, rateScale: 5 });

const num = (s: string | undefined) => Number(s ?? "NaN");
function oid(o: { id?: string | undefined }): string {
  if (o.id === undefined) throw new Error("order without id");
  return o.id;
}
const webAccount = async () =>
  (await bot.server.web<FuturesAccount>(bot.cookie, "GET", "/v1/paper/futures/account?marginCoin=BTC")).data;
const webPositions = async () =>
  (
    await bot.server.web<FuturesPosition[]>(bot.cookie, "GET", "/v1/paper/futures/positions?family=coin")
  ).data.filter((p) => num(p.quantity) !== 0);
const webOpen = async () =>
  (await bot.server.web<FuturesOrder[]>(bot.cookie, "GET", "/v1/paper/futures/orders/open?family=coin")).data;
const coinBalance = async () =>
  (await bot.ex.fetchBalance({ type: "swap", productType: "COIN-FUTURES" })).BTC;

async function rejects(p: Promise<unknown>, cls: new (...args: never[]) => Error): Promise<void> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(cls);
}

describe("coin-margined perpetuals through ccxt", () => {
  it("lists every coin-M contract as an inverse swap settled in its coin", async () => {
    const m = bot.ex.market(S);
    expect(m).toMatchObject({ swap: true, inverse: true, linear: false, settle: "BTC", quote: "USD" });
    expect(m.precision).toMatchObject({ amount: 1, price: 0.1 });
    expect(m.limits.amount?.min).toBe(1);
    for (const coin of ["ETH", "SOL", "XRP", "DOGE", "ADA", "LTC"])
      expect(bot.ex.market(`${coin}/USD:${coin}`).inverse).toBe(true);
    const t = await bot.ex.fetchTicker(S);
    expect(t.symbol).toBe(S);
    expect(t.markPrice).toBeGreaterThan(0);
    expect(Object.keys(await bot.ex.fetchTickers(undefined, { type: "swap", subType: "inverse" }))).toContain(
      S,
    );
    expect((await bot.ex.fetchOrderBook(S)).asks.length).toBeGreaterThan(0);
    expect((await bot.ex.fetchOHLCV(S, "1h", undefined, 5)).length).toBeGreaterThan(0);
    const rate = await bot.ex.fetchFundingRate(S);
    expect(rate.symbol).toBe(S);
    expect(typeof rate.fundingRate).toBe("number");
  });

  it("transfers BTC to the coin-M wallet and shows its balance", async () => {
    await bot.ex.transfer("BTC", 0.1, "spot", "future");
    const web = await webAccount();
    expect(web).toMatchObject({ family: "coin", marginCoin: "BTC" });
    expect(num(web.wallet)).toBe(0.1);
    const btc = await coinBalance();
    expect(btc?.total).toBe(num(web.marginBalance));
    expect(btc?.free).toBe(num(web.maxTransferOut));
  });

  it("opens a position in contracts with PnL in BTC, lists it, and closes it", async () => {
    await bot.ex.setLeverage(20, S);
    const order = await bot.ex.createOrder(S, "market", "buy", 10);
    expect(await bot.ex.fetchOrder(oid(order), S)).toMatchObject({
      status: "closed",
      filled: 10,
      side: "buy",
    });
    const [p] = await bot.ex.fetchPositions([S]);
    const [web] = await webPositions();
    expect(web).toMatchObject({ symbol: "BTCUSD", quantity: "10", marginCoin: "BTC", leverage: 20 });
    expect(p).toMatchObject({ symbol: S, side: "long", contracts: 10, leverage: 20 });
    expect(p?.entryPrice).toBe(num(web?.entryPrice));
    // PnL in BTC at the coin's precision (it moves with the live mark between two reads).
    expect(p?.info).toMatchObject({
      marginCoin: "BTC",
      unrealizedPL: expect.stringMatching(/^-?\d+(\.\d{1,8})?$/),
    });
    // The margin is the position's value in BTC over the leverage: 10 x 100 / entry / 20.
    expect(num(web?.margin)).toBeCloseTo(1000 / num(web?.entryPrice) / 20, 7);
    expect((await bot.ex.fetchMyTrades(S)).some((t) => t.order === order.id)).toBe(true);
    // The USDT-M side does not see it.
    expect(await bot.ex.fetchPositions(["BTC/USDT:USDT"])).toEqual([]);
    await bot.ex.closePosition(S);
    expect(await webPositions()).toEqual([]);
    expect(await bot.ex.fetchPositions([S])).toEqual([]);
  });

  it("places and cancels a resting order, and refuses bad input with Bitget's codes", async () => {
    const price = Math.round((await bot.ex.fetchTicker(S)).last ?? 0) * 0.7;
    const order = await bot.ex.createOrder(S, "limit", "buy", 2, Math.round(price));
    expect((await webOpen()).map((o) => String(o.id))).toContain(order.id);
    expect((await bot.ex.fetchOpenOrders(S)).map((o) => o.id)).toContain(order.id);
    await bot.ex.cancelOrder(oid(order), S);
    expect((await webOpen()).map((o) => String(o.id))).not.toContain(order.id);
    const before = await webAccount();
    // Below one contract, off the tick (sent raw: ccxt would round both), the wrong product
    // type or margin coin, more than the wallet carries: nothing held or posted.
    const raw = (over: Record<string, string>) =>
      bot.ex.privateMixPostV2MixOrderPlaceOrder({
        symbol: "BTCUSD",
        productType: "COIN-FUTURES",
        marginCoin: "BTC",
        marginMode: "crossed",
        side: "buy",
        orderType: "limit",
        force: "GTC",
        price: String(Math.round(price)),
        size: "1",
        ...over,
      });
    await rejects(raw({ size: "0.5" }), ccxt.InvalidOrder);
    await rejects(raw({ price: `${Math.round(price)}.05` }), ccxt.InvalidOrder);
    await rejects(raw({ productType: "USDT-FUTURES", marginCoin: "USDT" }), ccxt.BadSymbol);
    await rejects(raw({ marginCoin: "ETH" }), ccxt.BadRequest);
    // 5,000 contracts (500,000 USD, about 5 BTC) need about 0.26 BTC at 20x; the wallet has 0.1.
    await rejects(bot.ex.createOrder(S, "market", "buy", 5000), ccxt.InsufficientFunds);
    expect(await webOpen()).toEqual([]);
    expect((await webAccount()).available).toBe(before.available);
  });

  it("moves BTC both ways between spot and the coin-M wallet ('future' or 'swap'), once per clientOid", async () => {
    const spotBtc = async () => (await bot.ex.fetchBalance()).BTC?.free ?? Number.NaN;
    const wallet0 = await webAccount();
    const spot0 = await spotBtc();
    // ccxt's `swap` is usdt_futures: with BTC it reaches the BTC coin-M wallet too.
    const t1 = await bot.ex.transfer("BTC", 0.02, "spot", "swap", { clientOid: "cm-swap-1" });
    const t2 = await bot.ex.transfer("BTC", 0.02, "spot", "swap", { clientOid: "cm-swap-1" });
    expect(Number(t1.id)).toBeGreaterThan(0);
    expect(t2.id).toBe(t1.id);
    const wallet1 = await webAccount();
    expect(num(wallet1.wallet)).toBeCloseTo(num(wallet0.wallet) + 0.02, 8);
    expect(await spotBtc()).toBeCloseTo(spot0 - 0.02, 8);
    const back = await bot.ex.transfer("BTC", 0.015, "future", "spot");
    expect(Number(back.id)).toBeGreaterThan(Number(t1.id));
    expect(num((await webAccount()).wallet)).toBeCloseTo(num(wallet0.wallet) + 0.005, 8);
    expect(await spotBtc()).toBeCloseTo(spot0 - 0.005, 8);

    // An open position holds margin: more than the wallet can spare is refused, nothing moves.
    // The mark is pinned so that what the wallet spares holds still between reads.
    const mark = String(Math.round((await bot.ex.fetchTicker(S)).markPrice ?? 0));
    const pin = (price: string | null) =>
      bot.server.web(bot.cookie, "POST", "/v1/paper/futures/test/mark", { symbol: "BTCUSD", price });
    expect((await pin(mark)).code).toBe("00000");
    await bot.ex.createOrder(S, "market", "buy", 20);
    const held = await webAccount();
    expect(num(held.maxTransferOut)).toBeLessThan(num(held.wallet));
    await rejects(bot.ex.transfer("BTC", num(held.wallet), "future", "spot"), ccxt.InsufficientFunds);
    expect((await webAccount()).wallet).toBe(held.wallet);
    await bot.ex.transfer("BTC", num(held.maxTransferOut), "future", "spot");
    expect((await webAccount()).maxTransferOut).toBe("0.00000000");
    await bot.ex.closePosition(S);
    await pin(null);

    // Bad input: a coin with no coin-M wallet, USDT to coin_futures, a USDC-M account.
    await rejects(bot.ex.transfer("BNB", 1, "spot", "future"), ccxt.BadRequest);
    await rejects(bot.ex.transfer("USDT", 1, "spot", "future"), ccxt.BadRequest);
    await rejects(bot.ex.transfer("BTC", 0.01, "spot", "usdc_swap"), ccxt.BadRequest);

    // The records name the coin-M wallet as Bitget does: coin_futures (ccxt: future).
    const list = await bot.ex.fetchTransfers("BTC", undefined, undefined, { fromAccount: "future" });
    expect(list.map((t) => t.id)).toContain(back.id);
    for (const t of list) expect(t.fromAccount).toBe("future");
    const ins = await bot.ex.fetchTransfers("BTC", undefined, undefined, { fromAccount: "spot" });
    const into = ins.find((t) => t.id === t1.id);
    expect(into).toMatchObject({ fromAccount: "spot", toAccount: "future", amount: 0.02, currency: "BTC" });
  });
});
