import {
  type BorrowRepayBody,
  Code,
  type MarginAccountModeValue,
  type MarginAccountView,
  MarginCode,
  type MarginOrder,
  type MarginOrderBody,
  type MarginPairs,
  type MarginPlaceResult,
  type MarginRecord,
  type MarginRecordType,
  type MarginStreamPush,
  type MarginTrade,
  type MaxAmount,
  PaperCode,
  type PlaceOrderBody,
  type WalletTransferBody,
  type WalletTransferResult,
  type WalletValue,
} from "@meridian/contracts";
import {
  type AssetPrices,
  accrueInterest,
  availableOf,
  borrow,
  forcedLiquidation,
  futuresWalletOf,
  type JournalEntry,
  type Loan,
  type MarginAccount,
  marginWalletOf,
  maxBorrowable,
  maxTransferOut,
  needsForcedLiquidation,
  pairUnits,
  repay,
  subTransferEntry,
  toMinor,
  walletTransferEntry,
} from "@meridian/domain";
import { AppError, errors } from "../../platform/errors.ts";
import { type FuturesService, type RecordTransfer, WalletTransferIds } from "../futures/index.ts";
import type { ClientOrderRef, LedgerTx, LedgerWriter } from "../ledger/index.ts";
import type { PaperTx, SpotForMargin } from "../paper/index.ts";
import {
  clientIdInUse,
  type OrderRow,
  type OrderWallet,
  type Placement,
  rejected,
  type TradeRow,
} from "../paper/index.ts";
import { MarginMarkets } from "./markets.ts";
import { maxAmount, presentAccount, presentOrder, presentRecord, presentTrade } from "./present.ts";
import {
  emptyWrites,
  type LoanRow,
  type MarginRepo,
  type MarginWrites,
  type RecordQuery,
  writesEmpty,
} from "./repo.ts";

/** Default interest interval: Binance charges margin interest every hour. */
export const MARGIN_INTEREST_INTERVAL_MS = 3_600_000;
/**
 * After downtime, at most this many missed intervals are charged at once (one day at the
 * default hour); older ones are forgiven. The clock row moves in the same commit as the
 * charges, so a restart never charges an interval twice.
 */
export const MAX_INTEREST_CATCH_UP = 24;
/** Price-driven level pushes: at most one per account per second. */
const LEVEL_PUSH_MS = 1_000;
const USDT = "USDT";

/** Which margin account: cross (`symbol` null) or the isolated account of `symbol`. */
export interface Scope {
  accountId: number;
  mode: MarginAccountModeValue;
  symbol: string | null;
}

const keyOf = (s: Scope): string => `${s.accountId}|${s.symbol ?? ""}`;
const walletOf = (s: Scope) => marginWalletOf(s.accountId, s.symbol ?? undefined);

function fail(code: string, msg: string, data?: unknown): AppError {
  return new AppError(code, msg, { status: 200, ...(data === undefined ? {} : { data }) });
}

export interface MarginServiceOptions {
  /** The ledger writer: balances, the group commit, user pushes (`modules/ledger`). */
  ledger: LedgerWriter;
  /** The spot books and engine margin orders trade in, and their committed rows. */
  spot: SpotForMargin;
  repo: MarginRepo;
  /** For FUTURES transfers (absent: FUTURES is refused). */
  futures?: FuturesService | undefined;
  now?: () => number;
  interestIntervalMs?: number;
  onError?: (error: unknown, msg: string) => void;
}

/**
 * Cross and isolated margin on paper. Balances are paper ledger accounts (the cross
 * account, one per isolated pair, `:held` beside each for open margin orders); loans,
 * records and the interest clock are kept here and written in the paper writer's group
 * commit with the entries that change them. Margin orders are paper orders with a
 * margin wallet, matched in the same books.
 *
 * Interest: on every boundary of the interval (epoch-aligned), each loan is charged one
 * interval at its asset's hourly rate on the principal (a loan taken mid-interval pays
 * the whole interval, as Binance charges the hour started). Missed boundaries are caught
 * up at start, at most MAX_INTEREST_CATCH_UP of them.
 *
 * Liquidation: when a price moves, every account with debt is valued again; below 1.1
 * its open margin orders are cancelled and `forcedLiquidation` sells everything to the
 * maker, repays every loan and settles with the insurance fund.
 */
