import type {
  BorrowRepayBody,
  MarginAccountModeValue,
  MarginAccountView,
  MarginOrder,
  MarginOrderBody,
  MarginPairs,
  MarginPlaceResult,
  MarginRecord,
  MarginStreamPush,
  MarginTrade,
  MaxAmount,
  WalletTransferBody,
  WalletTransferResult,
} from "@meridian/contracts";
import { type AssetPrices, futuresWalletOf, maxBorrowable, maxTransferOut } from "@meridian/domain";
import { type FuturesService, WalletTransferIds } from "../futures/index.ts";
import type { LedgerTx, LedgerWriter } from "../ledger/index.ts";
import type { SpotForMargin } from "../paper/index.ts";
import { MarginAccounts, type Scope, USDT } from "./accounts.ts";
import { MarginLending } from "./lending.ts";
import { MarginMarkets } from "./markets.ts";
import { type MarginListQuery, MarginOrders } from "./orders.ts";
import { maxAmount, presentRecord } from "./present.ts";
import type { MarginRepo, RecordQuery } from "./repo.ts";
import { MarginRisk } from "./risk.ts";
import { MarginTransfers } from "./transfers.ts";

/** Default interest interval: Binance charges margin interest every hour. */
export const MARGIN_INTEREST_INTERVAL_MS = 3_600_000;

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
 * The service is the module's one surface and its lifecycle (start, the interest timer,
 * the price-driven risk pass, close); the work is in its parts: `MarginAccounts` (loans
 * and records in memory, the writer, account pushes), `MarginLending` (borrow, repay,
 * interest), `MarginRisk` (liquidation, level pushes), `MarginTransfers` (between
 * wallets and sub-accounts) and `MarginOrders` (placement, cancel, auto-repay, history).
 */
export class MarginService {
  readonly interestIntervalMs: number;
  private readonly ledger: LedgerWriter;
  private readonly spot: SpotForMargin;
  private readonly markets: MarginMarkets;
  private readonly repo: MarginRepo;
  private readonly onError: (error: unknown, msg: string) => void;
  private readonly accounts: MarginAccounts;
  private readonly lending: MarginLending;
  private readonly risk: MarginRisk;
  private readonly transfers: MarginTransfers;
  private readonly orders: MarginOrders;
  private offs: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  private riskPending = false;
  private closed = false;

  constructor(o: MarginServiceOptions) {
    const now = o.now ?? Date.now;
    this.ledger = o.ledger;
    this.spot = o.spot;
    this.markets = new MarginMarkets(o.spot.venue);
    this.repo = o.repo;
    this.onError = o.onError ?? (() => {});
    this.interestIntervalMs = o.interestIntervalMs ?? MARGIN_INTEREST_INTERVAL_MS;
    this.accounts = new MarginAccounts({
      ledger: o.ledger,
      spot: o.spot,
      markets: this.markets,
      repo: o.repo,
      now,
      onError: this.onError,
    });
    this.lending = new MarginLending(this.accounts, now, this.interestIntervalMs);
    this.risk = new MarginRisk(this.accounts);
    this.transfers = new MarginTransfers(
      this.accounts,
      o.futures,
      o.futures?.transferIds ?? new WalletTransferIds(o.repo.db, now),
    );
    this.orders = new MarginOrders({
      accounts: this.accounts,
      lending: this.lending,
      spot: o.spot,
      markets: this.markets,
      onError: this.onError,
    });
  }

