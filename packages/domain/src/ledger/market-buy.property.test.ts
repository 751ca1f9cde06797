import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineInstrument } from "../instrument.ts";
import { EventLog } from "../matching/event-log.ts";
import { OrderBook } from "../matching/order-book.ts";
import { Side, Stp, Tif } from "../matching/types.ts";
import { asAsset, asLots, asSymbol, asTicks } from "../units.ts";
import { pairUnits } from "./assets.ts";
import { availableOf, EntryKind, holdEntry, Ledger, mintEntry } from "./ledger.ts";
import { finishOrder, holdFor, newOrderFunds, planMarketBuy, quoteOf, settleFill } from "./settlement.ts";

const spec = (() => {
  const r = defineInstrument({
    symbol: asSymbol("BTCUSDT"),
    base: asAsset("BTC"),
    quote: asAsset("USDT"),
    tickSize: "0.01",
    lotSize: "0.00001",
    minNotional: "0",
  });
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
})();
const units = (() => {
  const u = pairUnits(spec);
  if (u === null) throw new Error("not carried");
  return u;
})();

/** Ask ladders best first: rising prices from about 0.01 to 120,000 USDT. */
const ladder = fc
  .tuple(
    fc.integer({ min: 1, max: 12_000_000 }),
    fc.array(
      fc.record({ gap: fc.integer({ min: 1, max: 5_000 }), lots: fc.integer({ min: 1, max: 50_000 }) }),
      {
        minLength: 1,
        maxLength: 30,
      },
    ),
  )
  .map(([start, ls]) => {
    let price = start;
    return ls.map(({ gap, lots }): [number, number] => {
      price += gap;
      return [price, lots];
    });
  });
const rates = fc.record({
  makerPpm: fc.integer({ min: 0, max: 10_000 }),
  takerPpm: fc.integer({ min: 0, max: 10_000 }),
});
/** Totals from one minor unit to 10,000,000 USDT. */
const total = fc.bigInt({ min: 1n, max: 10n ** 15n });

/** What buying `lots` more lots worth `quote` costs the taker, fee included (its fee is on the running notional). */
const takerCost = (quote: bigint, takerPpm: number) =>
  quote + (quote * BigInt(takerPpm) + 999_999n) / 1_000_000n;

/**
 * Runs the plan as the engine does: hold, then an IOC at the cap against the ladder,
 * with each level's first `skipped` lots the buyer's own (self-trade prevention expires
 * them, so the plan is given the ladder without them, as `OrderBook.depth` answers it
 * for the buyer's account). Returns the quote spent and the fees, from the ledger, and
 * the levels left.
 */
function buy(
  asks: Array<[number, number]>,
  budget: bigint,
  r: { makerPpm: number; takerPpm: number },
  skipped: number[],
) {
  const free = asks
    .map(([ticks, lots], i): [number, number] => [ticks, Math.max(0, lots - (skipped[i] ?? 0))])
    .filter(([, lots]) => lots > 0);
  const plan = planMarketBuy(spec, units, free, { quote: budget, rates: r });
  if (plan === null) return { plan, free, spent: 0n, fees: 0n, left: budget, rest: free };
  const ledger = new Ledger();
  expect(ledger.apply(mintEntry(EntryKind.Activate, 1, [{ asset: "USDT", amount: budget }]))).toBeNull();
  const held = plan.held ?? -1n;
  // The hold fits the total: a user with exactly the total can place the order.
  expect(held).toBeLessThanOrEqual(budget);
  expect(ledger.apply(holdEntry(1, "USDT", held))).toBeNull();
  const order = newOrderFunds({ id: 1, accountId: 1, side: 0, units, ...r, held });
  let spent = 0n;
  const rest: Array<[number, number]> = [];
  for (const [ticks, lots] of free) {
    const left = plan.lots - order.filledLots;
    const take = ticks > plan.capTicks ? 0 : Math.min(left, lots);
    if (take > 0) {
      const fill = settleFill(
        spec,
        units,
        ticks,
        take,
        { order, role: "taker" },
        { order: null, role: "maker" },
      );
      // No fill takes more than the order holds: the ledger refuses a hold gone negative.
      expect(ledger.apply(fill.entry)).toBeNull();
      spent += fill.quoteAmount;
    }
    if (lots > take) rest.push([ticks, lots - take]);
  }
  // The IOC fills the whole plan: the ladder it was planned on is the one it meets.
  expect(order.filledLots).toBe(plan.lots);
  const release = finishOrder(order);
  if (release !== null) expect(ledger.apply(release)).toBeNull();
  return { plan, free, spent, fees: order.fees, left: ledger.balance(availableOf(1), "USDT"), rest };
}

