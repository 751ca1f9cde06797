import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asLots, asTicks } from "../units.ts";
import { EventLog } from "./event-log.ts";
import { OrderBook } from "./order-book.ts";
import { unitSpec } from "./test-support.ts";
import { type BookEvent, CancelReason, ExpireReason, type PlaceOrder, Side, Stp, Tif } from "./types.ts";

/** A command with its ids still to assign (so any generated sequence is valid to run). */
type Cmd =
  | { readonly k: "order"; readonly order: Omit<PlaceOrder, "id" | "ts" | "tpsl">; readonly tpsl: boolean }
  | { readonly k: "cancel"; readonly pick: number };

const side = fc.constantFrom(Side.Buy, Side.Sell);
const px = fc.integer({ min: 95, max: 105 }).map(asTicks);
const qty = fc.integer({ min: 1, max: 10 }).map(asLots);
const account = fc.integer({ min: 1, max: 3 });
const stp = fc.constantFrom(Stp.ExpireMaker, Stp.ExpireTaker, Stp.ExpireBoth);

const limitCmd = fc.record({
  k: fc.constant("order" as const),
  order: fc.record({
    account,
    side,
    type: fc.constant("limit" as const),
    price: px,
    qty,
    tif: fc.constantFrom(Tif.GTC, Tif.GTC, Tif.GTC, Tif.IOC, Tif.FOK, Tif.GTX),
    stp,
  }),
  tpsl: fc.boolean(),
});
const marketCmd = fc.record({
  k: fc.constant("order" as const),
  order: fc.record({ account, side, type: fc.constant("market" as const), qty, stp }),
  tpsl: fc.constant(false),
});
const stopCmd = fc.record({
  k: fc.constant("order" as const),
  order: fc.oneof(
    fc.record({ account, side, type: fc.constant("stop-market" as const), stopPrice: px, qty, stp }),
    fc.record({
      account,
      side,
      type: fc.constant("stop-limit" as const),
      stopPrice: px,
      price: px,
      qty,
      stp,
    }),
  ),
  tpsl: fc.constant(false),
});
const cancelCmd = fc.record({ k: fc.constant("cancel" as const), pick: fc.nat() });

const cmdArb = fc.oneof(
  { weight: 6, arbitrary: limitCmd },
  { weight: 1, arbitrary: marketCmd },
  { weight: 1, arbitrary: stopCmd },
  { weight: 2, arbitrary: cancelCmd },
);
const cmdsArb = fc.array(cmdArb, { minLength: 1, maxLength: 120 });

interface Placed {
  readonly id: number;
  readonly account: number;
  readonly qty: number;
  readonly type: string;
  readonly tif: Tif;
}

/** Runs commands, handing each one's events and the book before and after to `check`. */
class Runner {
  readonly log = new EventLog();
  readonly book: OrderBook;
  readonly placed = new Map<number, Placed>();
  readonly accountOf = new Map<number, number>();
  nextId = 1;

  constructor(book?: OrderBook, log?: EventLog) {
    if (log !== undefined) this.log = log;
    this.book = book ?? new OrderBook(unitSpec(), this.log);
  }

  run(cmd: Cmd, ts: number): { events: BookEvent[]; target: number | null; placed: Placed | null } {
    const from = this.log.events.length;
    let target: number | null = null;
    let placed: Placed | null = null;
    if (cmd.k === "cancel") {
      const live = this.book.snapshot().orders;
      // Mostly live orders, sometimes an unknown id.
      target = live.length === 0 || cmd.pick % 10 === 0 ? 999_999 : (live[cmd.pick % live.length]?.id ?? 0);
      this.book.cancel(target, ts);
    } else {
      const id = this.nextId++;
      const o = cmd.order;
      placed = { id, account: o.account, qty: o.qty, type: o.type, tif: o.tif ?? Tif.GTC };
      this.placed.set(id, placed);
      this.accountOf.set(id, o.account);
      const tpsl =
        cmd.tpsl && o.price !== undefined
          ? {
              takeProfit: {
                id: 100_000 + id,
                triggerPrice: asTicks(o.side === Side.Buy ? o.price + 3 : o.price - 3),
              },
              stopLoss: {
                id: 200_000 + id,
                triggerPrice: asTicks(o.side === Side.Buy ? o.price - 3 : o.price + 3),
              },
            }
          : undefined;
      if (tpsl !== undefined) {
        this.accountOf.set(100_000 + id, o.account);
        this.accountOf.set(200_000 + id, o.account);
      }
      this.book.place({ ...o, id, ts, ...(tpsl === undefined ? {} : { tpsl }) });
    }
    return { events: this.log.events.slice(from), target, placed };
  }
}

const betterOrEqual = (s: Side, a: number, b: number) => (s === Side.Buy ? a >= b : a <= b);

