import { describe, expect, it } from "vitest";
import { DomainCode } from "../errors.ts";
import { asLots, asTicks } from "../units.ts";
import { OrderBook } from "./order-book.ts";
import { newBook, noDeltas, trades, unitSpec } from "./test-support.ts";
import { Side, Stp, Tif } from "./types.ts";

const { Buy, Sell } = Side;
const GTC = Tif.GTC;
const EM = Stp.ExpireMaker;

describe("units", () => {
  it("takes prices only as Ticks and quantities only as Lots (a plain or swapped number does not compile)", () => {
    const { book, log } = newBook();
    // @ts-expect-error a price must be Ticks, not a plain number
    book.limit(1, 10, Sell, 100, asLots(1), GTC, EM, 1);
    // @ts-expect-error price and quantity swapped: Lots is not Ticks
    book.limit(2, 10, Sell, asLots(1), asTicks(100), GTC, EM, 2);
    // @ts-expect-error a trigger price must be Ticks
    book.place({ id: 3, account: 10, side: Buy, type: "stop-market", stopPrice: 101, qty: asLots(1), ts: 3 });
    // At run time they are the same integers, so the swapped order rests 100 lots at
    // tick 1: the mistake the types refuse.
    expect(book.depth(Sell, 5)).toEqual([
      [1, 100],
      [100, 1],
    ]);
    expect(log.events.filter((e) => e.type === "accepted")).toHaveLength(3);
  });
});

describe("limit orders", () => {
  it("rest, then fill in price-time priority at the maker's price", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(101), asLots(5), GTC, EM, 1);
    book.limit(2, 11, Sell, asTicks(100), asLots(5), GTC, EM, 2);
    book.limit(3, 12, Sell, asTicks(100), asLots(5), GTC, EM, 3);
    expect(book.depth(Sell, 5)).toEqual([
      [100, 10],
      [101, 5],
    ]);
    log.clear();
    book.limit(4, 20, Buy, asTicks(101), asLots(12), GTC, EM, 4);
    expect(trades(log.events).map((t) => [t.makerId, t.price, t.qty, t.makerLeft, t.takerLeft])).toEqual([
      [2, 100, 5, 0, 7],
      [3, 100, 5, 0, 2],
      [1, 101, 2, 3, 0],
    ]);
    expect(book.depth(Sell, 5)).toEqual([[101, 3]]);
    expect(book.depth(Buy, 5)).toEqual([]);
    expect(book.lastPrice).toBe(101);
  });

  it("rests the remainder of a partly filled order and reports depth deltas", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(3), GTC, EM, 1);
    log.clear();
    book.limit(2, 11, Buy, asTicks(100), asLots(5), GTC, EM, 2);
    expect(log.events.map((e) => e.type)).toEqual(["accepted", "trade", "delta", "delta"]);
    expect(log.events.slice(2)).toMatchObject([
      { type: "delta", side: Sell, price: 100, levelQty: 0 },
      { type: "delta", side: Buy, price: 100, levelQty: 2 },
    ]);
    expect(book.top()).toEqual({ bid: 100, ask: 0 });
  });

  it("numbers events with a gap-free sequence", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(3), GTC, EM, 1);
    book.limit(2, 11, Buy, asTicks(100), asLots(5), GTC, EM, 2);
    book.cancel(2, 3);
    expect(log.events.map((e) => e.seq)).toEqual(log.events.map((_, i) => i + 1));
    expect(book.sequence).toBe(log.events.length);
  });
});

describe("depth for one account's taker", () => {
  it("leaves that account's own orders out, and a level of only its own, so the sweep fills what it lists", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(4), GTC, EM, 1);
    book.limit(2, 20, Sell, asTicks(100), asLots(3), GTC, EM, 2);
    book.limit(3, 20, Sell, asTicks(101), asLots(5), GTC, EM, 3);
    book.limit(4, 11, Sell, asTicks(102), asLots(6), GTC, EM, 4);
    expect(book.depth(Sell, 5)).toEqual([
      [100, 7],
      [101, 5],
      [102, 6],
    ]);
    expect(book.depth(Sell, 2, 20)).toEqual([
      [100, 4],
      [102, 6],
    ]);
    log.clear();
    // Account 20 buys the 10 lots its view lists up to 102: its own asks are expired, not filled.
    book.limit(5, 20, Buy, asTicks(102), asLots(10), Tif.IOC, EM, 5);
    expect(trades(log.events).map((t) => [t.makerId, t.qty])).toEqual([
      [1, 4],
      [4, 6],
    ]);
    expect(book.depth(Sell, 5)).toEqual([]);
  });
});

