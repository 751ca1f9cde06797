import {
  Code,
  type MarginAccountModeValue,
  type MarginAccountView,
  MarginCode,
  type MarginRecordType,
  type MarginStreamPush,
} from "@meridian/contracts";
import {
  type AssetPrices,
  type JournalEntry,
  type Loan,
  type MarginAccount,
  marginWalletOf,
  toMinor,
} from "@meridian/domain";
import { AppError, errors } from "../../platform/errors.ts";
import { type ClientOrderRef, type LedgerWriter, queuedBatchWriter } from "../ledger/index.ts";
import type { PaperTx, Placement, SpotForMargin } from "../paper/index.ts";
import type { MarginMarkets } from "./markets.ts";
import { presentAccount } from "./present.ts";
import {
  emptyWrites,
  type LoanRow,
  type MarginRepo,
  type MarginState,
  type MarginWrites,
  writesEmpty,
} from "./repo.ts";

export const USDT = "USDT";

/** Which margin account: cross (`symbol` null) or the isolated account of `symbol`. */
export interface Scope {
  accountId: number;
  mode: MarginAccountModeValue;
  symbol: string | null;
}

/** One account with debt, and its loans by asset. */
export interface Debtor {
  scope: Scope;
  loans: Map<string, Loan>;
}

export const keyOf = (s: Scope): string => `${s.accountId}|${s.symbol ?? ""}`;
export const walletOf = (s: Scope) => marginWalletOf(s.accountId, s.symbol ?? undefined);

/** A refusal answered with HTTP 200 and the margin code (Binance's habit). */
export function fail(code: string, msg: string, data?: unknown): AppError {
  return new AppError(code, msg, { status: 200, ...(data === undefined ? {} : { data }) });
}

/** A command in the paper writer with its margin rows, as `MarginAccounts.exec` runs it. */
export type MarginCommand<T> = (tx: PaperTx, w: MarginWrites) => T;

export interface MarginAccountsOptions {
  ledger: LedgerWriter;
  spot: SpotForMargin;
  markets: MarginMarkets;
  repo: MarginRepo;
  now: () => number;
  onError: (error: unknown, msg: string) => void;
}

/**
 * The margin accounts in memory and the one way they change: loans per account, the
 * isolated accounts opened, the record ids and the interest clock, loaded from the
 * database and kept by commands run in the paper writer (`exec`), whose margin rows
 * (`MarginWrites`) join the same group commit. Also the account views and their pushes:
 * every account a command touched is marked dirty and pushed once it has committed.
 */
export class MarginAccounts {
  /** The last interest boundary charged; null before the first run. */
  interestAt: number | null = null;
  private readonly ledger: LedgerWriter;
  private readonly spot: SpotForMargin;
  private readonly markets: MarginMarkets;
  private readonly repo: MarginRepo;
  private readonly now: () => number;
  private readonly onError: (error: unknown, msg: string) => void;
  private loans = new Map<string, Debtor>();
  private isolated = new Map<number, Set<string>>();
  private recordId = 0;
  private readonly dirty = new Map<string, Scope>();
  private readonly lastLevelPush = new Map<string, number>();
  /** The margin rows since the last commit: the margin batch writer's batch. */
  /** Queues a command's rows for the next commit (the ledger's batch writer "margin"). */
  private readonly queueWrites: (writes: MarginWrites, now: number) => void;

  constructor(o: MarginAccountsOptions) {
    this.ledger = o.ledger;
    const batches = queuedBatchWriter<MarginWrites>("margin", (tx, writes, now) =>
      this.repo.write(tx, writes, now),
    );
    this.queueWrites = batches.push;
    o.ledger.register(batches.writer);
    this.spot = o.spot;
    this.markets = o.markets;
    this.repo = o.repo;
    this.now = o.now;
    this.onError = o.onError;
  }

  load(s: MarginState): void {
    this.loans = new Map();
    for (const l of s.loans) {
      const scope: Scope = {
        accountId: l.accountId,
        mode: l.symbol === "" ? "cross" : "isolated",
        symbol: l.symbol === "" ? null : l.symbol,
      };
      this.loanMap(scope).set(l.asset, { principal: l.principal, interest: l.interest });
    }
    this.isolated = new Map();
    for (const i of s.isolated) this.isolatedOf(i.accountId).add(i.symbol);
    this.recordId = s.maxRecordId;
    this.interestAt = s.interestAt;
  }