export class MarginService {
  readonly interestIntervalMs: number;
  private readonly ledger: LedgerWriter;
  private readonly spot: SpotForMargin;
  private readonly markets: MarginMarkets;
  private readonly repo: MarginRepo;
  private readonly futures: FuturesService | undefined;
  /** Transfers with a client id run once (the futures service's: one per process for both). */
  private readonly transferIds: WalletTransferIds;
  private readonly now: () => number;
  private readonly onError: (error: unknown, msg: string) => void;
  private loans = new Map<string, { scope: Scope; loans: Map<string, Loan> }>();
  private isolated = new Map<number, Set<string>>();
  private recordId = 0;
  private interestAt: number | null = null;
  private readonly lastLevelPush = new Map<string, number>();
  private readonly dirty = new Map<string, Scope>();
  private offs: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  private riskPending = false;
  private closed = false;

  constructor(o: MarginServiceOptions) {
    this.ledger = o.ledger;
    this.spot = o.spot;
    this.markets = new MarginMarkets(o.spot.venue);
    this.repo = o.repo;
    this.futures = o.futures;
    this.now = o.now ?? Date.now;
    this.transferIds = o.futures?.transferIds ?? new WalletTransferIds(o.repo.db, this.now);
    this.onError = o.onError ?? (() => {});
    this.interestIntervalMs = o.interestIntervalMs ?? MARGIN_INTEREST_INTERVAL_MS;
  }

  async start(): Promise<void> {
    await this.ledger.flush();
    this.load(await this.repo.load());
    this.spot.setMarginFillHook((order, trade, tx) => this.onFill(order, trade, tx));
    this.offs.push(
      this.spot.onEvents((e) => {
        if (e.marginOrders.length === 0 && e.marginFills.length === 0) return;
        const pushes: MarginStreamPush[] = [
          ...e.marginOrders.map((o) => ({ event: "marginOrder" as const, data: this.presentOrder(o) })),
          ...e.marginFills.map((t) => ({ event: "marginFill" as const, data: this.presentTrade(t) })),
        ];
        this.ledger.push(e.accountId, pushes);
        this.pushDirty();
      }),
      this.ledger.onRebuilt(() => {
        void this.repo
          .load()
          .then((s) => this.load(s))
          .catch((e: unknown) => this.onError(e, "margin reload failed"));
      }),
      this.spot.venue.onPrice(() => this.scheduleRisk()),
    );
    await this.accrueDue();
    this.scheduleInterest();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.spot.setMarginFillHook(null);
    for (const off of this.offs) off();
    if (this.timer !== null) clearTimeout(this.timer);
  }

