import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EntryKind, type JournalEntry, Ledger, mintEntry } from "../ledger/ledger.ts";
import {
  crossMarginOf,
  DerivativesAccount,
  futuresTransferEntry,
  futuresWalletOf,
  isolatedMarginOf,
  type PositionSide,
} from "./accounts.ts";
import { initialMargin, notionalAt, requirePerp } from "./contracts.ts";
import { settleFunding } from "./funding.ts";
import { decideLiquidations, type FuturesAccount, runLiquidations } from "./liquidation.ts";
import {
  accrueInterest,
  borrow,
  forcedLiquidation,
  type MarginAccount,
  maxBorrowable,
  needsForcedLiquidation,
  repay,
  transferIn,
  transferOut,
} from "./margin-loans.ts";
import { applyFill, crossSummary, flatPosition, type MarginMode, type PerpPosition } from "./position.ts";
import { RiskBook } from "./risk-book.ts";
import { usdt } from "./scales.ts";

const SYMBOLS = ["BTCUSDT", "DOGEUSDT"] as const;
const START_MARKS: Record<string, number> = { BTCUSDT: 600_000, DOGEUSDT: 22_000 };
const ACCOUNTS = [1, 2, 3] as const;
const MARGIN_ASSETS = ["USDT", "BTC"] as const;
/** 2 % a day: steep enough that interest alone drives accounts to forced liquidation within the run. */
const STEEP_RATES = { USDT: 2_000_000n, BTC: 2_000_000n };

interface AccountSetup {
  readonly marginMode: MarginMode;
  readonly hedge: boolean;
  readonly leverage: number;
  /** Opening futures wallet and margin account deposits (whole USDT). */
  readonly futures: number;
  readonly margin: number;
}

type Op =
  | { t: "deposit"; acct: number; amount: number }
  | {
      t: "fill";
      acct: number;
      sym: number;
      buy: boolean;
      lots: number;
      offsetPermille: number;
      reduceOnly: boolean;
      leg: boolean;
    }
  | { t: "mark"; sym: number; pct: number }
  | { t: "funding"; sym: number; rate: number }
  | { t: "marginIn"; acct: number; amount: number }
  | { t: "borrow"; acct: number; asset: number; permille: number }
  | { t: "repay"; acct: number; asset: number; permille: number }
  | { t: "interest"; hours: number }
  | { t: "marginOut"; acct: number; permille: number };

const acct = fc.constantFrom(...ACCOUNTS);
const sym = fc.integer({ min: 0, max: SYMBOLS.length - 1 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant("deposit" as const), acct, amount: fc.integer({ min: 50, max: 20_000 }) }),
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("fill" as const),
      acct,
      sym,
      buy: fc.boolean(),
      lots: fc.integer({ min: 1, max: 3_000 }),
      offsetPermille: fc.integer({ min: -20, max: 20 }),
      reduceOnly: fc.boolean(),
      leg: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant("mark" as const), sym, pct: fc.integer({ min: -30, max: 30 }) }),
  },
  fc.record({ t: fc.constant("funding" as const), sym, rate: fc.integer({ min: -400_000, max: 400_000 }) }),
  fc.record({ t: fc.constant("marginIn" as const), acct, amount: fc.integer({ min: 10, max: 5_000 }) }),
  fc.record({
    t: fc.constant("borrow" as const),
    acct,
    asset: fc.integer({ min: 0, max: 1 }),
    permille: fc.integer({ min: 1, max: 1_000 }),
  }),
  fc.record({
    t: fc.constant("repay" as const),
    acct,
    asset: fc.integer({ min: 0, max: 1 }),
    permille: fc.integer({ min: 1, max: 1_000 }),
  }),
  fc.record({ t: fc.constant("interest" as const), hours: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ t: fc.constant("marginOut" as const), acct, permille: fc.integer({ min: 1, max: 1_000 }) }),
);

