import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COIN_PERP_CONTRACTS, type CoinPerpContract } from "./coin-contracts.ts";
import { maxLeverageFor, notionalAt, type RiskBracket } from "./contracts.ts";
import { fundingPayment } from "./funding.ts";
import { liquidationPrice } from "./liquidation-price.ts";
import { applyFill, entryTicks, flatPosition, type PerpPosition, unrealisedPnl } from "./position.ts";

// An independent model of the inverse contract in exact rationals of the margin coin's
// minor units: value = n x cv / P, PnL = n x cv x (1/entry - 1/mark) for a long, entry
// value = sum of the fills' values (so entry = the harmonic mean), closing c of n removes
// c/n of it. The code under test keeps integers; these bound its rounding.

interface Q {
  n: bigint;
  d: bigint;
}
const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x === 0n ? 1n : x;
};
const q = (n: bigint, d = 1n): Q => {
  const s = d < 0n ? -1n : 1n;
  const g = gcd(n, d);
  return { n: (s * n) / g, d: (s * d) / g };
};
const add = (a: Q, b: Q): Q => q(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Q, b: Q): Q => add(a, { n: -b.n, d: b.d });
const mul = (a: Q, b: Q): Q => q(a.n * b.n, a.d * b.d);
const cmp = (a: Q, b: Q): number => {
  const x = a.n * b.d - b.n * a.d;
  return x < 0n ? -1 : x > 0n ? 1 : 0;
};

/** Value in minor units of `lots` contracts at `ticks`: contracts x USD per contract / price. */
function value(c: CoinPerpContract, lots: number, ticks: number): Q {
  // contract value in USD / (ticks x tick in USD) coins, x 10^decimals minor units.
  const tick = q(c.instrument.tickUnits, 10n ** BigInt(c.instrument.priceDecimals));
  const usd = q(BigInt(c.contractValue) * BigInt(lots));
  const coins = { n: usd.n * tick.d, d: usd.d * BigInt(ticks) * tick.n };
  return mul(q(coins.n, coins.d), q(10n ** BigInt(c.marginDecimals)));
}

/** Exact margin balance minus maintenance of an isolated position at `ticks` (brackets by value). */
function marginOverMaintenance(
  c: CoinPerpContract,
  long: boolean,
  lots: number,
  entry: Q,
  margin: bigint,
  ticks: number,
): Q {
  const v = value(c, lots, ticks);
  const pnl = long ? sub(entry, v) : sub(v, entry);
  let b = c.brackets[0] as RiskBracket;
  for (const x of c.brackets) if (cmp(q(x.floor), v) <= 0) b = x;
  const mm = sub(mul(v, q(BigInt(b.mmrPpm), 1_000_000n)), q(b.maintAmount));
  return sub(add(q(margin), pnl), mm);
}

const contractArb = fc.constantFrom(...COIN_PERP_CONTRACTS);
/** A price near a reference for the contract (ticks), so values stay in its brackets. */
const REF_TICKS: Record<string, number> = {
  BTCUSD: 600_000,
  ETHUSD: 300_000,
  SOLUSD: 15_000,
  XRPUSD: 5_000,
  DOGEUSD: 10_000,
  ADAUSD: 4_000,
  LTCUSD: 8_000,
};
const priceArb = (c: CoinPerpContract) =>
  fc.integer({ min: 500, max: 2_000 }).map((pm) => Math.floor(((REF_TICKS[c.symbol] ?? 1) * pm) / 1000));