  async start(): Promise<void> {
    await this.ledger.flush();
    this.accounts.load(await this.repo.load());
    this.spot.setMarginFillHook((order, trade, tx) => this.orders.onFill(order, trade, tx));
    this.offs.push(
      this.spot.onEvents((e) => {
        if (e.marginOrders.length === 0 && e.marginFills.length === 0) return;
        const pushes: MarginStreamPush[] = [
          ...e.marginOrders.map((o) => ({
            event: "marginOrder" as const,
            data: this.orders.presentOrder(o),
          })),
          ...e.marginFills.map((t) => ({ event: "marginFill" as const, data: this.orders.presentTrade(t) })),
        ];
        this.ledger.push(e.accountId, pushes);
        this.accounts.pushDirty();
      }),
      this.ledger.onRebuilt(() => {
        void this.repo
          .load()
          .then((s) => this.accounts.load(s))
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
    return this.accounts.scope(accountId, mode, symbol);
  }

  view(scope: Scope): MarginAccountView {
    return this.accounts.view(scope);
  }

  isolatedAccounts(accountId: number): MarginAccountView[] {
    const symbols = this.accounts.isolatedSymbols(accountId);
    return [...symbols].sort().map((symbol) => this.view({ accountId, mode: "isolated", symbol }));
  }

  maxBorrowable(scope: Scope, asset: string): MaxAmount {
    this.accounts.checkAsset(scope, asset);
    return maxAmount(asset, maxBorrowable(this.accounts.accountOf(scope), asset, this.prices()));
  }

  maxTransferable(scope: Scope, asset: string): MaxAmount {
    this.accounts.checkAsset(scope, asset);
    return maxAmount(asset, maxTransferOut(this.accounts.accountOf(scope), asset, this.prices()));
  }

  // ---- commands ---------------------------------------------------------------------------

  borrow(accountId: number, body: BorrowRepayBody & { mode: MarginAccountModeValue }) {
    return this.lending.borrow(accountId, body);
  }

  repay(accountId: number, body: BorrowRepayBody & { mode: MarginAccountModeValue }) {
    return this.lending.repay(accountId, body);
  }

  /** With `clientTransferId`, made once however often it is sent (`WalletTransferIds`). */
  transfer(accountId: number, body: WalletTransferBody): Promise<WalletTransferResult> {
    return this.transfers.transfer(accountId, body);
  }

  /** Margin to margin between a master and its sub-account (`MarginTransfers.subTransfer`). */
  subTransfer(
    from: number,
    to: number,
    m: { mode: MarginAccountModeValue; symbol?: string; asset: string; amount: string },
    record: (tx: LedgerTx) => void,
  ): Promise<bigint> {
    return this.transfers.subTransfer(from, to, m, record);
  }

  place(accountId: number, vipLevel: number, body: MarginOrderBody): Promise<MarginPlaceResult> {
    return this.orders.place(accountId, vipLevel, body);
  }

  cancel(accountId: number, id: number): Promise<MarginOrder> {
    return this.orders.cancel(accountId, id);
  }

  // ---- interest and liquidation -------------------------------------------------------------

  private scheduleInterest(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.accrueDue()
        .catch((e: unknown) => this.onError(e, "margin interest failed"))
        .finally(() => this.scheduleInterest());
    }, this.lending.nextBoundaryIn() + 5);
    this.timer.unref();
  }

  /** Charges the interest intervals due (`MarginLending.accrueDue`), then values the accounts again. */
  async accrueDue(): Promise<number> {
    const charged = await this.lending.accrueDue();
    if (charged > 0) await this.riskPass();
    return charged;
  }

  private scheduleRisk(): void {
    if (this.closed || this.riskPending || !this.accounts.hasDebt()) return;
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
  riskPass(): Promise<number> {
    return this.risk.riskPass();
  }

  // ---- history --------------------------------------------------------------------------------

  openOrders(q: MarginListQuery): Promise<MarginOrder[]> {
    return this.orders.openOrders(q);
  }

  orderHistory(q: MarginListQuery): Promise<MarginOrder[]> {
    return this.orders.orderHistory(q);
  }

  trades(q: MarginListQuery): Promise<MarginTrade[]> {
    return this.orders.trades(q);
  }

  async records(q: RecordQuery): Promise<MarginRecord[]> {
    return (await this.repo.records(q)).map(presentRecord);
  }

  /** Outstanding debt per asset over every account, and the lending pool (tests, audits). */
  debts(): { loans: Map<string, bigint>; pool: Map<string, bigint> } {
    const loans = new Map<string, bigint>();
    for (const e of this.accounts.debtors())
      for (const [asset, l] of e.loans) loans.set(asset, (loans.get(asset) ?? 0n) + l.principal + l.interest);
    return { loans, pool: new Map(this.ledger.ledgerBalances("system:lending")) };
  }

  futuresWallet(accountId: number): bigint {
    return this.ledger.ledgerBalance(futuresWalletOf(accountId), USDT);
  }
}