  private load(s: Awaited<ReturnType<MarginRepo["load"]>>): void {
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

  // ---- pairs, prices -------------------------------------------------------------------

  /** Spot pairs quoted in USDT whose base has a borrow rate. */
  pairs(): MarginPairs {
    return this.markets.pairs();
  }

  /** USDT minor units per whole unit of each marginable asset: test pins first, else the venue's last price. */
  prices(): AssetPrices {
    return this.markets.prices();
  }

  /** Test-only: pins (or unpins) the valuation price of a pair's base, then runs the liquidation check. */
  async pinPrice(symbol: string, price: string | null): Promise<MarginPairs> {
    this.markets.pin(symbol, price);
    await this.riskPass();
    return this.pairs();
  }

  // ---- scopes and accounts ---------------------------------------------------------------

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

  private checkAsset(scope: Scope, asset: string): void {
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

  private amountOf(asset: string, text: string, field = "amount"): bigint {
    const minor = toMinor(asset, text);
    if (minor === null || minor <= 0n)
      throw errors.validation([
        { field, rule: "amount", message: `a positive amount of ${asset} at its precision` },
      ]);
    return minor;
  }

  /** The domain's view of one account from the ledger (free and held) and the loans. */
  private accountOf(scope: Scope, ledger?: PaperTx["ledger"]): MarginAccount {
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

  isolatedAccounts(accountId: number): MarginAccountView[] {
    const symbols = new Set(this.isolated.get(accountId) ?? []);
    for (const e of this.loans.values())
      if (e.scope.accountId === accountId && e.scope.symbol !== null) symbols.add(e.scope.symbol);
    return [...symbols].sort().map((symbol) => this.view({ accountId, mode: "isolated", symbol }));
  }

  maxBorrowable(scope: Scope, asset: string): MaxAmount {
    this.checkAsset(scope, asset);
    return maxAmount(asset, maxBorrowable(this.accountOf(scope), asset, this.prices()));
  }

  maxTransferable(scope: Scope, asset: string): MaxAmount {
    this.checkAsset(scope, asset);
    return maxAmount(asset, maxTransferOut(this.accountOf(scope), asset, this.prices()));
  }

  // ---- the writer ------------------------------------------------------------------------

  /** Runs a command in the paper writer; its margin rows join the same commit. */
  private async exec<T>(fn: (tx: PaperTx, w: MarginWrites) => T): Promise<T> {
    const value = await this.spot.transact((tx) => this.withWrites(tx, fn));
    this.pushDirty();
    return value;
  }

  /** `exec` for a placement: with a client order id already stored, `fn` never runs (SpotForMargin.transactPlacement). */
  private async execPlacement<T>(
    cid: ClientOrderRef | null,
    fn: (tx: PaperTx, w: MarginWrites) => T,
  ): Promise<Placement<T>> {
    const placed = await this.spot.transactPlacement(cid, (tx) => this.withWrites(tx, fn));
    this.pushDirty();
    return placed;
  }

  private withWrites<T>(tx: PaperTx, fn: (tx: PaperTx, w: MarginWrites) => T): T {
    const w = emptyWrites();
    try {
      return fn(tx, w);
    } finally {
      // Whatever was posted before a refusal commits, so its rows must too.
      this.flushWrites(tx, w);
    }
  }

  private flushWrites(tx: PaperTx, w: MarginWrites): void {
    if (writesEmpty(w)) return;
    const now = this.now();
    tx.write((db) => this.repo.write(db, w, now));
  }

  private post(tx: PaperTx, entry: JournalEntry | null, accountId: number | null): void {
    if (entry === null) return;
    const refusal = tx.post(entry, accountId);
    if (refusal !== null) {
      // Every margin entry is checked against the same ledger just before; a refusal is a bug.
      throw new AppError(Code.INTERNAL, `margin entry refused: ${refusal.code} ${refusal.account}`, {
        status: 500,
      });
    }
  }

  private setLoans(scope: Scope, loans: ReadonlyMap<string, Loan>, w: MarginWrites): void {
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
    this.dirty.set(keyOf(scope), scope);
  }

  private record(
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
    this.dirty.set(keyOf(scope), scope);
    return id;
  }

  private openIsolated(scope: Scope, w: MarginWrites): void {
    if (scope.symbol === null) return;
    const set = this.isolatedOf(scope.accountId);
    if (set.has(scope.symbol)) return;
    set.add(scope.symbol);
    w.isolated.push({ accountId: scope.accountId, symbol: scope.symbol });
  }

  // ---- borrow and repay ---------------------------------------------------------------------

  private doBorrow(tx: PaperTx, w: MarginWrites, scope: Scope, asset: string, amount: bigint): void {
    const r = borrow(this.accountOf(scope, tx.ledger), asset, amount, this.prices());
    if (!r.ok) {
      const max = BigInt(r.error.params.max ?? "0");
      throw fail(MarginCode.BORROW_EXCEEDS_MAX, "More than the margin level allows", {
        asset,
        max: maxAmount(asset, max).amount,
      });
    }
    this.post(tx, r.value.entry, scope.accountId);
    this.setLoans(scope, r.value.account.loans, w);
    this.record(w, scope, "BORROW", asset, amount);
    this.openIsolated(scope, w);
  }

  /** Repays `amount` (interest first); returns the parts. */
  private doRepay(tx: PaperTx, w: MarginWrites, scope: Scope, asset: string, amount: bigint): void {
    const a = this.accountOf(scope, tx.ledger);
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
    this.post(tx, r.value.entry, scope.accountId);
    this.setLoans(scope, r.value.account.loans, w);
    this.record(w, scope, "REPAY", asset, amount, {
      interest: before.interest - after.interest,
      principal: before.principal - after.principal,
    });
  }

  async borrow(accountId: number, body: BorrowRepayBody & { mode: MarginAccountModeValue }) {
    const scope = this.scope(accountId, body.mode, body.symbol);
    this.checkAsset(scope, body.asset);
    const amount = this.amountOf(body.asset, body.amount);
    await this.exec((tx, w) => this.doBorrow(tx, w, scope, body.asset, amount));
    return this.view(scope);
  }

  async repay(accountId: number, body: BorrowRepayBody & { mode: MarginAccountModeValue }) {
    const scope = this.scope(accountId, body.mode, body.symbol);
    this.checkAsset(scope, body.asset);
    const amount = this.amountOf(body.asset, body.amount);
    await this.exec((tx, w) => this.doRepay(tx, w, scope, body.asset, amount));
    return this.view(scope);
  }

  // ---- wallet transfer ----------------------------------------------------------------------

  /** With `clientTransferId`, made once however often it is sent (`WalletTransferIds`). */
  async transfer(accountId: number, body: WalletTransferBody): Promise<WalletTransferResult> {
    return this.transferIds.once(
      accountId,
      body.clientTransferId,
      (record) => this.transferNow(accountId, body, record),
      (stored) => ({ tranId: stored.tranId }),
    );
  }

  private async transferNow(
    accountId: number,
    body: WalletTransferBody,
    record: RecordTransfer | null,
  ): Promise<WalletTransferResult> {
    const from = body.from as WalletValue;
    const to = body.to as WalletValue;
    const asset = body.asset;
    if (from === to) throw fail(MarginCode.TRANSFER_INVALID, "From and to are the same wallet", { from, to });
    if ((from === "FUTURES" || to === "FUTURES") && asset !== USDT)
      throw fail(MarginCode.TRANSFER_INVALID, "The futures wallet carries USDT only", { asset });
    if ((from === "FUTURES" || to === "FUTURES") && this.futures === undefined)
      throw fail(MarginCode.TRANSFER_INVALID, "Futures trading is not available", { from, to });
    const scopeOf = (wallet: WalletValue): Scope | null => {
      if (wallet === "CROSS_MARGIN") return this.scope(accountId, "cross");
      if (wallet === "ISOLATED_MARGIN") return this.scope(accountId, "isolated", body.symbol);
      return null;
    };
    const src = scopeOf(from);
    const dst = scopeOf(to);
    if (src !== null) this.checkAsset(src, asset);
    if (dst !== null) this.checkAsset(dst, asset);
    if (src === null && dst === null) {
      // SPOT <-> FUTURES is the futures module's own transfer; allowed here too for one wallet screen.
      if (from !== "FUTURES" && to !== "FUTURES")
        throw fail(MarginCode.TRANSFER_INVALID, "Not a transfer between wallets", { from, to });
    }
    const amount = this.amountOf(asset, body.amount);
    const spot = availableOf(accountId);
    const futures = this.futures;
    const tranId = await this.exec((tx, w) => {
      // Check the source before anything is posted (a throw after a post would still commit it).
      if (from === "SPOT") {
        const have = tx.ledger.balance(spot, asset);
        if (amount > have)
          throw fail(MarginCode.TRANSFER_EXCEEDS, "More than the spot balance", {
            max: maxAmount(asset, have).amount,
          });
      } else if (from === "FUTURES" && futures !== undefined) {
        const free = futures.engine.available(accountId);
        const wallet = futures.engine.wallet(accountId);
        let max = free;
        if (wallet < max) max = wallet;
        if (amount > max)
          throw fail(MarginCode.TRANSFER_EXCEEDS, "More than the futures wallet can spare", {
            max: maxAmount(asset, max > 0n ? max : 0n).amount,
          });
      } else if (src !== null) {
        const max = maxTransferOut(this.accountOf(src, tx.ledger), asset, this.prices());
        if (amount > max)
          throw fail(
            MarginCode.TRANSFER_EXCEEDS,
            "Moving that much out would take the margin level below 2",
            {
              max: maxAmount(asset, max).amount,
            },
          );
      }
      // Source -> spot (FUTURES through its own engine, so its risk state follows).
      if (from === "FUTURES" && futures !== undefined)
        futures.engine.run(tx, () => futures.engine.transfer(accountId, "OUT", amount));
      else if (src !== null)
        this.post(tx, walletTransferEntry(walletOf(src).available, spot, asset, amount), accountId);
      // Spot -> destination.
      if (to === "FUTURES" && futures !== undefined)
        futures.engine.run(tx, () => futures.engine.transfer(accountId, "IN", amount));
      else if (dst !== null)
        this.post(tx, walletTransferEntry(spot, walletOf(dst).available, asset, amount), accountId);
      let id = 0;
      if (src !== null) id = this.record(w, src, "TRANSFER_OUT", asset, amount);
      if (dst !== null) {
        id = this.record(w, dst, "TRANSFER_IN", asset, amount);
        this.openIsolated(dst, w);
      }
      record?.(tx, { tranId: id, from, to, asset, amount });
      return id;
    });
    return { tranId };
  }

  /**
   * Margin account to margin account of the same kind (cross, or the same isolated pair)
   * between a master and its sub-account, within what the source may move out at its
   * margin level; `record` adds the caller's rows to the same commit.
   */
  async subTransfer(
    from: number,
    to: number,
    m: { mode: MarginAccountModeValue; symbol?: string; asset: string; amount: string },
    record: (tx: LedgerTx) => void,
  ): Promise<bigint> {
    const src = this.scope(from, m.mode, m.symbol);
    const dst = this.scope(to, m.mode, m.symbol);
    this.checkAsset(src, m.asset);
    const amount = this.amountOf(m.asset, m.amount);
    await this.exec((tx, w) => {
      const max = maxTransferOut(this.accountOf(src, tx.ledger), m.asset, this.prices());
      if (amount > max)
        throw fail(MarginCode.TRANSFER_EXCEEDS, "Moving that much out would take the margin level below 2", {
          max: maxAmount(m.asset, max > 0n ? max : 0n).amount,
        });
      this.post(
        tx,
        subTransferEntry(walletOf(src).available, walletOf(dst).available, m.asset, amount),
        from,
      );
      this.record(w, src, "TRANSFER_OUT", m.asset, amount);
      this.record(w, dst, "TRANSFER_IN", m.asset, amount);
      this.openIsolated(dst, w);
      record(tx);
    });
    return amount;
  }

  // ---- orders ---------------------------------------------------------------------------------

  async place(accountId: number, vipLevel: number, body: MarginOrderBody): Promise<MarginPlaceResult> {
    const mode = body.mode ?? "cross";
    const symbol = body.symbol.toUpperCase();
    if (this.markets.pairOf(symbol) === undefined)
      throw fail(MarginCode.UNKNOWN_PAIR, `${symbol} is not tradable on margin`);
    const scope = this.scope(accountId, mode, symbol);
    const wallet: OrderWallet = mode;
    const sideEffect = body.sideEffectType ?? "NO_SIDE_EFFECT";
    const spotBody: PlaceOrderBody = {
      symbol,
      side: body.side,
      type: body.type,
      ...(body.price === undefined ? {} : { price: body.price }),
      ...(body.quantity === undefined ? {} : { quantity: body.quantity }),
      ...(body.quoteQty === undefined ? {} : { quoteQty: body.quoteQty }),
      ...(body.stopPrice === undefined ? {} : { stopPrice: body.stopPrice }),
      ...(body.timeInForce === undefined ? {} : { timeInForce: body.timeInForce }),
      ...(body.clientOrderId === undefined ? {} : { clientOrderId: body.clientOrderId }),
    };
    const cid = body.clientOrderId === undefined ? null : { accountId, clientOrderId: body.clientOrderId };
    const placed = await this.execPlacement(cid, (tx, w) => {
      let borrowed: MaxAmount | null = null;
      const outcome = tx.place(accountId, vipLevel, spotBody, {
        wallet,
        sideEffect,
        beforeHold: (asset, held) => {
          if (sideEffect !== "MARGIN_BUY") return;
          const free = tx.ledger.balance(walletOf(scope).available, asset);
          if (held <= free) return;
          this.doBorrow(tx, w, scope, asset, held - free);
          borrowed = maxAmount(asset, held - free);
        },
      });
      this.openIsolated(scope, w);
      this.dirty.set(keyOf(scope), scope);
      return { outcome, borrowed: borrowed as MaxAmount | null };
    });
    if (placed.stored !== undefined) {
      if (placed.stored.wallet !== wallet) throw clientIdInUse();
      return this.duplicate(placed.stored);
    }
    const out = placed.ran;
    const outcome = out.outcome;
    if (outcome.kind === "duplicate") {
      const existing = await this.spot.orderRows.order(accountId, outcome.orderId, ["cross", "isolated"]);
      if (existing === undefined)
        throw new AppError(PaperCode.ORDER_NOT_FOUND, "Order not found", { status: 200 });
      return this.duplicate(existing);
    }
    if (outcome.rejection !== null) {
      throw rejected(outcome.rejection, outcome.order.id);
    }
    return {
      order: this.presentOrder(outcome.order),
      fills: outcome.fills.map((t) => this.presentTrade(t)),
      duplicate: false,
      borrowed: out.borrowed,
    };
  }

  private async duplicate(order: OrderRow): Promise<MarginPlaceResult> {
    const fills = await this.spot.orderRows.trades({
      accountId: order.accountId,
      orderId: order.id,
      limit: 500,
      wallets: [order.wallet],
    });
    return {
      order: this.presentOrder(order),
      fills: fills.reverse().map((t) => this.presentTrade(t)),
      duplicate: true,
      borrowed: null,
    };
  }

  async cancel(accountId: number, id: number): Promise<MarginOrder> {
    const margin: OrderWallet[] = ["cross", "isolated"];
    const row = await this.spot.orderRows.order(accountId, id, margin);
    if (row === undefined) throw new AppError(PaperCode.ORDER_NOT_FOUND, "Order not found", { status: 200 });
    const live = await this.exec((tx) => tx.cancelMargin(accountId, id));
    const after = (await this.spot.orderRows.order(accountId, id, margin)) ?? row;
    if (!live)
      throw new AppError(PaperCode.ORDER_NOT_OPEN, `Order is ${after.status}`, {
        status: 200,
        data: this.presentOrder(after),
      });
    return this.presentOrder(after);
  }

  /** AUTO_REPAY: each fill's proceeds repay the debt in the received asset (as far as they go). */
  private onFill(order: OrderRow, trade: TradeRow, tx: PaperTx): void {
    const scope: Scope = {
      accountId: order.accountId,
      mode: order.wallet === "isolated" ? "isolated" : "cross",
      symbol: order.wallet === "isolated" ? order.symbol : null,
    };
    this.dirty.set(keyOf(scope), scope);
    if (order.sideEffect !== "AUTO_REPAY") return;
    const spec = this.spot.venue.spec(order.symbol);
    const units = spec === undefined ? null : pairUnits(spec);
    if (units === null) return;
    const asset = order.side === 0 ? units.base : units.quote;
    const received = order.side === 0 ? BigInt(trade.qtyLots) * units.baseFactor : trade.quote - trade.fee;
    const a = this.accountOf(scope, tx.ledger);
    const loan = a.loans.get(asset);
    if (loan === undefined) return;
    const owed = loan.principal + loan.interest;
    const free = a.assets.get(asset) ?? 0n;
    let amount = received < owed ? received : owed;
    if (amount > free) amount = free;
    if (amount <= 0n) return;
    const w = emptyWrites();
    try {
      this.doRepay(tx, w, scope, asset, amount);
    } catch (error) {
      this.onError(error, "margin auto-repay failed");
    }
    this.flushWrites(tx, w);
  }

  // ---- interest ---------------------------------------------------------------------------------

  private scheduleInterest(): void {
    if (this.closed) return;
    const i = this.interestIntervalMs;
    const wait = Math.max(0, (Math.floor(this.now() / i) + 1) * i - this.now());
    this.timer = setTimeout(() => {
      void this.accrueDue()
        .catch((e: unknown) => this.onError(e, "margin interest failed"))
        .finally(() => this.scheduleInterest());
    }, wait + 5);
    this.timer.unref();
  }

  /**
   * Charges every interval boundary passed since the last charge (at most
   * MAX_INTEREST_CATCH_UP); the first run only sets the clock. Returns the intervals charged.
   */
  async accrueDue(): Promise<number> {
    const charged = await this.exec((tx, w) => {
      const i = this.interestIntervalMs;
      const boundary = Math.floor(this.now() / i) * i;
      if (this.interestAt === null) {
        this.interestAt = boundary;
        w.interestAt = boundary;
        return 0;
      }
      const due = Math.floor((boundary - this.interestAt) / i);
      if (due <= 0) return 0;
      const n = Math.min(due, MAX_INTEREST_CATCH_UP);
      for (const e of [...this.loans.values()]) {
        const scope = e.scope;
        const totals = new Map<string, bigint>();
        for (let k = 0; k < n; k++) {
          const r = accrueInterest(this.accountOf(scope, tx.ledger));
          if (r.entry === null) break;
          this.post(tx, r.entry, scope.accountId);
          for (const p of r.entry.postings)
            if (p.amount > 0n) totals.set(p.asset, (totals.get(p.asset) ?? 0n) + p.amount);
          this.setLoans(scope, r.account.loans, w);
        }
        for (const [asset, x] of totals) this.record(w, scope, "INTEREST", asset, x, { interest: x });
      }
      this.interestAt = boundary;
      w.interestAt = boundary;
      return n;
    });
    if (charged > 0) await this.riskPass();
    return charged;
  }

  // ---- liquidation and level pushes -------------------------------------------------------------

  private scheduleRisk(): void {
    if (this.closed || this.riskPending || this.loans.size === 0) return;
    this.riskPending = true;
    setImmediate(() => {
      void this.riskPass()
        .catch((e: unknown) => this.onError(e, "margin risk pass failed"))
        .finally(() => {
          this.riskPending = false;
        });
    });
  }

  /** Values every account with debt; liquidates those below 1.1; pushes level changes (throttled). */
  async riskPass(): Promise<number> {
    const liquidated = await this.exec((tx, w) => {
      const prices = this.prices();
      let count = 0;
      for (const e of [...this.loans.values()]) {
        const scope = e.scope;
        let a = this.accountOf(scope, tx.ledger);
        if (!needsForcedLiquidation(a, prices)) continue;
        const which = (r: OrderRow) =>
          scope.symbol === null ? r.wallet === "cross" : r.wallet === "isolated" && r.symbol === scope.symbol;
        for (const id of tx.liveOrderIds(scope.accountId, which)) tx.cancelMargin(scope.accountId, id);
        a = this.accountOf(scope, tx.ledger);
        const r = forcedLiquidation(a, prices);
        this.post(tx, r.entry, scope.accountId);
        this.setLoans(scope, r.account.loans, w);
        this.record(w, scope, "LIQUIDATION", USDT, r.returned);
        count++;
      }
      return count;
    });
    const now = this.now();
    for (const e of this.loans.values()) {
      const key = keyOf(e.scope);
      if (this.dirty.has(key)) continue;
      if (now - (this.lastLevelPush.get(key) ?? 0) < LEVEL_PUSH_MS) continue;
      this.lastLevelPush.set(key, now);
      this.pushView(e.scope);
    }
    return liquidated;
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
  private pushDirty(): void {
    if (this.dirty.size === 0) return;
    const scopes = [...this.dirty.values()];
    this.dirty.clear();
    for (const s of scopes) {
      this.lastLevelPush.set(keyOf(s), this.now());
      this.pushView(s);
    }
  }

  // ---- history --------------------------------------------------------------------------------

  private wallets(mode?: MarginAccountModeValue): OrderWallet[] {
    return mode === undefined ? ["cross", "isolated"] : [mode];
  }

  async openOrders(q: MarginListQuery): Promise<MarginOrder[]> {
    const rows = await this.spot.orderRows.orders({ ...q, wallets: this.wallets(q.mode) }, true);
    return rows.map((o) => this.presentOrder(o));
  }

  async orderHistory(q: MarginListQuery): Promise<MarginOrder[]> {
    const rows = await this.spot.orderRows.orders({ ...q, wallets: this.wallets(q.mode) }, false);
    return rows.map((o) => this.presentOrder(o));
  }

  async trades(q: MarginListQuery): Promise<MarginTrade[]> {
    const rows = await this.spot.orderRows.trades({ ...q, wallets: this.wallets(q.mode) });
    return rows.map((t) => this.presentTrade(t));
  }

  async records(q: RecordQuery): Promise<MarginRecord[]> {
    return (await this.repo.records(q)).map(presentRecord);
  }

  /** Outstanding debt per asset over every account, and the lending pool (tests, audits). */
  debts(): { loans: Map<string, bigint>; pool: Map<string, bigint> } {
    const loans = new Map<string, bigint>();
    for (const e of this.loans.values())
      for (const [asset, l] of e.loans) loans.set(asset, (loans.get(asset) ?? 0n) + l.principal + l.interest);
    return { loans, pool: new Map(this.ledger.ledgerBalances("system:lending")) };
  }

  futuresWallet(accountId: number): bigint {
    return this.ledger.ledgerBalance(futuresWalletOf(accountId), USDT);
  }

  private presentOrder(o: OrderRow): MarginOrder {
    return presentOrder(this.spot.venue, o);
  }

  private presentTrade(t: TradeRow): MarginTrade {
    return presentTrade(this.spot.venue, t);
  }
}

export interface MarginListQuery {
  accountId: number;
  mode?: MarginAccountModeValue | undefined;
  symbol?: string | undefined;
  limit: number;
  before?: number | undefined;
}