describe("market orders", () => {
  it("sweep levels and expire what the book cannot fill", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(2), GTC, EM, 1);
    book.limit(2, 10, Sell, asTicks(105), asLots(2), GTC, EM, 2);
    log.clear();
    book.market(3, 20, Buy, asLots(5), EM, 3);
    expect(trades(log.events).map((t) => [t.price, t.qty])).toEqual([
      [100, 2],
      [105, 2],
    ]);
    expect(noDeltas(log.events).at(-1)).toMatchObject({ type: "expired", id: 3, left: 1, reason: "MARKET" });
    expect(book.size).toBe(0);
  });

  it("expire entirely on an empty book", () => {
    const { book, log } = newBook();
    book.market(1, 20, Sell, asLots(5), EM, 1);
    expect(noDeltas(log.events)).toMatchObject([
      { type: "accepted", id: 1 },
      { type: "expired", id: 1, left: 5 },
    ]);
  });
});

describe("time in force", () => {
  it("IOC fills what it can and never rests", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(2), GTC, EM, 1);
    book.limit(2, 20, Buy, asTicks(100), asLots(5), Tif.IOC, EM, 2);
    expect(noDeltas(log.events).at(-1)).toMatchObject({ type: "expired", id: 2, left: 3, reason: "IOC" });
    expect(book.has(2)).toBe(false);
    expect(book.depth(Buy, 1)).toEqual([]);
  });

  it("FOK expires untouched when the book cannot fill all of it", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(2), GTC, EM, 1);
    book.limit(2, 10, Sell, asTicks(102), asLots(2), GTC, EM, 2);
    log.clear();
    book.limit(3, 20, Buy, asTicks(101), asLots(3), Tif.FOK, EM, 3);
    expect(log.events).toMatchObject([
      { type: "accepted", id: 3 },
      { type: "expired", id: 3, left: 3, reason: "FOK" },
    ]);
    expect(book.depth(Sell, 5)).toEqual([
      [100, 2],
      [102, 2],
    ]);
  });

  it("FOK fills completely when it can", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(2), GTC, EM, 1);
    book.limit(2, 10, Sell, asTicks(102), asLots(2), GTC, EM, 2);
    log.clear();
    book.limit(3, 20, Buy, asTicks(102), asLots(3), Tif.FOK, EM, 3);
    expect(trades(log.events).reduce((n, t) => n + t.qty, 0)).toBe(3);
    expect(book.has(3)).toBe(false);
  });

  it("FOK counts only what it may take: the account's own resting orders are not liquidity", () => {
    // Shown within 101: 4 lots, 2 of them the taker's own account (20).
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(2), GTC, EM, 1);
    book.limit(2, 20, Sell, asTicks(101), asLots(2), GTC, EM, 2);
    log.clear();
    // Expire-maker: its own 2 lots would be cancelled, not taken, so 3 cannot fill.
    book.limit(3, 20, Buy, asTicks(101), asLots(3), Tif.FOK, EM, 3);
    expect(log.events).toMatchObject([
      { type: "accepted", id: 3 },
      { type: "expired", id: 3, left: 3, reason: "FOK" },
    ]);
    expect([book.has(1), book.has(2)]).toEqual([true, true]);
    // Expire-taker: meeting its own order ends the taker, so even 2 ahead of it cannot fill past it.
    book.limit(4, 10, Sell, asTicks(101), asLots(5), GTC, EM, 4);
    log.clear();
    book.limit(5, 20, Buy, asTicks(101), asLots(3), Tif.FOK, Stp.ExpireTaker, 5);
    expect(noDeltas(log.events)).toMatchObject([
      { type: "accepted", id: 5 },
      { type: "expired", id: 5, left: 3, reason: "FOK" },
    ]);
    // Expire-maker with enough of others' lots behind its own: fills whole, its own order expired.
    log.clear();
    book.limit(6, 20, Buy, asTicks(101), asLots(3), Tif.FOK, EM, 6);
    expect(trades(log.events).map((t) => [t.makerId, t.qty])).toEqual([
      [1, 2],
      [4, 1],
    ]);
    expect(book.has(2)).toBe(false);
  });

  it("GTX (post-only) is rejected when it would take, and rests otherwise", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(2), GTC, EM, 1);
    log.clear();
    book.limit(2, 20, Buy, asTicks(100), asLots(1), Tif.GTX, EM, 2);
    expect(log.events).toMatchObject([
      { type: "rejected", id: 2, error: { code: DomainCode.POST_ONLY_WOULD_TAKE, field: "price" } },
    ]);
    book.limit(3, 20, Buy, asTicks(99), asLots(1), Tif.GTX, EM, 3);
    expect(book.has(3)).toBe(true);
    expect(book.top()).toEqual({ bid: 99, ask: 100 });
  });
});

