import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ticksToPrice } from "../instrument.ts";
import { pairUnits, toMinor } from "../ledger/assets.ts";
import { EntryKind, isSystemAccount, type JournalEntry, Ledger, mintEntry } from "../ledger/ledger.ts";
import { finishOrder, holdFor, newOrderFunds, type OrderFunds, settleFill } from "../ledger/settlement.ts";
import { listInstruments } from "../market/listings.ts";
import { DerivativesAccount, marginWalletOf } from "./accounts.ts";
import {
  type AssetPrices,
  accrueInterest,
  borrow,
  forcedLiquidation,
  type Loan,
  type MarginAccount,
  maxBorrowable,
  maxTransferOut,
  needsForcedLiquidation,
  repay,
  transferIn,
  transferOut,
} from "./margin-loans.ts";

/**
 * Margin accounts driven the way the server drives them: transfers in and out, borrows,
 * repayments, hourly interest, margin orders holding and settling in the margin wallet,
 * price moves and forced liquidations (open orders cancelled first). After every step
 * each asset sums to zero over the ledger, no user balance is negative, every forced
 * liquidation is accepted by the ledger, and the lending pool holds exactly minus the
 * outstanding debts.
 */
const listed = listInstruments();
if (!listed.ok) throw new Error("listings invalid");
const BTC = listed.value.find((i) => i.spec.symbol === "BTCUSDT");
if (BTC === undefined) throw new Error("no BTCUSDT");
const spec = BTC.spec;
const units = pairUnits(spec);
if (units === null) throw new Error("no units");
const u = units;
const START_TICKS = 9_700_000; // 97,000.00
const ASSETS = ["USDT", "BTC"] as const;
/** 1 % a day: interest alone moves accounts within a run. */
const RATES = { USDT: 1_000_000n, BTC: 1_000_000n };

interface Wallet {
  readonly accountId: number;
  readonly pair: string | undefined;
  loans: ReadonlyMap<string, Loan>;
}

interface Open {
  readonly funds: OrderFunds;
  readonly wallet: Wallet;
}

type Op =
  | { t: "in"; w: number; asset: number; amount: number }
  | { t: "out"; w: number; asset: number; permille: number }
  | { t: "borrow"; w: number; asset: number; permille: number }
  | { t: "repay"; w: number; asset: number; permille: number }
  | { t: "interest"; hours: number }
  | { t: "price"; pct: number }
  | { t: "order"; w: number; buy: boolean; permille: number; fillPermille: number; keep: boolean }
  | { t: "cancel"; w: number };

const w = fc.integer({ min: 0, max: 3 });
const asset = fc.integer({ min: 0, max: 1 });
const permille = fc.integer({ min: 1, max: 1_000 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant("in" as const),
      w,
      asset,
      amount: fc.integer({ min: 1, max: 5_000 }),
    }),
  },
  fc.record({ t: fc.constant("out" as const), w, asset, permille }),
  { weight: 3, arbitrary: fc.record({ t: fc.constant("borrow" as const), w, asset, permille }) },
  fc.record({ t: fc.constant("repay" as const), w, asset, permille }),
  fc.record({ t: fc.constant("interest" as const), hours: fc.integer({ min: 1, max: 72 }) }),
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant("price" as const), pct: fc.integer({ min: -25, max: 25 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("order" as const),
      w,
      buy: fc.boolean(),
      permille,
      fillPermille: fc.integer({ min: 0, max: 1_000 }),
      keep: fc.boolean(),
    }),
  },
  fc.record({ t: fc.constant("cancel" as const), w }),
);

class Model {
  readonly ledger = new Ledger();
  /** Two users, each with a cross account and an isolated BTCUSDT account. */
  readonly wallets: Wallet[] = [1, 2].flatMap((accountId) => [
    { accountId, pair: undefined, loans: new Map() },
    { accountId, pair: "BTCUSDT", loans: new Map() },
  ]);
  open: Open[] = [];
  ticks = START_TICKS;
  nextOrder = 1;
  liquidations = 0;

  constructor() {
    for (const id of [1, 2]) {
      const mint = mintEntry(EntryKind.Activate, id, [
        { asset: "USDT", amount: toMinor("USDT", "1000000") ?? 0n },
        { asset: "BTC", amount: toMinor("BTC", "10") ?? 0n },
      ]);
      this.must(mint);
    }
  }

  must(entry: JournalEntry | null): void {
    if (entry === null) return;
    const refusal = this.ledger.apply(entry);
    if (refusal !== null) throw new Error(`refused ${entry.kind}: ${refusal.code} ${refusal.account}`);
  }

  prices(): AssetPrices {
    return new Map([["BTC", toMinor("USDT", ticksToPrice(spec, this.ticks)) ?? 0n]]);
  }

  view(x: Wallet): MarginAccount {
    const ww = marginWalletOf(x.accountId, x.pair);
    return {
      accountId: x.accountId,
      mode: x.pair === undefined ? "cross" : "isolated",
      ...(x.pair === undefined ? {} : { pair: x.pair }),
      assets: this.ledger.balancesOf(ww.available),
      locked: this.ledger.balancesOf(ww.held),
      loans: x.loans,
    };
  }

  cancelAll(x: Wallet): void {
    for (const o of this.open.filter((o) => o.wallet === x)) this.must(finishOrder(o.funds));
    this.open = this.open.filter((o) => o.wallet !== x);
  }