const setupArb: fc.Arbitrary<AccountSetup> = fc.record({
  marginMode: fc.constantFrom<MarginMode>("cross", "isolated"),
  hedge: fc.boolean(),
  leverage: fc.integer({ min: 1, max: 75 }),
  futures: fc.integer({ min: 0, max: 20_000 }),
  margin: fc.integer({ min: 0, max: 5_000 }),
});

/** The futures and margin services' accounting in miniature: state beside a real Ledger. */
class Sim {
  readonly ledger = new Ledger();
  readonly marks = new Map<string, number>(Object.entries(START_MARKS));
  readonly positions = new Map<string, PerpPosition>();
  readonly ids = new Map<string, number>();
  readonly book = new RiskBook(16);
  readonly margin = new Map<number, MarginAccount>();
  liquidations = 0;
  forced = 0;
  readonly setups: readonly AccountSetup[];

  constructor(setups: readonly AccountSetup[]) {
    this.setups = setups;
    for (const [s, t] of this.marks) this.book.setMark(s, t);
    for (const a of ACCOUNTS) {
      this.margin.set(a, { accountId: a, mode: "cross", assets: new Map(), loans: new Map() });
      const s = this.setup(a);
      if (s.futures > 0) this.run({ t: "deposit", acct: a, amount: s.futures });
      if (s.margin > 0) this.run({ t: "marginIn", acct: a, amount: s.margin });
    }
  }

  /** Entries the user asked for: the ledger may refuse them (then nothing changes). */
  tryApply(entry: JournalEntry | null): boolean {
    return entry === null || this.ledger.apply(entry) === null;
  }

  /** Entries the rules impose (funding, liquidation, interest): never refused. */
  mustApply(entry: JournalEntry | null): void {
    if (entry === null) return;
    expect(this.ledger.apply(entry)).toBeNull();
  }

  setup(a: number): AccountSetup {
    const s = this.setups[a - 1];
    if (s === undefined) throw new Error("no setup");
    return s;
  }

  key(a: number, symbol: string, side: PositionSide): string {
    return `${a}:${symbol}:${side}`;
  }

  position(a: number, symbol: string, side: PositionSide): PerpPosition {
    const s = this.setup(a);
    return (
      this.positions.get(this.key(a, symbol, side)) ??
      flatPosition({
        accountId: a,
        symbol,
        positionSide: side,
        marginMode: s.marginMode,
        leverage: s.leverage,
      })
    );
  }