describe("self-trade prevention", () => {
  const setup = () => {
    const r = newBook();
    r.book.limit(1, 7, Sell, asTicks(100), asLots(2), GTC, EM, 1); // own order, first in queue
    r.book.limit(2, 8, Sell, asTicks(100), asLots(2), GTC, EM, 2);
    r.log.clear();
    return r;
  };

  it("expire maker (the default): the own maker expires and the taker goes on", () => {
    const { book, log } = setup();
    book.place({ id: 3, account: 7, side: Buy, type: "limit", price: asTicks(100), qty: asLots(2), ts: 3 });
    expect(noDeltas(log.events)).toMatchObject([
      { type: "accepted", id: 3 },
      { type: "expired", id: 1, left: 2, reason: "STP_MAKER" },
      { type: "trade", makerId: 2, takerId: 3, qty: 2 },
    ]);
  });

  it("expire taker: the taker's remainder expires and the maker stays", () => {
    const { book, log } = setup();
    book.limit(3, 7, Buy, asTicks(100), asLots(2), GTC, Stp.ExpireTaker, 3);
    expect(noDeltas(log.events)).toMatchObject([
      { type: "accepted", id: 3 },
      { type: "expired", id: 3, left: 2, reason: "STP_TAKER" },
    ]);
    expect(book.has(1)).toBe(true);
  });

  it("expire both: both go", () => {
    const { book, log } = setup();
    book.limit(3, 7, Buy, asTicks(100), asLots(2), GTC, Stp.ExpireBoth, 3);
    expect(noDeltas(log.events)).toMatchObject([
      { type: "accepted", id: 3 },
      { type: "expired", id: 1, reason: "STP_MAKER" },
      { type: "expired", id: 3, reason: "STP_TAKER" },
    ]);
    expect(book.has(1)).toBe(false);
    expect(book.has(2)).toBe(true);
  });
});

describe("cancel", () => {
  it("removes exactly the order, in O(1) by id", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Buy, asTicks(100), asLots(2), GTC, EM, 1);
    book.limit(2, 10, Buy, asTicks(100), asLots(3), GTC, EM, 2);
    book.limit(3, 10, Buy, asTicks(100), asLots(4), GTC, EM, 3);
    log.clear();
    book.cancel(2, 4);
    expect(log.events).toMatchObject([
      { type: "delta", side: Buy, price: 100, levelQty: 6 },
      { type: "cancelled", id: 2, left: 3, reason: "USER" },
    ]);
    expect(book.snapshot().orders.map((o) => o.id)).toEqual([1, 3]);
  });

  it("rejects an unknown id as data", () => {
    const { book, log } = newBook();
    book.cancel(99, 1);
    expect(log.events).toEqual([
      {
        type: "rejected",
        seq: 1,
        id: 99,
        error: { code: DomainCode.ORDER_NOT_FOUND, field: "id", params: {} },
        ts: 1,
      },
    ]);
  });
});

