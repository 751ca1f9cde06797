import { FuturesCode, isOpenOrderStatus, type PositionSideValue } from "@meridian/contracts";
import {
  type AnyPerpContract,
  anyPerpContract,
  crossSummary,
  DerivativesCode,
  type DerivativesRefusal,
  flatPosition,
  futuresFeeRates,
  futuresWalletOf,
  initialMargin,
  type JournalEntry,
  type MarginMode,
  minBig,
  notionalAt,
  RiskBook,
  requireAnyPerp,
  USDT,
} from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import type { LedgerTx } from "../ledger/index.ts";
import type { MarkBoard } from "./marks.ts";
import { restsAsLimit } from "./plans.ts";
import {
  emptyWrites,
  type FundingRow,
  type FutOrderRow,
  type FutTradeRow,
  type FuturesState,
  type FuturesWrites,
  type StoredPosition,
  type TransferRow,
} from "./repo.ts";

/** An account's maker and taker rates in ppm (its VIP tier's USDT-M rates; docs/subaccounts-vip.md). */
export type FeeRates = (accountId: number) => { makerPpm: number; takerPpm: number };
/** Without a provider every account pays VIP 0's rates. */
const VIP0_RATES: FeeRates = () => futuresFeeRates(0);
export const DEFAULT_LEVERAGE = 20;

/** The futures codes of the domain's refusals (what an order or a margin change answers). */
export const refusalCode: Record<string, string> = {
  [DerivativesCode.LEVERAGE_TOO_HIGH]: FuturesCode.LEVERAGE_TOO_HIGH,
  [DerivativesCode.REDUCE_ONLY_REJECTED]: FuturesCode.REDUCE_ONLY_REJECTED,
  [DerivativesCode.CLOSE_EXCEEDS_POSITION]: FuturesCode.REDUCE_ONLY_REJECTED,
  [DerivativesCode.MARGIN_INSUFFICIENT]: FuturesCode.MARGIN_INSUFFICIENT,
  [DerivativesCode.INVALID_FILL]: FuturesCode.ORDER_INVALID,
  [DerivativesCode.NOT_ISOLATED]: FuturesCode.NOT_ISOLATED,
  [DerivativesCode.MARGIN_REDUCE_EXCEEDS]: FuturesCode.MARGIN_REDUCE_EXCEEDS,
};

/** A refusal answered with HTTP 200 and the futures code (Binance's habit). */
export const fail = (code: string, msg: string, data?: Record<string, unknown>): AppError =>
  new AppError(code, msg, { status: 200, ...(data === undefined ? {} : { data }) });

export const positionKey = (accountId: number, symbol: string, side: PositionSideValue): string =>
  `${accountId}:${symbol}:${side}`;

/** A perpetual of either family by symbol, or the UNKNOWN_SYMBOL refusal. */
export function contractOf(symbol: string): AnyPerpContract {
  const c = anyPerpContract(symbol);
  if (c === undefined) throw fail(FuturesCode.UNKNOWN_SYMBOL, `Unknown perpetual ${symbol}`);
  return c;
}

/** What one command changed, for the stream after the commit. */
export interface Changes {
  accounts: Set<number>;
  orders: FutOrderRow[];
  trades: FutTradeRow[];
  funding: FundingRow[];
}

export interface EngineStateOptions {
  marks: MarkBoard;
  now: () => number;
  /** The paper ledger's balance (the writer's ledger: committed or about to be). */
  balance: (account: string, asset: string) => bigint;
  feeRates?: FeeRates | undefined;
}

/**
 * The futures engine's memory and its bookkeeping within one command: settings,
 * positions (mirrored into the domain's `RiskBook`) with their realised PnL, open limit
 * and trigger orders, the wallets' margin, and the ids. Inside `run` every change also
 * lands in the command's rows (`FuturesWrites`, written in the same commit) and in its
 * `Changes` (the stream after the commit); money moves only as entries `post`ed to the
 * ledger writer's transaction.
 */
export class EngineState {
  readonly risk = new RiskBook(256);
  readonly open = new Map<number, FutOrderRow>();
  readonly marks: MarkBoard;
  readonly now: () => number;
  readonly feeRates: FeeRates;
  private readonly balance: (account: string, asset: string) => bigint;
  private dual = new Map<number, boolean>();
  private settings = new Map<string, { leverage: number; marginMode: MarginMode }>();
  private readonly positions = new Map<string, StoredPosition>();
  private readonly positionIds = new Map<string, number>();
  private nextPositionId = 1;
  private ids = { order: 0, trade: 0, funding: 0, transfer: 0, rate: 0 };
  private tx: LedgerTx | null = null;
  private w: FuturesWrites = emptyWrites();
  private changes: Changes = { accounts: new Set(), orders: [], trades: [], funding: [] };

  constructor(o: EngineStateOptions) {
    this.marks = o.marks;
    this.now = o.now;
    this.balance = o.balance;
    this.feeRates = o.feeRates ?? VIP0_RATES;
  }