describe("market buy by total", () => {
  it("never spends more than the total, fee included, and holds no more than it", () => {
    fc.assert(
      fc.property(
        ladder,
        total,
        rates,
        fc.array(fc.integer({ min: 0, max: 50_000 }), { maxLength: 30 }),
        (asks, budget, r, skipped) => {
          const out = buy(asks, budget, r, skipped);
          if (out.plan === null) return;
          expect(out.plan.lots).toBeGreaterThan(0);
          expect(out.spent + out.fees).toBeLessThanOrEqual(budget);
          expect(out.fees).toBe(takerCost(out.spent, r.takerPpm) - out.spent);
          expect(out.left).toBe(budget - out.spent - out.fees);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("spends the total as far as the lot size allows: one more lot at the best ask left would not fit", () => {
    fc.assert(
      fc.property(
        ladder,
        total,
        rates,
        fc.array(fc.integer({ min: 0, max: 50_000 }), { maxLength: 30 }),
        (asks, budget, r, skipped) => {
          const out = buy(asks, budget, r, skipped);
          const next = out.rest[0];
          // The book ran dry within the total, or its next lot with its fee is beyond it.
          if (next === undefined) return;
          const more = takerCost(out.spent + quoteOf(spec, units, next[0], 1), r.takerPpm);
          expect(more).toBeGreaterThan(budget);
          // So what is left is less than that lot's price with its fee (and one rounding unit).
          const lot = quoteOf(spec, units, next[0], 1);
          expect(budget - out.spent - out.fees).toBeLessThan(takerCost(lot, r.takerPpm) + 1n);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("buys exactly the planned lots in a real book where the buyer's own asks sit among others'", () => {
    const maker = fc.record({
      account: fc.integer({ min: 1, max: 3 }),
      ticks: fc.integer({ min: 6_000_000, max: 6_000_050 }),
      lots: fc.integer({ min: 1, max: 3_000 }),
    });
    fc.assert(
      fc.property(fc.array(maker, { minLength: 1, maxLength: 40 }), total, rates, (makers, budget, r) => {
        // The same resting asks in each book.
        const rest = (b: OrderBook) =>
          makers.forEach((m, i) => {
            b.limit(
              100 + i,
              m.account,
              Side.Sell,
              asTicks(m.ticks),
              asLots(m.lots),
              Tif.GTC,
              Stp.ExpireMaker,
              0,
            );
          });
        const book = new OrderBook(spec, new EventLog());
        rest(book);
        // Account 1 buys: the plan reads the asks without its own.
        const plan = planMarketBuy(spec, units, book.depth(Side.Sell, 1000, 1), { quote: budget, rates: r });
        if (plan === null) return;
        const order = newOrderFunds({ id: 1, accountId: 1, side: 0, units, ...r, held: plan.held ?? -1n });
        const log = new EventLog();
        const run = new OrderBook(spec, log);
        rest(run);
        run.limit(1, 1, Side.Buy, asTicks(plan.capTicks), asLots(plan.lots), Tif.IOC, Stp.ExpireMaker, 0);
        let spent = 0n;
        for (const e of log.events)
          if (e.type === "trade" && e.takerId === 1) {
            const fill = settleFill(
              spec,
              units,
              e.price,
              e.qty,
              { order, role: "taker" },
              { order: null, role: "maker" },
            );
            spent += fill.quoteAmount;
          }
        expect(order.filledLots).toBe(plan.lots);
        expect(order.held).toBeGreaterThanOrEqual(0n);
        expect(spent + order.fees).toBeLessThanOrEqual(budget);
        const [next] = run.depth(Side.Sell, 1, 1);
        if (next !== undefined)
          expect(takerCost(spent + quoteOf(spec, units, next[0], 1), r.takerPpm)).toBeGreaterThan(budget);
      }),
      { numRuns: 300 },
    );
  });

  it("buys as many lots as the total holds on a deep single-price book", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12_000_000 }), total, rates, (ticks, budget, r) => {
        const out = buy([[ticks, Number.MAX_SAFE_INTEGER]], budget, r, []);
        const lots = out.plan === null ? 0 : out.plan.lots;
        expect(out.spent + out.fees).toBeLessThanOrEqual(budget);
        // One lot more would not fit the total with its fee.
        expect(takerCost(quoteOf(spec, units, ticks, lots + 1), r.takerPpm)).toBeGreaterThan(budget);
      }),
      { numRuns: 500 },
    );
  });

  it("a 1,000 USDT total at a 0.1 % fee takes at most 1,000 USDT", () => {
    const out = buy([[9_703_680, 100_000]], 1_000n * 10n ** 8n, { makerPpm: 1000, takerPpm: 1000 }, []);
    expect(out.plan).not.toBeNull();
    expect(out.spent + out.fees).toBeLessThanOrEqual(1_000n * 10n ** 8n);
    expect(out.plan?.lots).toBe(1029);
  });

  it("on two levels spends all but less than one lot (60 USDT were left unspent when every lot was held at the worst price)", () => {
    // 1,000 lots at 60,000 (0.6 USDT a lot), 1,000 at 66,000; 900 USDT at 0.1 %: 600 +
    // 453 x 0.66 = 898.98, fee 0.89898, 0.12102 left (a lot costs 0.66066).
    const rates01 = { makerPpm: 1000, takerPpm: 1000 };
    const out = buy(
      [
        [6_000_000, 1_000],
        [6_600_000, 1_000],
      ],
      900n * 10n ** 8n,
      rates01,
      [],
    );
    expect(out.plan?.lots).toBe(1_453);
    expect(out.spent).toBe(89_898_000_000n);
    expect(out.fees).toBe(89_898_000n);
    expect(out.left).toBe(12_102_000n);
    // The hold is the total: every lot at 66,000 with its fee would be 959.95.
    expect(out.plan?.held).toBe(900n * 10n ** 8n);
    expect(holdFor(spec, units, 0, 6_600_000, 1_453, rates01)).toBeGreaterThan(900n * 10n ** 8n);
  });
});