describe("stop orders", () => {
  it("stop-limit waits off-book and fires when the last price crosses its stop", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(1), GTC, EM, 1);
    book.limit(2, 11, Buy, asTicks(100), asLots(1), GTC, EM, 2); // last = 100
    book.place({
      id: 3,
      account: 12,
      side: Buy,
      type: "stop-limit",
      stopPrice: asTicks(105),
      price: asTicks(106),
      qty: asLots(2),
      ts: 3,
    });
    expect(book.depth(Buy, 5)).toEqual([]);
    book.limit(4, 10, Sell, asTicks(105), asLots(1), GTC, EM, 4);
    book.limit(5, 10, Sell, asTicks(106), asLots(5), GTC, EM, 5);
    log.clear();
    book.limit(6, 11, Buy, asTicks(105), asLots(1), GTC, EM, 6); // trade at 105 fires the stop
    expect(noDeltas(log.events)).toMatchObject([
      { type: "accepted", id: 6 },
      { type: "trade", makerId: 4, takerId: 6, price: 105 },
      { type: "triggered", id: 3 },
      { type: "trade", makerId: 5, takerId: 3, price: 106, qty: 2 },
    ]);
  });

  it("stop-market runs as a market order once fired", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Buy, asTicks(100), asLots(1), GTC, EM, 1);
    book.limit(2, 10, Buy, asTicks(90), asLots(5), GTC, EM, 2);
    book.place({
      id: 3,
      account: 12,
      side: Sell,
      type: "stop-market",
      stopPrice: asTicks(100),
      qty: asLots(3),
      ts: 3,
    });
    log.clear();
    book.market(4, 11, Sell, asLots(1), EM, 4); // trades at 100
    expect(trades(log.events).map((t) => [t.takerId, t.price, t.qty])).toEqual([
      [4, 100, 1],
      [3, 90, 3],
    ]);
  });

  it("is rejected when it would fire immediately", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(1), GTC, EM, 1);
    book.limit(2, 11, Buy, asTicks(100), asLots(1), GTC, EM, 2);
    log.clear();
    book.place({
      id: 3,
      account: 12,
      side: Buy,
      type: "stop-market",
      stopPrice: asTicks(100),
      qty: asLots(1),
      ts: 3,
    });
    expect(log.events).toMatchObject([{ type: "rejected", error: { code: DomainCode.STOP_WOULD_TRIGGER } }]);
  });

  it("fires in trigger-time order, then placement order", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(1), GTC, EM, 1);
    book.limit(2, 11, Buy, asTicks(100), asLots(1), GTC, EM, 2); // last = 100
    // Placed: C (stop 103) first, then A (102), then B (102).
    book.place({
      id: 30,
      account: 1,
      side: Buy,
      type: "stop-market",
      stopPrice: asTicks(103),
      qty: asLots(1),
      ts: 3,
    });
    book.place({
      id: 10,
      account: 2,
      side: Buy,
      type: "stop-market",
      stopPrice: asTicks(102),
      qty: asLots(1),
      ts: 4,
    });
    book.place({
      id: 20,
      account: 3,
      side: Buy,
      type: "stop-market",
      stopPrice: asTicks(102),
      qty: asLots(1),
      ts: 5,
    });
    book.limit(4, 10, Sell, asTicks(102), asLots(1), GTC, EM, 6);
    book.limit(5, 10, Sell, asTicks(104), asLots(1), GTC, EM, 7);
    log.clear();
    // One sweep trades at 102 (fires A and B at once) and then at 104 (fires C).
    book.limit(6, 11, Buy, asTicks(104), asLots(2), GTC, EM, 8);
    expect(log.events.filter((e) => e.type === "triggered").map((e) => e.id)).toEqual([10, 20, 30]);
  });

  it("can be cancelled while waiting", () => {
    const { book, log } = newBook();
    book.place({
      id: 1,
      account: 1,
      side: Sell,
      type: "stop-market",
      stopPrice: asTicks(90),
      qty: asLots(1),
      ts: 1,
    });
    book.cancel(1, 2);
    expect(log.events.at(-1)).toMatchObject({ type: "cancelled", id: 1, reason: "USER" });
    expect(book.size).toBe(0);
  });
});