describe("inverse contracts against an exact model", () => {
  it("fills: entry value, realised and unrealised PnL within rounding, against the trader", () => {
    fc.assert(
      fc.property(
        contractArb.chain((c) =>
          fc.tuple(
            fc.constant(c),
            fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 50 }), priceArb(c)), {
              minLength: 1,
              maxLength: 12,
            }),
            priceArb(c),
          ),
        ),
        ([c, fills, mark]) => {
          let pos: PerpPosition = flatPosition({
            accountId: 1,
            symbol: c.symbol,
            marginMode: "cross",
            leverage: 1,
          });
          let entry = q(0n);
          let ops = 0n;
          for (const [buy, lots, ticks] of fills) {
            const before = pos;
            const r = applyFill(c, pos, { side: buy ? "buy" : "sell", lots, priceTicks: ticks, feePpm: 0 });
            if (!r.ok) continue;
            ops += 1n;
            pos = r.value.position;
            const size = Math.abs(before.lots);
            const closing =
              before.lots !== 0 && Math.sign(before.lots) !== (buy ? 1 : -1) ? Math.min(size, lots) : 0;
            let exactPnl = q(0n);
            if (closing > 0) {
              const removed = mul(entry, q(BigInt(closing), BigInt(size)));
              const v = value(c, closing, ticks);
              exactPnl = before.lots > 0 ? sub(removed, v) : sub(v, removed);
              entry = sub(entry, removed);
            }
            if (lots > closing) entry = add(entry, value(c, lots - closing, ticks));
            // Realised: never above the exact figure (beyond the cost's sub-minor drift), less than one unit below.
            const drift = q(ops, c.costScale);
            const got = q(r.value.realisedPnl);
            expect(cmp(got, add(exactPnl, drift))).toBeLessThanOrEqual(0);
            expect(cmp(got, sub(exactPnl, add(q(1n), drift)))).toBeGreaterThan(0);
            // The stored entry value follows the exact one to within the drift.
            const stored = q(pos.cost, c.costScale);
            expect(cmp(stored, add(entry, drift))).toBeLessThanOrEqual(0);
            expect(cmp(stored, sub(entry, drift))).toBeGreaterThanOrEqual(0);
          }
          if (pos.lots === 0) return;
          const long = pos.lots > 0;
          const v = value(c, Math.abs(pos.lots), mark);
          const exact = long ? sub(entry, v) : sub(v, entry);
          const drift = q(ops, c.costScale);
          const got = q(unrealisedPnl(c, pos, mark));
          expect(cmp(got, add(exact, drift))).toBeLessThanOrEqual(0);
          expect(cmp(got, sub(exact, add(q(1n), drift)))).toBeGreaterThan(0);
          // The entry price is the harmonic mean: contracts x value / entry value, at the tick.
          const harmonic = q(
            BigInt(Math.abs(pos.lots)) * c.contractValueTicks * 10n ** BigInt(c.marginDecimals),
          );
          const exactTicks = mul(harmonic, q(entry.d, entry.n));
          expect(
            Math.abs(entryTicks(c, pos) - Number(exactTicks.n) / Number(exactTicks.d)),
          ).toBeLessThanOrEqual(0.5 + 1e-6);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("isolated liquidation price: not breached there, breached one tick further", () => {
    fc.assert(
      fc.property(
        contractArb.chain((c) =>
          fc.tuple(
            fc.constant(c),
            fc.boolean(),
            // Sizes from one contract to past the first brackets.
            fc
              .tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 0, max: 5 }))
              .map(([m, e]) => m * 10 ** e),
            priceArb(c),
            fc.integer({ min: 1, max: 125 }),
          ),
        ),
        ([c, long, lots, ticks, wanted]) => {
          const allowed = maxLeverageFor(c, notionalAt(c, lots, ticks));
          fc.pre(allowed > 1);
          const leverage = Math.max(2, Math.min(wanted, allowed));
          const start = flatPosition({ accountId: 1, symbol: c.symbol, marginMode: "isolated", leverage });
          const r = applyFill(c, start, { side: long ? "buy" : "sell", lots, priceTicks: ticks, feePpm: 0 });
          fc.pre(r.ok);
          if (!r.ok) return;
          const pos = r.value.position;
          const margin = r.value.marginAdded;
          const lp = liquidationPrice({
            contract: c,
            legs: [{ side: long ? 1 : -1, lots, cost: pos.cost }],
            walletBalance: margin,
            markTicks: ticks,
          });
          expect(lp).not.toBeNull();
          if (lp === null) return;
          const entry = q(pos.cost, c.costScale);
          // Rounded toward the mark: the mark reaches it no later than the position is breached.
          expect(cmp(marginOverMaintenance(c, long, lots, entry, margin, lp), q(0n))).toBeGreaterThanOrEqual(
            0,
          );
          const beyond = long ? lp - 1 : lp + 1;
          if (beyond > 0)
            expect(cmp(marginOverMaintenance(c, long, lots, entry, margin, beyond), q(0n))).toBeLessThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("funding: value at the mark x rate, the payer's share rounded up", () => {
    fc.assert(
      fc.property(
        contractArb.chain((c) =>
          fc.tuple(
            fc.constant(c),
            fc.integer({ min: -200, max: 200 }).filter((x) => x !== 0),
            priceArb(c),
            fc.integer({ min: -75_000, max: 75_000 }),
          ),
        ),
        ([c, lots, mark, rate]) => {
          const pos = {
            ...flatPosition({ accountId: 1, symbol: c.symbol, marginMode: "cross", leverage: 1 }),
            lots,
          };
          const exact = mul(
            mul(value(c, Math.abs(lots), mark), q(BigInt(rate), 100_000_000n)),
            q(BigInt(Math.sign(lots))),
          );
          const got = q(fundingPayment(c, pos, mark, BigInt(rate)));
          expect(cmp(got, exact)).toBeGreaterThanOrEqual(0);
          expect(cmp(got, add(exact, q(1n)))).toBeLessThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
