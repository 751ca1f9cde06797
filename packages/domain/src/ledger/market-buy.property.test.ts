import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineInstrument } from "../instrument.ts";
import { asAsset, asSymbol } from "../units.ts";
import { pairUnits } from "./assets.ts";
import { availableOf, EntryKind, holdEntry, Ledger, mintEntry } from "./ledger.ts";
import { finishOrder, holdFor, newOrderFunds, planMarketBuy, settleFill } from "./settlement.ts";

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

/**
 * Runs the plan as the engine does: hold, then an IOC at the cap against the ladder,
 * with each level's first `skipped` lots unavailable (own orders skipped by self-trade
 * prevention push fills deeper). Returns the quote spent and the fees, from the ledger.
 */
function buy(
  asks: Array<[number, number]>,
  budget: bigint,
  r: { makerPpm: number; takerPpm: number },
  skipped: number[],
) {
  const plan = planMarketBuy(spec, units, asks, { quote: budget, rates: r });
  if (plan === null) return null;
  const ledger = new Ledger();
  expect(ledger.apply(mintEntry(EntryKind.Activate, 1, [{ asset: "USDT", amount: budget }]))).toBeNull();
  const held = holdFor(spec, units, 0, plan.capTicks, plan.lots, r);
  // The hold itself fits the total: a user with exactly the total can place the order.
  expect(ledger.apply(holdEntry(1, "USDT", held))).toBeNull();
  const order = newOrderFunds({ id: 1, accountId: 1, side: 0, units, ...r, held });
  let spent = 0n;
  asks.forEach(([ticks, lots], i) => {
    const left = plan.lots - order.filledLots;
    const free = Math.max(0, lots - (skipped[i] ?? 0));
    if (left <= 0 || ticks > plan.capTicks || free === 0) return;
    const fill = settleFill(
      spec,
      units,
      ticks,
      Math.min(left, free),
      { order, role: "taker" },
      { order: null, role: "maker" },
    );
    expect(ledger.apply(fill.entry)).toBeNull();
    spent += fill.quoteAmount;
  });
  const release = finishOrder(order);
  if (release !== null) expect(ledger.apply(release)).toBeNull();
  return { plan, spent, fees: order.fees, left: ledger.balance(availableOf(1), "USDT") };
}

describe("market buy by total", () => {
  it("never spends more than the total, fee included", () => {
    fc.assert(
      fc.property(
        ladder,
        total,
        rates,
        fc.array(fc.integer({ min: 0, max: 50_000 }), { maxLength: 30 }),
        (asks, budget, r, skipped) => {
          const out = buy(asks, budget, r, skipped);
          if (out === null) return;
          expect(out.plan.lots).toBeGreaterThan(0);
          expect(out.spent + out.fees).toBeLessThanOrEqual(budget);
          expect(out.left).toBe(budget - out.spent - out.fees);
          expect(out.left).toBeGreaterThanOrEqual(0n);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("buys as many lots as the total holds on a deep single-price book", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12_000_000 }), total, rates, (ticks, budget, r) => {
        const out = buy([[ticks, Number.MAX_SAFE_INTEGER]], budget, r, []);
        const lots = out === null ? 0 : out.plan.lots;
        if (out !== null) expect(out.spent + out.fees).toBeLessThanOrEqual(budget);
        // One lot more would not fit the total with its fee.
        expect(holdFor(spec, units, 0, ticks, lots + 1, r)).toBeGreaterThan(budget);
      }),
      { numRuns: 500 },
    );
  });

  it("a 1,000 USDT total at a 0.1 % fee takes at most 1,000 USDT", () => {
    const out = buy([[9_703_680, 100_000]], 1_000n * 10n ** 8n, { makerPpm: 1000, takerPpm: 1000 }, []);
    expect(out).not.toBeNull();
    if (out === null) return;
    expect(out.spent + out.fees).toBeLessThanOrEqual(1_000n * 10n ** 8n);
    expect(out.plan.lots).toBe(1029);
  });
});
