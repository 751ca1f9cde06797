import { Code, type FuturesOrder, type FuturesTrade } from "@meridian/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { liveMirror, plainDecimal as plain } from "../../test/live-mirror.ts";
import { paperCall } from "../../test/paper.ts";
import { until } from "../../test/upstream.ts";

/**
 * Futures on a live feed fill like spot (docs/trading.md, "The fill model"), end to end: a
 * second Meridian process is the upstream exchange, mirrored through ccxt's bitget class.
 * ETHUSDT and ETHUSD follow the ETHUSDT book (ticks 0.01 on both sides, so the book's
 * prices are the perpetuals' prices). The upstream's model feed is held still (a minute a
 * tick) and the test prints its trades: one every second at the best ask keeps the
 * mirror's book fresh (and unchanged) without reaching the paper bids.
 */
const PAIR = "ETHUSDT";
const F = "/v1/paper/futures";

const live = liveMirror(PAIR, "futures-live");
let cookie: string;

/** Decimal text to an integer at `decimals` places, truncated ("1.23456", 3 -> 1234n). */
const scaled = (d: string, decimals: number): bigint => {
  const [whole = "0", frac = ""] = d.split(".");
  return BigInt(whole + frac.padEnd(decimals, "0").slice(0, decimals));
};
const text = (v: bigint, decimals: number): string => {
  const s = v.toString().padStart(decimals + 1, "0");
  return plain(`${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}`);
};

beforeAll(async () => {
  cookie = await live.login();
  expect((await paperCall(live.app, cookie, "POST", "/v1/paper/account/activate")).code).toBe(Code.OK);
  // Enough for the whole displayed ask of either family at 20x, whatever size it shows.
  for (const body of [
    { asset: "USDT", amount: "500000" },
    { asset: "ETH", amount: "90" },
  ])
    expect((await paperCall(live.app, cookie, "POST", "/v1/paper/topup", body)).code).toBe(Code.OK);
  for (const body of [
    { direction: "IN", amount: "500000" },
    { direction: "IN", asset: "ETH", amount: "90" },
  ])
    expect((await paperCall(live.app, cookie, "POST", `${F}/transfer`, body)).code).toBe(Code.OK);
}, 60_000);

const place = async (body: Record<string, unknown>): Promise<FuturesOrder> => {
  const r = await paperCall<FuturesOrder>(live.app, cookie, "POST", `${F}/orders`, body);
  expect(r.code, JSON.stringify(r)).toBe(Code.OK);
  return r.data;
};
const limit = (symbol: string, side: "BUY" | "SELL", price: string, quantity: string) =>
  place({ symbol, side, type: "LIMIT", price, quantity });

const order = async (symbol: string, id: number): Promise<FuturesOrder | undefined> => {
  for (const list of ["open", "history"]) {
    const r = await paperCall<FuturesOrder[]>(
      live.app,
      cookie,
      "GET",
      `${F}/orders/${list}?symbol=${symbol}`,
    );
    const found = r.data.find((o) => o.id === id);
    if (found !== undefined) return found;
  }
  return undefined;
};

/** The order's fills, oldest first. */
const tradesOf = async (symbol: string, id: number): Promise<FuturesTrade[]> =>
  (await paperCall<FuturesTrade[]>(live.app, cookie, "GET", `${F}/trades?symbol=${symbol}`)).data
    .filter((t) => t.orderId === id)
    .sort((a, b) => a.id - b.id);

/** Waits until the order has `executed` filled (and nothing more happened meanwhile). */
const filledTo = (symbol: string, id: number, executed: string) =>
  until(`${symbol} order ${id} filled to ${executed}`, 10_000, async () => {
    const o = await order(symbol, id);
    return o !== undefined && plain(o.executedQty) === executed ? o : undefined;
  });

const level = (side: readonly (readonly [string, string])[], i: number): [string, string] => {
  const l = side[i];
  if (l === undefined) throw new Error(`no level ${i}`);
  return [l[0], l[1]];
};