  private loanMap(scope: Scope): Map<string, Loan> {
    const key = keyOf(scope);
    let e = this.loans.get(key);
    if (e === undefined) {
      e = { scope, loans: new Map() };
      this.loans.set(key, e);
    }
    return e.loans;
  }

  private isolatedOf(accountId: number): Set<string> {
    let set = this.isolated.get(accountId);
    if (set === undefined) {
      set = new Set();
      this.isolated.set(accountId, set);
    }
    return set;
  }

  /** Every account with debt (a copy: a command may change the loans while it walks them). */
  debtors(): Debtor[] {
    return [...this.loans.values()];
  }

  hasDebt(): boolean {
    return this.loans.size > 0;
  }

  /** The symbols of the isolated accounts an account has opened or owes in. */
  isolatedSymbols(accountId: number): Set<string> {
    const symbols = new Set(this.isolated.get(accountId) ?? []);
    for (const e of this.loans.values())
      if (e.scope.accountId === accountId && e.scope.symbol !== null) symbols.add(e.scope.symbol);
    return symbols;
  }

  prices(): AssetPrices {
    return this.markets.prices();
  }

  // ---- scopes and checks ---------------------------------------------------------------

  /** Checks a scope (isolated: a marginable pair) and returns it. */
  scope(accountId: number, mode: MarginAccountModeValue, symbol?: string): Scope {
    if (mode === "cross") return { accountId, mode, symbol: null };
    const s = symbol ?? "";
    if (this.markets.pairOf(s) === undefined)
      throw fail(MarginCode.UNKNOWN_PAIR, `${s} is not tradable on margin`);
    return { accountId, mode, symbol: s };
  }

  /** Assets the scope may carry: every marginable asset (cross) or the pair's two. */
  private allowedAssets(scope: Scope): Set<string> {
    if (scope.symbol === null) return this.markets.assets();
    const p = this.markets.pairOf(scope.symbol);
    return new Set(p === undefined ? [] : [p.base, p.quote]);
  }

  checkAsset(scope: Scope, asset: string): void {
    if (!this.allowedAssets(scope).has(asset)) {
      throw fail(
        MarginCode.ASSET_NOT_ALLOWED,
        scope.symbol === null
          ? `${asset} cannot be held in the cross margin account`
          : `The ${scope.symbol} isolated account carries ${[...this.allowedAssets(scope)].join(" and ")} only`,
        { asset, symbol: scope.symbol },
      );
    }
  }

  amountOf(asset: string, text: string, field = "amount"): bigint {
    const minor = toMinor(asset, text);
    if (minor === null || minor <= 0n)
      throw errors.validation([
        { field, rule: "amount", message: `a positive amount of ${asset} at its precision` },
      ]);
    return minor;
  }

  /** The domain's view of one account from the ledger (free and held) and the loans. */
  accountOf(scope: Scope, ledger?: PaperTx["ledger"]): MarginAccount {
    const w = walletOf(scope);
    const balances = (account: string) =>
      ledger === undefined ? this.ledger.ledgerBalances(account) : ledger.balancesOf(account);
    return {
      accountId: scope.accountId,
      mode: scope.mode,
      ...(scope.symbol === null ? {} : { pair: scope.symbol }),
      assets: new Map(balances(w.available)),
      locked: new Map(balances(w.held)),
      loans: new Map(this.loans.get(keyOf(scope))?.loans ?? []),
    };
  }

  view(scope: Scope): MarginAccountView {
    const a = this.accountOf(scope);
    const pair = scope.symbol === null ? undefined : this.markets.pairOf(scope.symbol);
    return presentAccount(
      a,
      this.prices(),
      pair === undefined ? [USDT] : [pair.base, pair.quote],
      pair?.base ?? null,
    );
  }

  // ---- the writer ------------------------------------------------------------------------

  /** Runs a command in the paper writer; its margin rows join the same commit. */
  async exec<T>(fn: MarginCommand<T>): Promise<T> {
    const value = await this.spot.transact((tx) => this.withWrites(tx, fn));
    this.pushDirty();
    return value;
  }

