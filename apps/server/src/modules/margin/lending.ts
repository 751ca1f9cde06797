import {
  type BorrowRepayBody,
  type MarginAccountModeValue,
  type MarginAccountView,
  MarginCode,
} from "@meridian/contracts";
import { accrueInterest, borrow, repay } from "@meridian/domain";
import type { PaperTx } from "../paper/index.ts";
import { fail, type MarginAccounts, type Scope } from "./accounts.ts";
import { maxAmount } from "./present.ts";
import type { MarginWrites } from "./repo.ts";

/**
 * After downtime, at most this many missed intervals are charged at once (one day at the
 * default hour); older ones are forgiven. The clock row moves in the same commit as the
 * charges, so a restart never charges an interval twice.
 */
export const MAX_INTEREST_CATCH_UP = 24;

/** A borrow or repay: the asset and amount, in the cross account or an isolated one. */
type LoanBody = BorrowRepayBody & { mode: MarginAccountModeValue };

/**
 * Loans: borrowing, repaying (interest first) and the interest charge. Every change
 * posts its entry, sets the loans and writes a record in the same command.
 *
 * Interest: on every boundary of the interval (epoch-aligned), each loan is charged one
 * interval at its asset's hourly rate on the principal (a loan taken mid-interval pays
 * the whole interval, as Binance charges the hour started). Missed boundaries are caught
 * up, at most MAX_INTEREST_CATCH_UP of them.
 */
export class MarginLending {
  private readonly accounts: MarginAccounts;
  private readonly now: () => number;
  private readonly intervalMs: number;

  constructor(accounts: MarginAccounts, now: () => number, intervalMs: number) {
    this.accounts = accounts;
    this.now = now;
    this.intervalMs = intervalMs;
  }

  borrow(accountId: number, body: LoanBody): Promise<MarginAccountView> {
    return this.command(accountId, body, (tx, w, scope, amount) =>
      this.doBorrow(tx, w, scope, body.asset, amount),
    );
  }

  repay(accountId: number, body: LoanBody): Promise<MarginAccountView> {
    return this.command(accountId, body, (tx, w, scope, amount) =>
      this.doRepay(tx, w, scope, body.asset, amount),
    );
  }

  /** Checks a borrow or repay body, runs `fn` in the writer, answers the account's view after it. */
  private async command(
    accountId: number,
    body: LoanBody,
    fn: (tx: PaperTx, w: MarginWrites, scope: Scope, amount: bigint) => void,
  ): Promise<MarginAccountView> {
    const a = this.accounts;
    const scope = a.scope(accountId, body.mode, body.symbol);
    a.checkAsset(scope, body.asset);
    const amount = a.amountOf(body.asset, body.amount);
    await a.exec((tx, w) => fn(tx, w, scope, amount));
    return a.view(scope);
  }

  /** Borrows `amount` of `asset` into the scope, within what its margin level allows. */
  doBorrow(tx: PaperTx, w: MarginWrites, scope: Scope, asset: string, amount: bigint): void {
    const accounts = this.accounts;
    const r = borrow(accounts.accountOf(scope, tx.ledger), asset, amount, accounts.prices());
    if (!r.ok) {
      const max = BigInt(r.error.params.max ?? "0");
      throw fail(MarginCode.BORROW_EXCEEDS_MAX, "More than the margin level allows", {
        asset,
        max: maxAmount(asset, max).amount,
      });
    }
    accounts.post(tx, r.value.entry, scope.accountId);
    accounts.setLoans(scope, r.value.account.loans, w);
    accounts.record(w, scope, "BORROW", asset, amount);
    accounts.openIsolated(scope, w);
  }

  /** Repays `amount` (interest first) and records the parts. */
  doRepay(tx: PaperTx, w: MarginWrites, scope: Scope, asset: string, amount: bigint): void {
    const accounts = this.accounts;
    const a = accounts.accountOf(scope, tx.ledger);
    const r = repay(a, asset, amount);
    if (!r.ok) {
      const loan = a.loans.get(asset);
      throw fail(MarginCode.REPAY_INVALID, "Nothing owed, more than owed, or more than the free balance", {
        asset,
        owed: maxAmount(asset, loan === undefined ? 0n : loan.principal + loan.interest).amount,
        balance: maxAmount(asset, a.assets.get(asset) ?? 0n).amount,
      });
    }
    const before = a.loans.get(asset) ?? { principal: 0n, interest: 0n };
    const after = r.value.account.loans.get(asset) ?? { principal: 0n, interest: 0n };
    accounts.post(tx, r.value.entry, scope.accountId);
    accounts.setLoans(scope, r.value.account.loans, w);
    accounts.record(w, scope, "REPAY", asset, amount, {
      interest: before.interest - after.interest,
      principal: before.principal - after.principal,
    });
  }

  /** Milliseconds until just after the next interval boundary (when `accrueDue` next has work). */
  nextBoundaryIn(): number {
    const i = this.intervalMs;
    return Math.max(0, (Math.floor(this.now() / i) + 1) * i - this.now());
  }

  /**
   * Charges every interval boundary passed since the last charge (at most
   * MAX_INTEREST_CATCH_UP); the first run only sets the clock. Returns the intervals charged.
   */
  accrueDue(): Promise<number> {
    const accounts = this.accounts;
    return accounts.exec((tx, w) => {
      const i = this.intervalMs;
      const boundary = Math.floor(this.now() / i) * i;
      if (accounts.interestAt === null) {
        accounts.interestAt = boundary;
        w.interestAt = boundary;
        return 0;
      }
      const due = Math.floor((boundary - accounts.interestAt) / i);
      if (due <= 0) return 0;
      const n = Math.min(due, MAX_INTEREST_CATCH_UP);
      for (const e of accounts.debtors()) {
        const scope = e.scope;
        const totals = new Map<string, bigint>();
        for (let k = 0; k < n; k++) {
          const r = accrueInterest(accounts.accountOf(scope, tx.ledger));
          if (r.entry === null) break;
          accounts.post(tx, r.entry, scope.accountId);
          for (const p of r.entry.postings)
            if (p.amount > 0n) totals.set(p.asset, (totals.get(p.asset) ?? 0n) + p.amount);
          accounts.setLoans(scope, r.account.loans, w);
        }
        for (const [asset, x] of totals) accounts.record(w, scope, "INTEREST", asset, x, { interest: x });
      }
      accounts.interestAt = boundary;
      w.interestAt = boundary;
      return n;
    });
  }
}
