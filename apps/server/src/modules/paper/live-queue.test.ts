import type { Depth, PaperOrder, PaperTrade } from "@meridian/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { liveMirror, plainDecimal as plain } from "../../test/live-mirror.ts";
import { paperCall } from "../../test/paper.ts";
import { until } from "../../test/upstream.ts";

/**
 * Resting spot orders on a live feed fill from the exchange's printed trades by queue
 * position (docs/trading.md, "The fill model"), end to end: a second Meridian process is
 * the upstream exchange, mirrored through ccxt's bitget class (`liveMirror`: the upstream
 * held still, a keep-alive trade at its best ask every second, never reaching paper bids).
 */
const SYMBOL = "BTCUSDT";
const live = liveMirror(SYMBOL, "spot-live");
let cookie: string;

beforeAll(async () => {
  cookie = await live.login();
});

const buy = async (price: string, quantity: string): Promise<PaperOrder> => {
  const r = await paperCall<{ order: PaperOrder }>(live.app, cookie, "POST", "/v1/paper/orders", {
    symbol: SYMBOL,
    side: "BUY",
    type: "LIMIT",
    price,
    quantity,
  });
  expect(r.code).toBe("00000");
  return r.data.order;
};

const order = async (id: number): Promise<PaperOrder | undefined> => {
  for (const list of ["open", "history"]) {
    const r = await paperCall<PaperOrder[]>(
      live.app,
      cookie,
      "GET",
      `/v1/paper/orders/${list}?symbol=${SYMBOL}`,
    );
    const found = r.data.find((o) => o.orderId === id);
    if (found !== undefined) return found;
  }
  return undefined;
};

/** Waits until the order has `executed` filled (and nothing more happened meanwhile). */
const filledTo = (id: number, executed: string) =>
  until(`order ${id} filled to ${executed}`, 10_000, async () => {
    const o = await order(id);
    return o !== undefined && plain(o.executedQty) === executed ? o : undefined;
  });

const level = (d: Depth, i: number): [string, string] => {
  const l = d.bids[i];
  if (l === undefined) throw new Error(`no bid level ${i}`);
  return [l[0], l[1]];
};

describe("resting spot orders on a live feed", () => {
  it("an upstream trade through a resting order fills it, as much as traded", async () => {
    const book = await live.book();
    const [price] = level(book, 2);
    const [below] = level(book, 3);
    const placed = await buy(price, "0.003");
    expect(placed.status).toBe("NEW");
    expect(await live.upstream.print(SYMBOL, below, "0.001")).toBe(true);
    const partial = await filledTo(placed.orderId, "0.001");
    expect(partial.status).toBe("PARTIALLY_FILLED");
    expect(await live.upstream.print(SYMBOL, below, "0.01")).toBe(true);
    const done = await filledTo(placed.orderId, "0.003");
    expect(done.status).toBe("FILLED");
    const trades = await paperCall<PaperTrade[]>(
      live.app,
      cookie,
      "GET",
      `/v1/paper/trades?symbol=${SYMBOL}`,
    );
    const mine = trades.data.filter((t) => t.orderId === placed.orderId);
    expect(mine.map((t) => [plain(t.price), t.isMaker])).toEqual([
      [plain(price), true],
      [plain(price), true],
    ]);
  }, 60_000);

  it("queue position holds an order at the touch until the size ahead of it has traded", async () => {
    const book = await live.book();
    const [touch, ahead] = level(book, 0);
    const [below] = level(book, 1);
    const placed = await buy(touch, "0.003");
    expect(placed.status).toBe("NEW");
    // Exactly the size displayed ahead of it trades at its price: nothing for it yet.
    expect(await live.upstream.print(SYMBOL, touch, ahead)).toBe(true);
    // The next lots at its price are its own: 2 of its 3.
    expect(await live.upstream.print(SYMBOL, touch, "0.002")).toBe(true);
    const partial = await filledTo(placed.orderId, "0.002");
    expect(partial.status).toBe("PARTIALLY_FILLED");
    expect(await live.upstream.print(SYMBOL, below, "0.005")).toBe(true);
    expect((await filledTo(placed.orderId, "0.003")).status).toBe("FILLED");
  }, 60_000);

  it("after a restart a resting order queues again behind what the exchange shows then", async () => {
    // The upstream's book as the keep-alive leaves it, so it does not move across the restart.
    expect(await live.upstream.print(SYMBOL, live.keepAsk, "0.001")).toBe(true);
    const [price] = level(await live.book(), 1);
    const placed = await buy(price, "0.003");
    expect(placed.status).toBe("NEW");
    // Printed at its price before the restart: the trade channel replays recent trades on
    // subscribing, and none of them may fill the reloaded order.
    expect(await live.upstream.print(SYMBOL, price, "0.002")).toBe(true);
    await live.restart();
    // Queued again behind what the book shows once a print was heard with it known.
    const book = await live.settledBook();
    const ahead = book.bids.find(([p]) => p === price)?.[1];
    if (ahead === undefined) throw new Error(`${price} is no longer shown`);
    expect(plain((await order(placed.orderId))?.executedQty ?? "")).toBe("0");
    expect(await live.upstream.print(SYMBOL, price, ahead)).toBe(true);
    expect(await live.upstream.print(SYMBOL, price, "0.001")).toBe(true);
    expect((await filledTo(placed.orderId, "0.001")).status).toBe("PARTIALLY_FILLED");
  }, 90_000);
});