  /** `exec` for a placement: with a client order id already stored, `fn` never runs (SpotForMargin.transactPlacement). */
  async execPlacement<T>(cid: ClientOrderRef | null, fn: MarginCommand<T>): Promise<Placement<T>> {
    const placed = await this.spot.transactPlacement(cid, (tx) => this.withWrites(tx, fn));
    this.pushDirty();
    return placed;
  }

  private withWrites<T>(tx: PaperTx, fn: MarginCommand<T>): T {
    const w = emptyWrites();
    try {
      return fn(tx, w);
    } finally {
      // Whatever was posted before a refusal commits, so its rows must too.
      this.flushWrites(w);
    }
  }

  /**
   * Adds the margin rows of `w` to the current group commit (also for work inside
   * another module's command, or a fill between commands: then a commit is asked for).
   */
  flushWrites(w: MarginWrites): void {
    if (writesEmpty(w)) return;
    this.queueWrites(w, this.now());
    this.ledger.changed();
  }

  post(tx: PaperTx, entry: JournalEntry | null, accountId: number | null): void {
    if (entry === null) return;
    const refusal = tx.post(entry, accountId);
    if (refusal !== null) {
      // Every margin entry is checked against the same ledger just before; a refusal is a bug.
      throw new AppError(Code.INTERNAL, `margin entry refused: ${refusal.code} ${refusal.account}`, {
        status: 500,
      });
    }
  }

  setLoans(scope: Scope, loans: ReadonlyMap<string, Loan>, w: MarginWrites): void {
    const map = this.loanMap(scope);
    const assets = new Set([...map.keys(), ...loans.keys()]);
    for (const asset of assets) {
      const l = loans.get(asset) ?? { principal: 0n, interest: 0n };
      const row: LoanRow = {
        accountId: scope.accountId,
        symbol: scope.symbol ?? "",
        asset,
        principal: l.principal,
        interest: l.interest,
      };
      const before = map.get(asset);
      if (before?.principal === l.principal && before.interest === l.interest) continue;
      w.loans.set(`${keyOf(scope)}|${asset}`, row);
      if (l.principal === 0n && l.interest === 0n) map.delete(asset);
      else map.set(asset, l);
    }
    if (map.size === 0) this.loans.delete(keyOf(scope));
    this.touch(scope);
  }

  record(
    w: MarginWrites,
    scope: Scope,
    type: MarginRecordType,
    asset: string,
    amount: bigint,
    parts: { interest?: bigint; principal?: bigint } = {},
  ): number {
    const id = ++this.recordId;
    w.records.push({
      id,
      accountId: scope.accountId,
      type,
      mode: scope.mode,
      symbol: scope.symbol,
      asset,
      amount,
      interest: parts.interest ?? null,
      principal: parts.principal ?? null,
      createdAt: this.now(),
    });
    this.touch(scope);
    return id;
  }

  openIsolated(scope: Scope, w: MarginWrites): void {
    if (scope.symbol === null) return;
    const set = this.isolatedOf(scope.accountId);
    if (set.has(scope.symbol)) return;
    set.add(scope.symbol);
    w.isolated.push({ accountId: scope.accountId, symbol: scope.symbol });
  }

  // ---- account pushes ----------------------------------------------------------------------

  /** Marks an account changed: its view is pushed after the command commits. */
  touch(scope: Scope): void {
    this.dirty.set(keyOf(scope), scope);
  }

  /**
   * Pushes the view of every indebted account not already pushed by its command and not
   * pushed in the last `throttleMs` (the price-driven level pushes).
   */
  pushLevels(throttleMs: number): void {
    const now = this.now();
    for (const e of this.loans.values()) {
      const key = keyOf(e.scope);
      if (this.dirty.has(key)) continue;
      if (now - (this.lastLevelPush.get(key) ?? 0) < throttleMs) continue;
      this.lastLevelPush.set(key, now);
      this.pushView(e.scope);
    }
  }

  private pushView(scope: Scope): void {
    try {
      const push: MarginStreamPush = { event: "margin", data: this.view(scope) };
      this.ledger.push(scope.accountId, [push]);
    } catch (error) {
      this.onError(error, "margin push failed");
    }
  }

  /** Pushes the account view of every account changed since the last push. */
  pushDirty(): void {
    if (this.dirty.size === 0) return;
    const scopes = [...this.dirty.values()];
    this.dirty.clear();
    for (const s of scopes) {
      this.lastLevelPush.set(keyOf(s), this.now());
      this.pushView(s);
    }
  }
}