describe("attached take-profit / stop-loss", () => {
  it("places an OCO pair when the parent fills; one firing cancels the other", () => {
    const { book, log } = newBook();
    book.limit(1, 10, Sell, asTicks(100), asLots(2), GTC, EM, 1);
    book.place({
      id: 2,
      account: 20,
      side: Buy,
      type: "limit",
      price: asTicks(100),
      qty: asLots(2),
      ts: 2,
      tpsl: {
        takeProfit: { id: 21, triggerPrice: asTicks(110) },
        stopLoss: { id: 22, triggerPrice: asTicks(95), price: asTicks(94) },
      },
    });
    expect(noDeltas(log.events).slice(-2)).toMatchObject([
      { type: "accepted", id: 21 },
      { type: "accepted", id: 22 },
    ]);
    expect(book.snapshot().orders).toMatchObject([
      { id: 21, side: Sell, type: "stop-market", stopPrice: 110, triggerAbove: true, qty: 2, ocoId: 22 },
      {
        id: 22,
        side: Sell,
        type: "stop-limit",
        stopPrice: 95,
        price: 94,
        triggerAbove: false,
        qty: 2,
        ocoId: 21,
      },
    ]);
    book.limit(3, 30, Buy, asTicks(110), asLots(5), GTC, EM, 3);
    book.limit(4, 31, Sell, asTicks(110), asLots(1), GTC, EM, 4); // trades at 110: TP fires
    expect(noDeltas(log.events).slice(-5)).toMatchObject([
      { type: "accepted", id: 4 },
      { type: "trade", makerId: 3, takerId: 4, price: 110, qty: 1 },
      { type: "triggered", id: 21 },
      { type: "cancelled", id: 22, reason: "OCO" },
      { type: "trade", makerId: 3, takerId: 21, price: 110, qty: 2 },
    ]);
  });

  it("waits for a resting parent to fill completely", () => {
    const { book, log } = newBook();
    book.place({
      id: 1,
      account: 20,
      side: Sell,
      type: "limit",
      price: asTicks(100),
      qty: asLots(3),
      ts: 1,
      tpsl: {
        takeProfit: { id: 11, triggerPrice: asTicks(90) },
        stopLoss: { id: 12, triggerPrice: asTicks(120) },
      },
    });
    book.limit(2, 30, Buy, asTicks(100), asLots(1), GTC, EM, 2);
    expect(book.has(11)).toBe(false);
    book.limit(3, 30, Buy, asTicks(100), asLots(2), GTC, EM, 3);
    expect(book.has(11) && book.has(12)).toBe(true);
    expect(log.events.filter((e) => e.type === "accepted").map((e) => e.id)).toEqual([1, 2, 3, 11, 12]);
  });

  it("covers the filled part when a partly filled parent is cancelled", () => {
    const { book } = newBook();
    book.place({
      id: 1,
      account: 20,
      side: Buy,
      type: "limit",
      price: asTicks(100),
      qty: asLots(3),
      ts: 1,
      tpsl: { stopLoss: { id: 12, triggerPrice: asTicks(90) } },
    });
    book.limit(2, 30, Sell, asTicks(100), asLots(1), GTC, EM, 2);
    book.cancel(1, 3);
    expect(book.snapshot().orders).toMatchObject([{ id: 12, qty: 1, side: Sell }]);
  });
});