  load(s: FuturesState): void {
    this.dual = new Map(s.dualSide);
    this.settings = new Map(
      s.settings.map((x) => [
        `${x.accountId}:${x.symbol}`,
        { leverage: x.leverage, marginMode: x.marginMode },
      ]),
    );
    for (const id of this.positionIds.values()) this.risk.removePosition(id);
    this.positions.clear();
    this.positionIds.clear();
    this.open.clear();
    this.ids = { ...s.maxIds };
    for (const p of s.positions) {
      if (p.position.lots === 0 && p.realisedPnl === 0n) continue;
      this.putPosition(p);
      if (requireAnyPerp(p.position.symbol).family === "usdt")
        this.risk.setWallet(p.position.accountId, this.wallet(p.position.accountId));
    }
    for (const o of s.openOrders) this.open.set(o.id, o);
  }

  /** Runs `fn` as one command in the paper writer's transaction; returns its result and what changed. */
  run<T>(tx: LedgerTx, fn: () => T): { value: T; writes: FuturesWrites; changes: Changes } {
    this.tx = tx;
    this.w = emptyWrites();
    this.changes = { accounts: new Set(), orders: [], trades: [], funding: [] };
    try {
      return { value: fn(), writes: this.w, changes: this.changes };
    } finally {
      this.tx = null;
    }
  }

  /** The transaction of the command running (`run`). */
  ledger(): LedgerTx {
    const tx = this.tx;
    if (tx === null) throw new Error("futures command outside the writer");
    return tx;
  }

  // ---- reads ----------------------------------------------------------------------

  isDual(accountId: number): boolean {
    return this.dual.get(accountId) ?? false;
  }

  settingOf(accountId: number, symbol: string): { leverage: number; marginMode: MarginMode } {
    return this.settings.get(`${accountId}:${symbol}`) ?? { leverage: DEFAULT_LEVERAGE, marginMode: "cross" };
  }

  /** Every position kept (open, or flat with realised PnL). */
  allPositions(): IterableIterator<StoredPosition> {
    return this.positions.values();
  }

  /** The account's positions, of every family, or only those margined in `asset`. */
  positionsOf(accountId: number, asset?: string): StoredPosition[] {
    return [...this.positions.values()].filter(
      (p) =>
        p.position.accountId === accountId &&
        (asset === undefined || requireAnyPerp(p.position.symbol).marginAsset === asset),
    );
  }

  /** Looks positions up by their `RiskBook` id (the ids as they are now; each position as it is when asked). */
  positionByRiskId(): (id: number) => StoredPosition | undefined {
    const byId = new Map<number, string>();
    for (const [key, id] of this.positionIds) byId.set(id, key);
    return (id) => {
      const key = byId.get(id);
      return key === undefined ? undefined : this.positions.get(key);
    };
  }

  openOrdersOf(accountId: number): FutOrderRow[] {
    return [...this.open.values()].filter((o) => o.accountId === accountId);
  }

  hasActivity(symbol: string): boolean {
    for (const p of this.positions.values())
      if (p.position.symbol === symbol && p.position.lots !== 0) return true;
    for (const o of this.open.values()) if (o.symbol === symbol) return true;
    return false;
  }

  /** Whether an account (on `symbol`, or on any) has a position or an open order: its settings are locked. */
  locked(accountId: number, symbol?: string): boolean {
    for (const p of this.positionsOf(accountId))
      if (p.position.lots !== 0 && (symbol === undefined || p.position.symbol === symbol)) return true;
    for (const o of this.open.values())
      if (o.accountId === accountId && (symbol === undefined || o.symbol === symbol)) return true;
    return false;
  }

  /** A futures wallet's balance: the USDT-M one, or a coin's coin-M one (the futures account's balance in it). */
  wallet(accountId: number, asset: string = USDT): bigint {
    return this.balance(futuresWalletOf(accountId), asset);
  }

  /**
   * Initial margin (plus taker fee) set aside for open orders margined in `asset` that
   * would open or increase a position.
   */
  orderReserve(accountId: number, marginMode?: MarginMode, asset: string = USDT): bigint {
    let sum = 0n;
    for (const o of this.open.values()) {
      if (o.accountId !== accountId || o.reduceOnly || o.closePosition || !restsAsLimit(o)) continue;
      const c = requireAnyPerp(o.symbol);
      if (c.marginAsset !== asset) continue;
      const s = this.settingOf(accountId, o.symbol);
      if (marginMode !== undefined && s.marginMode !== marginMode) continue;
      const n = notionalAt(c, o.qtyLots - o.filledLots, o.priceTicks ?? 0);
      sum += initialMargin(n, s.leverage) + (n * BigInt(this.feeRates(accountId).takerPpm)) / 1_000_000n;
    }
    return sum;
  }

  /** Cross available margin of one wallet after open-order reserves; what a new order or a transfer out may use. */
  available(accountId: number, asset: string = USDT): bigint {
    const positions = this.positionsOf(accountId, asset).map((p) => p.position);
    const wallet = this.wallet(accountId, asset);
    const summary = crossSummary(wallet, positions, this.marks.marks());
    const isolatedHeadroom = wallet - this.orderReserve(accountId, "isolated", asset);
    const cross = summary.available - this.orderReserve(accountId, undefined, asset);
    return minBig(cross, isolatedHeadroom);
  }