  step(op: Op): void {
    const prices = this.prices();
    switch (op.t) {
      case "in": {
        const x = this.wallets[op.w];
        if (x === undefined) return;
        const a = ASSETS[op.asset] ?? "USDT";
        const s = transferIn(this.view(x), a, BigInt(op.amount) * (a === "BTC" ? 100_000n : 100_000_000n));
        if (this.ledger.check(s.entry) === null) this.must(s.entry);
        return;
      }
      case "out": {
        const x = this.wallets[op.w];
        if (x === undefined) return;
        const a = ASSETS[op.asset] ?? "USDT";
        const max = maxTransferOut(this.view(x), a, prices);
        const amount = (max * BigInt(op.permille)) / 1_000n;
        if (amount === 0n) return;
        const r = transferOut(this.view(x), a, amount, prices);
        expect(r.ok).toBe(true);
        if (r.ok) this.must(r.value.entry);
        return;
      }
      case "borrow": {
        const x = this.wallets[op.w];
        if (x === undefined) return;
        const a = ASSETS[op.asset] ?? "USDT";
        const max = maxBorrowable(this.view(x), a, prices);
        const amount = (max * BigInt(op.permille)) / 1_000n;
        if (amount === 0n) return;
        const r = borrow(this.view(x), a, amount, prices);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        this.must(r.value.entry);
        x.loans = r.value.account.loans;
        return;
      }
      case "repay": {
        const x = this.wallets[op.w];
        if (x === undefined) return;
        const a = ASSETS[op.asset] ?? "USDT";
        const v = this.view(x);
        const loan = x.loans.get(a);
        const owed = loan === undefined ? 0n : loan.principal + loan.interest;
        const have = v.assets.get(a) ?? 0n;
        const amount = ((owed < have ? owed : have) * BigInt(op.permille)) / 1_000n;
        if (amount === 0n) return;
        const r = repay(v, a, amount);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        this.must(r.value.entry);
        x.loans = r.value.account.loans;
        return;
      }
      case "interest":
        for (let h = 0; h < op.hours; h++) {
          for (const x of this.wallets) {
            const r = accrueInterest(this.view(x), RATES);
            this.must(r.entry);
            x.loans = r.account.loans;
          }
        }
        return;
      case "price":
        this.ticks = Math.max(100_000, Math.round((this.ticks * (100 + op.pct)) / 100));
        return;
      case "order": {
        const x = this.wallets[op.w];
        if (x === undefined) return;
        const ww = marginWalletOf(x.accountId, x.pair);
        const free = this.ledger.balance(ww.available, op.buy ? "USDT" : "BTC");
        const budget = (free * BigInt(op.permille)) / 1_000n;
        const lotCost = holdFor(spec, u, op.buy ? 0 : 1, this.ticks, 1, { makerPpm: 1_000, takerPpm: 1_000 });
        const lots = Number(budget / lotCost);
        if (lots <= 0) return;
        const side = op.buy ? 0 : 1;
        const rates = { makerPpm: 1_000, takerPpm: 1_000 };
        const held = holdFor(spec, u, side, this.ticks, lots, rates);
        const funds = newOrderFunds({
          id: this.nextOrder++,
          accountId: x.accountId,
          side,
          units: u,
          ...rates,
          held,
          wallet: ww,
        });
        this.must({
          kind: EntryKind.Hold,
          postings: [
            { account: ww.available, asset: op.buy ? "USDT" : "BTC", amount: -held },
            { account: ww.held, asset: op.buy ? "USDT" : "BTC", amount: held },
          ],
        });
        const fillLots = Math.floor((lots * op.fillPermille) / 1_000);
        if (fillLots > 0) {
          const me = { order: funds, role: "taker" as const };
          const maker = { order: null, role: "maker" as const };
          const s = settleFill(spec, u, this.ticks, fillLots, op.buy ? me : maker, op.buy ? maker : me);
          this.must(s.entry);
        }
        if (op.keep && fillLots < lots) this.open.push({ funds, wallet: x });
        else this.must(finishOrder(funds));
        return;
      }
      case "cancel": {
        const x = this.wallets[op.w];
        if (x !== undefined) this.cancelAll(x);
        return;
      }
    }
  }

  /** The server's price pass: every account below 1.1 is liquidated (its orders cancelled first). */
  liquidate(): void {
    const prices = this.prices();
    for (const x of this.wallets) {
      if (!needsForcedLiquidation(this.view(x), prices)) continue;
      this.cancelAll(x);
      const r = forcedLiquidation(this.view(x), prices);
      this.must(r.entry);
      x.loans = r.account.loans;
      this.liquidations++;
      const ww = marginWalletOf(x.accountId, x.pair);
      expect([...this.ledger.balancesOf(ww.available).keys()].every((a) => a === "USDT")).toBe(true);
      expect(this.ledger.balancesOf(ww.held).size).toBe(0);
    }
  }

  check(): void {
    for (const a of ASSETS) expect(this.ledger.total(a)).toBe(0n);
    for (const [account, assets] of this.ledger.entries()) {
      if (isSystemAccount(account)) continue;
      for (const amount of assets.values()) expect(amount >= 0n).toBe(true);
    }
    for (const a of ASSETS) {
      let debts = 0n;
      for (const x of this.wallets) {
        const l = x.loans.get(a);
        if (l !== undefined) debts += l.principal + l.interest;
      }
      expect(this.ledger.balance(DerivativesAccount.Lending, a)).toBe(-debts);
    }
  }
}

describe("margin accounts (property)", () => {
  it("conserve every asset, never go negative, and keep the lending pool at minus the debts", () => {
    let liquidated = 0;
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 20, maxLength: 80, size: "max" }), (ops) => {
        const m = new Model();
        for (const op of ops) {
          m.step(op);
          m.liquidate();
          m.check();
        }
        liquidated += m.liquidations;
      }),
      { numRuns: 300 },
    );
    // The runs must reach the interesting path, or the property says little.
    expect(liquidated).toBeGreaterThan(0);
  });
});