describe("order book properties", () => {
  it("the command generator reaches every kind of event", () => {
    const seen = new Map<string, number>();
    for (const cmds of fc.sample(cmdsArb, { numRuns: 200, seed: 7 })) {
      const r = new Runner();
      cmds.forEach((cmd, ts) => {
        r.run(cmd, ts);
      });
      for (const e of r.log.events) {
        const key = e.type === "expired" || e.type === "cancelled" ? `${e.type}:${e.reason}` : e.type;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    }
    for (const key of [
      "trade",
      "triggered",
      "rejected",
      "cancelled:USER",
      "cancelled:OCO",
      "expired:STP_MAKER",
      "expired:STP_TAKER",
      "expired:FOK",
      "expired:IOC",
      "expired:MARKET",
    ]) {
      expect(seen.get(key) ?? 0, key).toBeGreaterThan(5);
    }
  });

  it("price-time priority: nothing ahead of a maker in the queue is left when it trades", () => {
    fc.assert(
      fc.property(cmdsArb, (cmds) => {
        const r = new Runner();
        cmds.forEach((cmd, ts) => {
          const before = r.book.snapshot().orders.filter((o) => o.type === "limit");
          const { events } = r.run(cmd, ts);
          const gone = new Set<number>();
          for (const e of events) {
            if (e.type === "expired" || e.type === "cancelled") gone.add(e.id);
            if (e.type !== "trade") continue;
            const maker = before.find((o) => o.id === e.makerId);
            for (const x of before) {
              if (x.side !== e.makerSide || x.id === e.makerId) continue;
              const ahead =
                maker === undefined
                  ? betterOrEqual(x.side, x.price, e.price)
                  : x.price === maker.price
                    ? x.seq < maker.seq
                    : betterOrEqual(x.side, x.price, maker.price);
              if (ahead) expect(gone.has(x.id), `order ${x.id} was ahead of ${e.makerId}`).toBe(true);
            }
            if (e.makerLeft === 0) gone.add(e.makerId);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it("conservation: fills match on both sides, nothing overfills, left + filled = original", () => {
    fc.assert(
      fc.property(cmdsArb, (cmds) => {
        const r = new Runner();
        cmds.forEach((cmd, ts) => {
          r.run(cmd, ts);
        });
        const filled = new Map<number, number>();
        const left = new Map<number, number>();
        let takerSum = 0;
        let makerSum = 0;
        const add = (id: number, q: number) => filled.set(id, (filled.get(id) ?? 0) + q);
        for (const e of r.log.events) {
          if (e.type === "trade") {
            expect(e.qty).toBeGreaterThan(0);
            expect(e.makerLeft).toBeGreaterThanOrEqual(0);
            expect(e.takerLeft).toBeGreaterThanOrEqual(0);
            for (const [id, l] of [
              [e.makerId, e.makerLeft],
              [e.takerId, e.takerLeft],
            ] as const) {
              const prev = left.get(id);
              if (prev !== undefined) expect(l).toBe(prev - e.qty);
              left.set(id, l);
            }
            add(e.makerId, e.qty);
            add(e.takerId, e.qty);
            makerSum += e.qty;
            takerSum += e.qty;
          }
          if ((e.type === "expired" || e.type === "cancelled") && r.placed.has(e.id)) {
            const p = r.placed.get(e.id);
            expect(e.left + (filled.get(e.id) ?? 0)).toBe(p?.qty);
          }
        }
        expect(takerSum).toBe(makerSum);
        for (const [id, p] of r.placed) expect(filled.get(id) ?? 0).toBeLessThanOrEqual(p.qty);
        for (const o of r.book.snapshot().orders) {
          expect(o.qty + (filled.get(o.id) ?? 0)).toBe(o.origQty);
          const p = r.placed.get(o.id);
          if (p !== undefined) expect(o.origQty).toBe(p.qty);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("the book is never crossed at rest, and depth agrees with the resting orders", () => {
    fc.assert(
      fc.property(cmdsArb, (cmds) => {
        const r = new Runner();
        cmds.forEach((cmd, ts) => {
          r.run(cmd, ts);
          const { bid, ask } = r.book.top();
          if (bid !== 0 && ask !== 0) expect(bid).toBeLessThan(ask);
        });
        const resting = r.book.snapshot().orders.filter((o) => o.type === "limit");
        for (const s of [Side.Buy, Side.Sell]) {
          const sum = new Map<number, number>();
          for (const o of resting) if (o.side === s) sum.set(o.price, (sum.get(o.price) ?? 0) + o.qty);
          const expected = [...sum].sort((a, b) => (s === Side.Buy ? b[0] - a[0] : a[0] - b[0]));
          expect(r.book.depth(s, 1000)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("FOK is all-or-nothing, IOC and market never rest, post-only never takes", () => {
    fc.assert(
      fc.property(cmdsArb, (cmds) => {
        const r = new Runner();
        cmds.forEach((cmd, ts) => {
          const { events, placed } = r.run(cmd, ts);
          if (placed === null) return;
          const took = events.filter((e) => e.type === "trade" && e.takerId === placed.id);
          const qtyTaken = took.reduce((n, e) => n + (e.type === "trade" ? e.qty : 0), 0);
          if (placed.type === "limit" && placed.tif === Tif.FOK) expect([0, placed.qty]).toContain(qtyTaken);
          if (
            placed.type === "market" ||
            (placed.type === "limit" && placed.tif !== Tif.GTC && placed.tif !== Tif.GTX)
          ) {
            expect(r.book.has(placed.id)).toBe(false);
          }
          if (placed.type === "limit" && placed.tif === Tif.GTX) expect(took).toEqual([]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it("self-trade prevention: an account never trades with itself", () => {
    fc.assert(
      fc.property(cmdsArb, (cmds) => {
        const r = new Runner();
        cmds.forEach((cmd, ts) => {
          r.run(cmd, ts);
        });
        for (const e of r.log.events) {
          if (e.type === "trade") expect(r.accountOf.get(e.makerId)).not.toBe(r.accountOf.get(e.takerId));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("determinism: the same commands give the same events", () => {
    fc.assert(
      fc.property(cmdsArb, (cmds) => {
        const a = new Runner();
        const b = new Runner();
        cmds.forEach((cmd, ts) => {
          a.run(cmd, ts);
          b.run(cmd, ts);
        });
        expect(b.log.events).toEqual(a.log.events);
      }),
      { numRuns: 200 },
    );
  });

  it("snapshot and restore: the restored book behaves identically afterwards", () => {
    fc.assert(
      fc.property(cmdsArb, cmdsArb, (prefix, suffix) => {
        const a = new Runner();
        prefix.forEach((cmd, ts) => {
          a.run(cmd, ts);
        });
        const snap = JSON.parse(JSON.stringify(a.book.snapshot()));
        const restoredLog = new EventLog();
        const b = new Runner(OrderBook.restore(unitSpec(), snap, restoredLog), restoredLog);
        b.nextId = a.nextId;
        const fromA = a.log.events.length;
        suffix.forEach((cmd, i) => {
          a.run(cmd, 1000 + i);
          b.run(cmd, 1000 + i);
        });
        const tailA = a.log.events.slice(fromA);
        expect(b.log.events).toEqual(tailA);
        expect(b.book.snapshot()).toEqual(a.book.snapshot());
      }),
      { numRuns: 200 },
    );
  });

  it("cancel removes exactly the one order (and its OCO partner)", () => {
    fc.assert(
      fc.property(cmdsArb, (cmds) => {
        const r = new Runner();
        cmds.forEach((cmd, ts) => {
          const before = r.book.snapshot().orders;
          const { events, target } = r.run(cmd, ts);
          if (target === null) return;
          const after = new Set(r.book.snapshot().orders.map((o) => o.id));
          const victim = before.find((o) => o.id === target);
          if (victim === undefined) {
            expect(events.map((e) => e.type)).toEqual(["rejected"]);
            expect(after.size).toBe(before.length);
            return;
          }
          const spawned = events.flatMap((e) => (e.type === "accepted" ? [e.id] : []));
          const expectedGone = new Set([target, ...(victim.ocoId === null ? [] : [victim.ocoId])]);
          // A TP/SL leg placed by the cancel may fire at once and trade: the resting orders
          // it fills completely, or expires by self-trade prevention, leave with it. Nothing
          // else may go but stops those trades trigger, and nothing but the victim and its
          // partner may be cancelled.
          const tradedAway = new Set(
            events.flatMap((e) => {
              if (e.type === "trade" && e.makerLeft === 0) return [e.makerId];
              if (e.type === "expired" && e.reason === ExpireReason.StpMaker) return [e.id];
              return [];
            }),
          );
          // Its trades move the last price: a resting stop they reach triggers and may go too
          // (a market one that finds no book expires; a limit one may rest on), and the other
          // leg of a pair whose leg triggered or traded is cancelled with it (OCO).
          const triggered = new Set(events.flatMap((e) => (e.type === "triggered" ? [e.id] : [])));
          const moved = new Set([
            ...triggered,
            ...events.flatMap((e) => (e.type === "trade" ? [e.makerId, e.takerId] : [])),
          ]);
          const byId = new Map(before.map((o) => [o.id, o]));
          const ocoGone = new Set(
            events.flatMap((e) => {
              const partner = e.type === "cancelled" ? byId.get(e.id)?.ocoId : undefined;
              return e.type === "cancelled" &&
                e.reason === CancelReason.Oco &&
                partner != null &&
                moved.has(partner)
                ? [e.id]
                : [];
            }),
          );
          for (const e of events) {
            if (e.type === "cancelled" && byId.has(e.id))
              expect(expectedGone.has(e.id) || ocoGone.has(e.id), `cancelled ${e.id}`).toBe(true);
          }
          for (const o of before)
            if (!triggered.has(o.id) && !ocoGone.has(o.id))
              expect(after.has(o.id)).toBe(!expectedGone.has(o.id) && !tradedAway.has(o.id));
          // Cancelling a partly filled parent may place its TP/SL legs (which may fire at once).
          for (const id of after) if (!byId.has(id)) expect(spawned).toContain(id);
        });
      }),
      { numRuns: 300 },
    );
  });
});