  /** The position on one side, flat (with the current settings) when there is none. */
  stored(accountId: number, symbol: string, side: PositionSideValue): StoredPosition {
    const s = this.settingOf(accountId, symbol);
    const kept = this.positions.get(positionKey(accountId, symbol, side));
    if (kept === undefined)
      return {
        position: flatPosition({
          accountId,
          symbol,
          positionSide: side,
          marginMode: s.marginMode,
          leverage: s.leverage,
        }),
        realisedPnl: 0n,
      };
    // A closed position stays in the book for its realised PnL, but it still carries the
    // leverage and margin mode it was opened with; the settings may only change while it is
    // flat, so a flat record takes the current ones or the next opening would use stale ones.
    if (kept.position.lots !== 0) return kept;
    if (kept.position.leverage === s.leverage && kept.position.marginMode === s.marginMode) return kept;
    return { ...kept, position: { ...kept.position, leverage: s.leverage, marginMode: s.marginMode } };
  }

  // ---- changes within a command ----------------------------------------------------------

  nextOrderId(): number {
    return ++this.ids.order;
  }

  nextTradeId(): number {
    return ++this.ids.trade;
  }

  nextFundingId(): number {
    return ++this.ids.funding;
  }

  private putPosition(p: StoredPosition): void {
    const pos = p.position;
    const key = positionKey(pos.accountId, pos.symbol, pos.positionSide);
    this.positions.set(key, p);
    let id = this.positionIds.get(key);
    if (id === undefined) {
      id = this.nextPositionId++;
      this.positionIds.set(key, id);
    }
    // The risk book screens USDT-M positions; coin-M ones are checked exactly (liquidation.ts).
    if (requireAnyPerp(pos.symbol).family === "usdt") this.risk.setPosition(id, pos);
  }

  savePosition(p: StoredPosition): void {
    this.putPosition(p);
    const pos = p.position;
    this.w.positions.set(positionKey(pos.accountId, pos.symbol, pos.positionSide), p);
    this.changes.accounts.add(pos.accountId);
  }

  /** After money moved: the risk book takes the account's USDT-M wallet again. */
  syncWallet(accountId: number): void {
    this.risk.setWallet(accountId, this.wallet(accountId));
    this.changes.accounts.add(accountId);
  }

  /** Posts an entry; a ledger refusal comes back as MARGIN_INSUFFICIENT (nothing changed). */
  post(
    entry: JournalEntry | null,
    accountId: number | null,
    refId: number | null,
  ): DerivativesRefusal | null {
    if (entry === null) return null;
    const r = this.ledger().post(entry, accountId, refId);
    if (r === null) return null;
    return { code: DerivativesCode.MARGIN_INSUFFICIENT, params: { account: r.account, asset: r.asset } };
  }

  saveOrder(o: FutOrderRow): void {
    o.updatedAt = this.now();
    const copy = o.plan === undefined ? { ...o } : { ...o, plan: { ...o.plan } };
    this.w.orders.set(o.id, copy);
    this.changes.orders.push(copy);
    this.changes.accounts.add(o.accountId);
    if (isOpenOrderStatus(o.status)) this.open.set(o.id, o);
    else this.open.delete(o.id);
  }

  saveTrade(trade: FutTradeRow): void {
    this.w.trades.push(trade);
    this.changes.trades.push(trade);
  }

  /** Records a wallet transfer of the account (its row's id is the transfer's id); answers the id. */
  saveTransfer(t: Omit<TransferRow, "id" | "createdAt">): number {
    const row = { ...t, id: ++this.ids.transfer, createdAt: this.now() };
    this.w.transfers.push(row);
    return row.id;
  }

  /** Records the rate a perpetual's funding settled at (the market's history, positions or not). */
  saveFundingRate(symbol: string, rateE8: bigint, markTicks: number, fundingTime: number): void {
    this.w.rates.push({ id: ++this.ids.rate, symbol, rateE8, markTicks, fundingTime });
  }

  saveFunding(row: FundingRow): void {
    this.w.funding.push(row);
    this.changes.funding.push(row);
  }

  /** Cancels an open order of the account; null when it is not open (or not the account's). */
  cancel(accountId: number, orderId: number, reason: string | null = null): FutOrderRow | null {
    const o = this.open.get(orderId);
    if (o === undefined || o.accountId !== accountId) return null;
    o.status = "CANCELED";
    o.reason = reason;
    this.saveOrder(o);
    return o;
  }

  setDual(accountId: number, dual: boolean): void {
    this.dual.set(accountId, dual);
    this.w.dualSide.set(accountId, dual);
    this.changes.accounts.add(accountId);
  }

  writeSetting(accountId: number, symbol: string, leverage: number, marginMode: MarginMode): void {
    this.settings.set(`${accountId}:${symbol}`, { leverage, marginMode });
    this.w.settings.set(`${accountId}:${symbol}`, { accountId, symbol, leverage, marginMode });
    this.changes.accounts.add(accountId);
  }
}