describe("validation errors are data", () => {
  const reject = (run: (book: OrderBook) => void, spec = unitSpec()) => {
    const { book, log } = newBook({}, spec);
    run(book);
    const last = log.events.at(-1);
    return last?.type === "rejected" ? last.error : null;
  };

  it("price out of range or not an integer tick", () => {
    expect(reject((b) => b.limit(1, 1, Buy, asTicks(0), asLots(1), GTC, EM, 1))).toMatchObject({
      code: DomainCode.PRICE_OUT_OF_RANGE,
      field: "price",
      params: { min: "1", max: "100000" },
    });
    expect(reject((b) => b.limit(1, 1, Buy, asTicks(1.5), asLots(1), GTC, EM, 1))?.code).toBe(
      DomainCode.PRICE_OUT_OF_RANGE,
    );
  });

  it("quantity out of range", () => {
    expect(reject((b) => b.limit(1, 1, Buy, asTicks(10), asLots(0), GTC, EM, 1))).toMatchObject({
      code: DomainCode.QTY_OUT_OF_RANGE,
      field: "qty",
    });
    expect(reject((b) => b.market(1, 1, Buy, asLots(2_000_000), EM, 1))?.code).toBe(
      DomainCode.QTY_OUT_OF_RANGE,
    );
  });

  it("notional below the minimum", () => {
    expect(
      reject((b) => b.limit(1, 1, Buy, asTicks(10), asLots(9), GTC, EM, 1), unitSpec("100")),
    ).toMatchObject({
      code: DomainCode.NOTIONAL_TOO_SMALL,
      params: { minNotional: "100" },
    });
    expect(
      reject((b) => b.limit(1, 1, Buy, asTicks(10), asLots(10), GTC, EM, 1), unitSpec("100")),
    ).toBeNull();
  });

  it("duplicate ids", () => {
    expect(
      reject((b) => {
        b.limit(1, 1, Buy, asTicks(10), asLots(1), GTC, EM, 1);
        b.limit(1, 1, Buy, asTicks(10), asLots(1), GTC, EM, 2);
      }),
    ).toMatchObject({ code: DomainCode.DUPLICATE_ORDER_ID, field: "id" });
  });

  it("order shape", () => {
    expect(
      reject((b) => b.place({ id: 1, account: 1, side: Buy, type: "limit", qty: asLots(1), ts: 1 })),
    ).toMatchObject({
      code: DomainCode.INVALID_ORDER,
      field: "price",
    });
    expect(
      reject((b) =>
        b.place({ id: 1, account: 1, side: Buy, type: "market", qty: asLots(1), tif: Tif.IOC, ts: 1 }),
      ),
    ).toMatchObject({ code: DomainCode.INVALID_ORDER, field: "tif" });
    expect(
      reject((b) => b.place({ id: 1, account: 1, side: Buy, type: "stop-market", qty: asLots(1), ts: 1 })),
    ).toMatchObject({ code: DomainCode.INVALID_ORDER, field: "stopPrice" });
    expect(
      reject((b) => b.place({ id: 1.5, account: 1, side: Buy, type: "market", qty: asLots(1), ts: 1 })),
    ).toMatchObject({
      code: DomainCode.NOT_SAFE_INTEGER,
      field: "id",
    });
  });

  it("TP/SL on the wrong sides", () => {
    expect(
      reject((b) =>
        b.place({
          id: 1,
          account: 1,
          side: Buy,
          type: "limit",
          price: asTicks(100),
          qty: asLots(1),
          ts: 1,
          tpsl: {
            takeProfit: { id: 2, triggerPrice: asTicks(90) },
            stopLoss: { id: 3, triggerPrice: asTicks(95) },
          },
        }),
      ),
    ).toMatchObject({ code: DomainCode.TPSL_INVALID, field: "takeProfit.triggerPrice" });
  });

  it("a side total that would pass 2^53", () => {
    const { book, log } = newBook({}, unitSpec());
    // Force the side total close to the limit through a restored snapshot.
    const big = OrderBook.restore(
      unitSpec(),
      {
        symbol: "TESTUSD",
        seq: 0,
        lastPrice: asTicks(0),
        priority: 1,
        orders: [
          {
            id: 1,
            account: 1,
            side: Buy,
            type: "limit",
            price: asTicks(10),
            stopPrice: asTicks(0),
            triggerAbove: false,
            qty: asLots(Number.MAX_SAFE_INTEGER - 5),
            origQty: asLots(Number.MAX_SAFE_INTEGER - 5),
            tif: GTC,
            stp: EM,
            seq: 1,
            ts: 0,
            ocoId: null,
            tpsl: null,
          },
        ],
      },
      log,
    );
    big.limit(2, 1, Buy, asTicks(11), asLots(10), GTC, EM, 1);
    expect(log.events.at(-1)).toMatchObject({ type: "rejected", error: { code: DomainCode.LEVEL_OVERFLOW } });
    expect(book.size).toBe(0);
  });
});