  store(p: PerpPosition): void {
    const k = this.key(p.accountId, p.symbol, p.positionSide);
    let id = this.ids.get(k);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(k, id);
    }
    if (p.lots === 0) this.positions.delete(k);
    else this.positions.set(k, p);
    this.book.setPosition(id, p);
  }

  accountsView(): FuturesAccount[] {
    return ACCOUNTS.map((a) => ({
      accountId: a,
      wallet: this.ledger.balance(futuresWalletOf(a), "USDT"),
      positions: [...this.positions.values()].filter((p) => p.accountId === a),
    }));
  }

  syncWallets(): void {
    for (const a of ACCOUNTS) this.book.setWallet(a, this.ledger.balance(futuresWalletOf(a), "USDT"));
  }

  prices(): Map<string, bigint> {
    // BTC margin price follows the BTCUSDT mark (ticks of 0.1 USDT -> minor units).
    return new Map([["BTC", BigInt(this.marks.get("BTCUSDT") ?? 1) * 10_000_000n]]);
  }

  run(op: Op): void {
    switch (op.t) {
      case "deposit": {
        const amount = usdt(op.amount);
        this.mustApply(mintEntry(EntryKind.TopUp, op.acct, [{ asset: "USDT", amount }]));
        this.mustApply(futuresTransferEntry(op.acct, amount));
        break;
      }
      case "fill": {
        const symbol = SYMBOLS[op.sym] ?? "BTCUSDT";
        const c = requirePerp(symbol);
        const s = this.setup(op.acct);
        const side: PositionSide = s.hedge ? (op.leg ? "LONG" : "SHORT") : "BOTH";
        const pos = this.position(op.acct, symbol, side);
        const mark = this.marks.get(symbol) ?? 1;
        const price = Math.max(1, Math.round((mark * (1000 + op.offsetPermille)) / 1000));
        const r = applyFill(c, pos, {
          side: op.buy ? "buy" : "sell",
          lots: op.lots,
          priceTicks: price,
          feePpm: 500,
          reduceOnly: op.reduceOnly,
        });
        if (!r.ok) return;
        if (r.value.openedLots > 0 && pos.marginMode === "cross") {
          // The service's pre-trade check: the cross account must afford the new margin and fee.
          const others = [...this.positions.values()].filter((p) => p.accountId === op.acct);
          const summary = crossSummary(
            this.ledger.balance(futuresWalletOf(op.acct), "USDT"),
            others,
            this.marks,
          );
          const need = initialMargin(notionalAt(c, r.value.openedLots, price), pos.leverage) + r.value.fee;
          if (summary.available < need) return;
        }
        if (!this.tryApply(r.value.entry)) return;
        this.store(r.value.position);
        break;
      }
      case "mark": {
        const symbol = SYMBOLS[op.sym] ?? "BTCUSDT";
        const mark = this.marks.get(symbol) ?? 1;
        const next = Math.max(1, Math.round((mark * (100 + op.pct)) / 100));
        this.marks.set(symbol, next);
        this.book.setMark(symbol, next);
        this.liquidate();
        this.marginLiquidations();
        break;
      }
      case "funding": {
        const symbol = SYMBOLS[op.sym] ?? "BTCUSDT";
        const c = requirePerp(symbol);
        const open = [...this.positions.values()].filter((p) => p.symbol === symbol);
        const r = settleFunding(c, open, this.marks.get(symbol) ?? 1, BigInt(op.rate), (p) =>
          this.ledger.balance(
            p.marginMode === "isolated"
              ? isolatedMarginOf(p.accountId, p.symbol, p.positionSide)
              : futuresWalletOf(p.accountId),
            "USDT",
          ),
        );
        this.mustApply(r.entry);
        for (const p of r.positions) this.store(p);
        // Funding out of margin can breach maintenance: the next risk pass sees it.
        this.liquidate();
        break;
      }
      case "marginIn": {
        const a = this.marginOf(op.acct);
        const amount = usdt(op.amount);
        this.mustApply(mintEntry(EntryKind.TopUp, op.acct, [{ asset: "USDT", amount }]));
        const step = transferIn(a, "USDT", amount);
        this.mustApply(step.entry);
        this.margin.set(op.acct, step.account);
        break;
      }
      case "borrow": {
        const a = this.marginOf(op.acct);
        const asset = MARGIN_ASSETS[op.asset] ?? "USDT";
        const amount = (maxBorrowable(a, asset, this.prices()) * BigInt(op.permille)) / 1000n;
        const r = borrow(a, asset, amount, this.prices());
        if (!r.ok) return;
        this.mustApply(r.value.entry);
        this.margin.set(op.acct, r.value.account);
        break;
      }
      case "repay": {
        const a = this.marginOf(op.acct);
        const asset = MARGIN_ASSETS[op.asset] ?? "USDT";
        const loan = a.loans.get(asset);
        const have = a.assets.get(asset) ?? 0n;
        if (loan === undefined) return;
        const owed = loan.principal + loan.interest;
        const amount = ((owed < have ? owed : have) * BigInt(op.permille)) / 1000n;
        const r = repay(a, asset, amount);
        if (!r.ok) return;
        this.mustApply(r.value.entry);
        this.margin.set(op.acct, r.value.account);
        break;
      }
      case "interest": {
        for (const a of ACCOUNTS) {
          let m = this.marginOf(a);
          for (let h = 0; h < op.hours; h++) {
            const r = accrueInterest(m, STEEP_RATES);
            this.mustApply(r.entry);
            m = r.account;
          }
          this.margin.set(a, m);
        }
        this.marginLiquidations();
        break;
      }
      case "marginOut": {
        const a = this.marginOf(op.acct);
        const amount = ((a.assets.get("USDT") ?? 0n) * BigInt(op.permille)) / 1000n;
        const r = transferOut(a, "USDT", amount, this.prices());
        if (!r.ok) return;
        this.mustApply(r.value.entry);
        this.margin.set(op.acct, r.value.account);
        break;
      }
    }
  }

  marginOf(a: number): MarginAccount {
    const m = this.margin.get(a);
    if (m === undefined) throw new Error("no margin account");
    return m;
  }

  liquidate(): void {
    this.syncWallets();
    const pass = this.book.pass();
    const exact = decideLiquidations(this.accountsView(), this.marks);
    // The typed-array pass finds exactly what the bigint rule finds.
    expect(new Set(pass.crossAccounts)).toEqual(
      new Set(exact.filter((d) => d.cross).map((d) => d.accountId)),
    );
    const exactIsolated = exact.flatMap((d) =>
      d.isolated.map((p) => this.ids.get(this.key(p.accountId, p.symbol, p.positionSide))),
    );
    expect(new Set(pass.isolated)).toEqual(new Set(exactIsolated));
    const { outcomes } = runLiquidations(this.accountsView(), this.marks);
    for (const o of outcomes) {
      this.mustApply(o.entry);
      for (const c of o.closed) {
        this.liquidations++;
        this.store({ ...c.position, lots: 0, cost: 0n, isolatedMargin: 0n });
      }
    }
    expect(decideLiquidations(this.accountsView(), this.marks)).toEqual([]);
  }

  marginLiquidations(): void {
    for (const a of ACCOUNTS) {
      const m = this.marginOf(a);
      if (!needsForcedLiquidation(m, this.prices())) continue;
      const r = forcedLiquidation(m, this.prices());
      this.forced++;
      this.mustApply(r.entry);
      this.margin.set(a, r.account);
    }
  }

  checkInvariants(): void {
    const assets = new Set<string>();
    for (const [account, balances] of this.ledger.entries()) {
      for (const [asset, amount] of balances) {
        assets.add(asset);
        if (account.startsWith("user:")) expect(amount).toBeGreaterThanOrEqual(0n);
      }
    }
    for (const asset of assets) expect(this.ledger.total(asset)).toBe(0n);
    // Isolated margin in the positions equals the ledger's isolated accounts.
    for (const a of ACCOUNTS) {
      for (const symbol of SYMBOLS) {
        for (const side of ["BOTH", "LONG", "SHORT"] as const) {
          const p = this.positions.get(this.key(a, symbol, side));
          const held = this.ledger.balance(isolatedMarginOf(a, symbol, side), "USDT");
          expect(held).toBe(p?.marginMode === "isolated" ? p.isolatedMargin : 0n);
        }
      }
    }
    // The lending pool is minus every outstanding debt; margin accounts match the ledger.
    for (const asset of MARGIN_ASSETS) {
      let owed = 0n;
      for (const m of this.margin.values()) {
        const l = m.loans.get(asset);
        if (l !== undefined) owed += l.principal + l.interest;
        expect(this.ledger.balance(crossMarginOf(m.accountId), asset)).toBe(m.assets.get(asset) ?? 0n);
      }
      expect(this.ledger.balance(DerivativesAccount.Lending, asset)).toBe(-owed);
    }
  }
}

describe("derivatives accounting (property)", () => {
  it("keeps every asset summing to zero and no user balance below zero, whatever happens", () => {
    let liquidations = 0;
    let marginLiquidations = 0;
    fc.assert(
      fc.property(
        fc.array(setupArb, { minLength: 3, maxLength: 3 }),
        fc.array(opArb, { minLength: 10, maxLength: 80 }),
        (setups, ops) => {
          const sim = new Sim(setups);
          for (const op of ops) {
            sim.run(op);
            sim.checkInvariants();
          }
          liquidations += sim.liquidations;
          marginLiquidations += sim.forced;
        },
      ),
      { numRuns: 200 },
    );
    // The generator must actually reach liquidations for the property to mean anything.
    expect(liquidations).toBeGreaterThan(0);
    expect(marginLiquidations).toBeGreaterThan(0);
  });
});