describe("futures on a live feed", () => {
  it("a marketable order walks the book and does not take the same displayed ask twice", async () => {
    const book = await live.book();
    const [ask, shown] = level(book.asks, 0);
    const [next] = level(book.asks, 1);
    // USDT-M: the whole displayed ask, in the perpetual's lots of 0.001 ETH.
    const whole = text(scaled(shown, 3), 3);
    const first = await limit("ETHUSDT", "BUY", ask, whole);
    expect([first.status, plain(first.executedQty), plain(first.avgPrice)]).toEqual([
      "FILLED",
      whole,
      plain(ask),
    ]);
    // The same level again, the exchange showing it unchanged: nothing is left there.
    const again = await limit("ETHUSDT", "BUY", ask, "0.01");
    expect([again.status, plain(again.executedQty)]).toEqual(["NEW", "0"]);
    // A market order walks on to the next level.
    const market = await place({ symbol: "ETHUSDT", side: "BUY", type: "MARKET", quantity: "0.01" });
    expect([market.status, plain(market.avgPrice)]).toEqual(["FILLED", plain(next)]);
    expect((await tradesOf("ETHUSDT", market.id)).map((t) => [plain(t.price), t.maker])).toEqual([
      [plain(next), false],
    ]);
    // Coin-M has its own book on an exchange: its contracts of 10 USD take the same level once.
    const contracts = (scaled(shown, 4) * scaled(ask, 2)) / 10n / 1_000_000n;
    const coin = await limit("ETHUSD", "BUY", ask, contracts.toString());
    expect([coin.status, coin.executedQty, plain(coin.avgPrice)]).toEqual([
      "FILLED",
      contracts.toString(),
      plain(ask),
    ]);
    const coinAgain = await limit("ETHUSD", "BUY", ask, "1");
    expect([coinAgain.status, coinAgain.executedQty]).toEqual(["NEW", "0"]);
    // The resting ones would fill from the keep-alive prints at the ask: out of the way.
    for (const id of [again.id, coinAgain.id])
      await paperCall(live.app, cookie, "DELETE", `${F}/orders/${id}`);
  }, 60_000);

  it("a FOK fills only from what the book still offers it, else expires with nothing filled", async () => {
    const book = await live.book();
    // An IOC takes whatever is left up to the third ask (at most what the three show) and
    // expires the rest; the fourth ask is untouched.
    const [third] = level(book.asks, 2);
    const [fourth, fourthShown] = level(book.asks, 3);
    const shownUpToThird = [0, 1, 2].reduce((sum, i) => sum + scaled(level(book.asks, i)[1], 3), 0n);
    const sweep = await place({
      symbol: "ETHUSDT",
      side: "BUY",
      type: "LIMIT",
      price: third,
      quantity: text(shownUpToThird, 3),
      timeInForce: "IOC",
    });
    expect(sweep.status).toBe("EXPIRED");
    expect(await order("ETHUSDT", sweep.id)).toMatchObject({ status: "EXPIRED" });
    const fok = (price: string, quantity: string) =>
      place({ symbol: "ETHUSDT", side: "BUY", type: "LIMIT", price, quantity, timeInForce: "FOK" });
    // The exchange still shows the three asks unchanged, but nothing is left there.
    const none = await fok(third, "0.01");
    expect([none.status, plain(none.executedQty)]).toEqual(["EXPIRED", "0"]);
    // Up to the fourth ask, what is left is the fourth's lots alone: one lot more expires whole.
    const lots = scaled(fourthShown, 3);
    const over = await fok(fourth, text(lots + 1n, 3));
    expect([over.status, plain(over.executedQty)]).toEqual(["EXPIRED", "0"]);
    expect(await tradesOf("ETHUSDT", over.id)).toEqual([]);
    // Exactly what is left fills in full, at the fourth ask.
    const whole = await fok(fourth, text(lots, 3));
    expect([whole.status, plain(whole.executedQty), plain(whole.avgPrice)]).toEqual([
      "FILLED",
      text(lots, 3),
      plain(fourth),
    ]);
    // An IOC finds nothing left within its price either, and rests nothing.
    const ioc = await place({
      symbol: "ETHUSDT",
      side: "BUY",
      type: "LIMIT",
      price: fourth,
      quantity: "0.01",
      timeInForce: "IOC",
    });
    expect([ioc.status, plain(ioc.executedQty)]).toEqual(["EXPIRED", "0"]);
    expect(await order("ETHUSDT", ioc.id)).toMatchObject({ status: "EXPIRED" });
  }, 60_000);

  it("queue position holds a buy at the touch until the size ahead of it has traded", async () => {
    const book = await live.book();
    const [touch, ahead] = level(book.bids, 0);
    const [below] = level(book.bids, 1);
    const placed = await limit("ETHUSDT", "BUY", touch, "0.01");
    expect([placed.status, plain(placed.executedQty)]).toEqual(["NEW", "0"]);
    // Exactly the size displayed ahead of it trades at its price: nothing for it yet.
    expect(await live.upstream.print(PAIR, touch, ahead)).toBe(true);
    // The next lots at its price are its own: 4 of its 10.
    expect(await live.upstream.print(PAIR, touch, "0.004")).toBe(true);
    const partial = await filledTo("ETHUSDT", placed.id, "0.004");
    expect(partial.status).toBe("PARTIALLY_FILLED");
    // A trade through its price fills the rest, at its own price.
    expect(await live.upstream.print(PAIR, below, "0.05")).toBe(true);
    expect((await filledTo("ETHUSDT", placed.id, "0.01")).status).toBe("FILLED");
    expect(
      (await tradesOf("ETHUSDT", placed.id)).map((t) => [plain(t.price), plain(t.quantity), t.maker]),
    ).toEqual([
      [plain(touch), "0.004", true],
      [plain(touch), "0.006", true],
    ]);
  }, 60_000);

  it("a coin-M order resting below the touch fills from trades through it, small prints adding up", async () => {
    const book = await live.book();
    const [price] = level(book.bids, 2);
    const [below] = level(book.bids, 3);
    const placed = await limit("ETHUSD", "BUY", price, "3");
    expect(placed.status).toBe("NEW");
    // About 24 USD through its price: 2 of its contracts of 10 USD; the rest carries over.
    const usd24 = text((24_000_000n * 10_000n) / scaled(below, 6) + 1n, 4);
    expect(await live.upstream.print(PAIR, below, usd24)).toBe(true);
    expect((await filledTo("ETHUSD", placed.id, "2")).status).toBe("PARTIALLY_FILLED");
    // About 7 USD more: with the 4 carried, the third contract.
    const usd7 = text((7_000_000n * 10_000n) / scaled(below, 6) + 1n, 4);
    expect(await live.upstream.print(PAIR, below, usd7)).toBe(true);
    const done = await filledTo("ETHUSD", placed.id, "3");
    expect([done.status, plain(done.avgPrice)]).toEqual(["FILLED", plain(price)]);
    expect((await tradesOf("ETHUSD", placed.id)).every((t) => t.maker)).toBe(true);
  }, 60_000);

  it("after a restart a resting order queues again behind what the exchange shows then", async () => {
    // The upstream's book as the keep-alive leaves it, so it does not move across the restart.
    expect(await live.upstream.print(PAIR, live.keepAsk, "0.001")).toBe(true);
    const [price] = level((await live.book()).bids, 1);
    const placed = await limit("ETHUSDT", "BUY", price, "0.01");
    expect(placed.status).toBe("NEW");
    await live.restart();
    // Queued again behind what the book shows once a print was heard with it known.
    const book = await live.settledBook();
    const ahead = book.bids.find(([p]) => p === price)?.[1];
    if (ahead === undefined) throw new Error(`${price} is no longer shown`);
    expect(await live.upstream.print(PAIR, price, ahead)).toBe(true);
    expect(await live.upstream.print(PAIR, price, "0.003")).toBe(true);
    expect((await filledTo("ETHUSDT", placed.id, "0.003")).status).toBe("PARTIALLY_FILLED");
  }, 60_000);
});
