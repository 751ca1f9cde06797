import {
  FuturesCode,
  type FuturesOrderBody,
  type FuturesOrderType,
  type PositionSideValue,
} from "@meridian/contracts";
import {
  adjustIsolatedMargin,
  applyFill,
  crossSummary,
  DerivativesCode,
  type DerivativesRefusal,
  firesOnRise,
  flatPosition,
  fromMinor,
  futuresFeeRates,
  futuresTransferEntry,
  futuresWalletOf,
  initialMargin,
  type JournalEntry,
  liquidateCross,
  liquidateIsolated,
  type MarginMode,
  maxLeverageFor,
  maxRemovableMargin,
  minBig,
  notionalAt,
  type PerpContract,
  type PerpPosition,
  perpContract,
  priceToTicks,
  qtyToLots,
  RiskBook,
  requirePerp,
  settleFunding,
  subTransferEntry,
  triggerReached,
} from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import type { LedgerTx } from "../ledger/index.ts";
import type { PerpBook } from "./book.ts";
import type { MarkBoard } from "./marks.ts";
import {
  emptyWrites,
  type FundingRow,
  type FutOrderRow,
  type FutTradeRow,
  type FuturesState,
  type FuturesWrites,
  type StoredPosition,
} from "./repo.ts";

/** An account's maker and taker rates in ppm (its VIP tier's USDT-M rates; docs/subaccounts-vip.md). */
export type FeeRates = (accountId: number) => { makerPpm: number; takerPpm: number };
/** Without a provider every account pays VIP 0's rates. */
const VIP0_RATES: FeeRates = () => futuresFeeRates(0);
export const DEFAULT_LEVERAGE = 20;
const DEPTH = 50;
const OPEN = new Set(["NEW", "PARTIALLY_FILLED"]);

const refusalCode: Record<string, string> = {
  [DerivativesCode.LEVERAGE_TOO_HIGH]: FuturesCode.LEVERAGE_TOO_HIGH,
  [DerivativesCode.REDUCE_ONLY_REJECTED]: FuturesCode.REDUCE_ONLY_REJECTED,
  [DerivativesCode.CLOSE_EXCEEDS_POSITION]: FuturesCode.REDUCE_ONLY_REJECTED,
  [DerivativesCode.MARGIN_INSUFFICIENT]: FuturesCode.MARGIN_INSUFFICIENT,
  [DerivativesCode.INVALID_FILL]: FuturesCode.ORDER_INVALID,
  [DerivativesCode.NOT_ISOLATED]: FuturesCode.NOT_ISOLATED,
  [DerivativesCode.MARGIN_REDUCE_EXCEEDS]: FuturesCode.MARGIN_REDUCE_EXCEEDS,
};

const fail = (code: string, msg: string, data?: Record<string, unknown>): AppError =>
  new AppError(code, msg, { status: 200, ...(data === undefined ? {} : { data }) });

export const positionKey = (accountId: number, symbol: string, side: PositionSideValue): string =>
  `${accountId}:${symbol}:${side}`;

/** What one command changed, for the stream after the commit. */
export interface Changes {
  accounts: Set<number>;
  orders: FutOrderRow[];
  trades: FutTradeRow[];
  funding: FundingRow[];
}

/**
 * The futures book in memory: settings, positions (mirrored into the domain's
 * `RiskBook`), open limit and trigger orders. Commands run inside the ledger writer
 * (`LedgerWriter.transact`): money moves as journal entries in the shared paper ledger,
 * and the rows they change are written in that same transaction.
 */
export class FuturesEngine {
  readonly risk = new RiskBook(256);
  private readonly book: PerpBook;
  private readonly marks: MarkBoard;
  private readonly now: () => number;
  /** The paper ledger's balance (the writer's ledger: committed or about to be). */
  private readonly balance: (account: string, asset: string) => bigint;
  private readonly feeRates: FeeRates;
  private dual = new Map<number, boolean>();
  private settings = new Map<string, { leverage: number; marginMode: MarginMode }>();
  private positions = new Map<string, StoredPosition>();
  private positionIds = new Map<string, number>();
  private nextPositionId = 1;
  readonly open = new Map<number, FutOrderRow>();
  private ids = { order: 0, trade: 0, funding: 0 };
  private tx: LedgerTx | null = null;
  private w: FuturesWrites = emptyWrites();
  private changes: Changes = { accounts: new Set(), orders: [], trades: [], funding: [] };

  constructor(
    book: PerpBook,
    marks: MarkBoard,
    now: () => number,
    balance: (account: string, asset: string) => bigint,
    feeRates: FeeRates = VIP0_RATES,
  ) {
    this.balance = balance;
    this.feeRates = feeRates;
    this.book = book;
    this.marks = marks;
    this.now = now;
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

  // ---- reads ----------------------------------------------------------------------

  isDual(accountId: number): boolean {
    return this.dual.get(accountId) ?? false;
  }

  settingOf(accountId: number, symbol: string): { leverage: number; marginMode: MarginMode } {
    return this.settings.get(`${accountId}:${symbol}`) ?? { leverage: DEFAULT_LEVERAGE, marginMode: "cross" };
  }

  positionsOf(accountId: number): StoredPosition[] {
    return [...this.positions.values()].filter((p) => p.position.accountId === accountId);
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

  private ledger() {
    const tx = this.tx;
    if (tx === null) throw new Error("futures command outside the writer");
    return tx;
  }

  wallet(accountId: number): bigint {
    return this.balance(futuresWalletOf(accountId), "USDT");
  }

  /** Initial margin (plus taker fee) set aside for open orders that would open or increase a position. */
  orderReserve(accountId: number, marginMode?: MarginMode): bigint {
    let sum = 0n;
    for (const o of this.open.values()) {
      if (o.accountId !== accountId || o.reduceOnly || o.closePosition || o.type !== "LIMIT") continue;
      const s = this.settingOf(accountId, o.symbol);
      if (marginMode !== undefined && s.marginMode !== marginMode) continue;
      const c = requirePerp(o.symbol);
      const n = notionalAt(c, o.qtyLots - o.filledLots, o.priceTicks ?? 0);
      sum += initialMargin(n, s.leverage) + (n * BigInt(this.feeRates(accountId).takerPpm)) / 1_000_000n;
    }
    return sum;
  }

  /** Cross available margin after open-order reserves; what a new order or a transfer out may use. */
  available(accountId: number): bigint {
    const positions = this.positionsOf(accountId).map((p) => p.position);
    const summary = crossSummary(this.wallet(accountId), positions, this.marks.marks());
    const isolatedHeadroom = this.wallet(accountId) - this.orderReserve(accountId, "isolated");
    const cross = summary.available - this.orderReserve(accountId);
    return minBig(cross, isolatedHeadroom);
  }

  // ---- state changes ------------------------------------------------------------------

  private putPosition(p: StoredPosition): void {
    const pos = p.position;
    const key = positionKey(pos.accountId, pos.symbol, pos.positionSide);
    this.positions.set(key, p);
    let id = this.positionIds.get(key);
    if (id === undefined) {
      id = this.nextPositionId++;
      this.positionIds.set(key, id);
    }
    this.risk.setPosition(id, pos);
  }

  private savePosition(p: StoredPosition): void {
    this.putPosition(p);
    const pos = p.position;
    this.w.positions.set(positionKey(pos.accountId, pos.symbol, pos.positionSide), p);
    this.changes.accounts.add(pos.accountId);
  }

  private syncWallet(accountId: number): void {
    this.risk.setWallet(accountId, this.wallet(accountId));
    this.changes.accounts.add(accountId);
  }

  private post(
    entry: JournalEntry | null,
    accountId: number | null,
    refId: number | null,
  ): DerivativesRefusal | null {
    if (entry === null) return null;
    const r = this.ledger().post(entry, accountId, refId);
    if (r === null) return null;
    return { code: DerivativesCode.MARGIN_INSUFFICIENT, params: { account: r.account, asset: r.asset } };
  }

  private saveOrder(o: FutOrderRow): void {
    o.updatedAt = this.now();
    const copy = { ...o };
    this.w.orders.set(o.id, copy);
    this.changes.orders.push(copy);
    this.changes.accounts.add(o.accountId);
    if (OPEN.has(o.status)) this.open.set(o.id, o);
    else this.open.delete(o.id);
  }

  private stored(accountId: number, symbol: string, side: PositionSideValue): StoredPosition {
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

  // ---- commands -----------------------------------------------------------------------

  transfer(accountId: number, direction: "IN" | "OUT", amount: bigint): void {
    if (direction === "OUT") {
      const max = this.available(accountId);
      if (amount > max || amount > this.wallet(accountId))
        throw fail(FuturesCode.TRANSFER_EXCEEDS, "Transfer exceeds what the futures wallet can spare", {
          max: max.toString(),
        });
    }
    const r = this.post(futuresTransferEntry(accountId, amount, direction === "IN"), accountId, null);
    if (r !== null) throw fail(FuturesCode.TRANSFER_EXCEEDS, "Not enough balance to transfer");
    this.syncWallet(accountId);
  }

  /** Futures wallet to futures wallet (a master and its sub-account), within what the source can spare. */
  subTransfer(from: number, to: number, amount: bigint): void {
    const max = minBig(this.available(from), this.wallet(from));
    if (amount > max)
      throw fail(FuturesCode.TRANSFER_EXCEEDS, "Transfer exceeds what the futures wallet can spare", {
        max: (max > 0n ? max : 0n).toString(),
      });
    const r = this.post(
      subTransferEntry(futuresWalletOf(from), futuresWalletOf(to), "USDT", amount),
      from,
      null,
    );
    if (r !== null) throw fail(FuturesCode.TRANSFER_EXCEEDS, "Not enough balance to transfer");
    this.syncWallet(from);
    this.syncWallet(to);
  }

  private locked(accountId: number, symbol?: string): boolean {
    for (const p of this.positionsOf(accountId))
      if (p.position.lots !== 0 && (symbol === undefined || p.position.symbol === symbol)) return true;
    for (const o of this.open.values())
      if (o.accountId === accountId && (symbol === undefined || o.symbol === symbol)) return true;
    return false;
  }

  setLeverage(accountId: number, symbol: string, leverage: number): void {
    const c = this.contract(symbol);
    if (leverage > c.maxLeverage)
      throw fail(FuturesCode.LEVERAGE_TOO_HIGH, "Leverage above the contract's maximum", {
        leverage,
        max: c.maxLeverage,
      });
    if (this.locked(accountId, symbol))
      throw fail(FuturesCode.SETTING_LOCKED, "Close the position and cancel orders first");
    const s = this.settingOf(accountId, symbol);
    this.writeSetting(accountId, symbol, leverage, s.marginMode);
  }

  setMarginMode(accountId: number, symbol: string, marginMode: MarginMode): void {
    this.contract(symbol);
    if (this.locked(accountId, symbol))
      throw fail(FuturesCode.SETTING_LOCKED, "Close the position and cancel orders first");
    this.writeSetting(accountId, symbol, this.settingOf(accountId, symbol).leverage, marginMode);
  }

  setPositionMode(accountId: number, dual: boolean): void {
    if (this.locked(accountId))
      throw fail(FuturesCode.SETTING_LOCKED, "Close every position and cancel orders first");
    this.dual.set(accountId, dual);
    this.w.dualSide.set(accountId, dual);
    this.changes.accounts.add(accountId);
  }

  private writeSetting(accountId: number, symbol: string, leverage: number, marginMode: MarginMode): void {
    this.settings.set(`${accountId}:${symbol}`, { leverage, marginMode });
    this.w.settings.set(`${accountId}:${symbol}`, { accountId, symbol, leverage, marginMode });
    this.changes.accounts.add(accountId);
  }

  private contract(symbol: string): PerpContract {
    const c = perpContract(symbol);
    if (c === undefined) throw fail(FuturesCode.UNKNOWN_SYMBOL, `Unknown perpetual ${symbol}`);
    return c;
  }

  place(accountId: number, body: FuturesOrderBody): FutOrderRow {
    const c = this.contract(body.symbol);
    const spec = c.instrument;
    const dual = this.isDual(accountId);
    const positionSide = body.positionSide ?? "BOTH";
    if (dual === (positionSide === "BOTH"))
      throw fail(FuturesCode.ORDER_INVALID, "positionSide does not match the position mode", {
        field: "positionSide",
      });
    const parse = (text: string | undefined, field: string) => {
      if (text === undefined) return null;
      const r = field === "quantity" ? qtyToLots(spec, text, field) : priceToTicks(spec, text, field);
      if (!r.ok) throw fail(FuturesCode.ORDER_INVALID, `Invalid ${field}`, { field, reason: r.error.code });
      return r.value as number;
    };
    const price = parse(body.price, "price");
    const stop = parse(body.stopPrice, "stopPrice");
    const type: FuturesOrderType = body.type;
    const closing = dual ? (body.side === "SELL") === (positionSide === "LONG") : false;
    const reduceOnly = (body.reduceOnly ?? false) || closing || (body.closePosition ?? false);
    let lots = body.closePosition ? 0 : (parse(body.quantity, "quantity") ?? 0);
    const ts = this.now();
    const id = ++this.ids.order;
    const order: FutOrderRow = {
      id,
      accountId,
      symbol: c.symbol,
      side: body.side,
      positionSide,
      type,
      priceTicks: type === "LIMIT" ? price : null,
      stopTicks: type === "LIMIT" || type === "MARKET" ? null : stop,
      qtyLots: lots,
      filledLots: 0,
      filledNotional: 0n,
      reduceOnly,
      closePosition: body.closePosition ?? false,
      clientOrderId: body.clientOrderId ?? `#${id}`,
      status: "NEW",
      reason: null,
      createdAt: ts,
      updatedAt: ts,
    };
    if (type === "STOP_MARKET" || type === "TAKE_PROFIT_MARKET") {
      this.saveOrder(order);
      return order;
    }
    if (reduceOnly) {
      const pos = this.stored(accountId, c.symbol, positionSide).position;
      const size = Math.abs(pos.lots);
      const dir = body.side === "BUY" ? 1 : -1;
      if (size === 0 || (!dual && Math.sign(pos.lots) === dir))
        throw fail(FuturesCode.REDUCE_ONLY_REJECTED, "Reduce-only order would not reduce the position");
      lots = Math.min(lots, size);
      order.qtyLots = lots;
    }
    if (lots <= 0) throw fail(FuturesCode.ORDER_INVALID, "Quantity must be positive", { field: "quantity" });
    if (!reduceOnly) {
      const refTicks = price ?? this.marks.markOf(c) ?? 0;
      const n = notionalAt(c, lots, refTicks);
      if (n < BigInt(spec.minNotionalUnits) * c.minorPerTickLot)
        throw fail(FuturesCode.ORDER_INVALID, "Order below the minimum notional", {
          field: "quantity",
          min: spec.minNotional,
        });
      const s = this.settingOf(accountId, c.symbol);
      if (s.leverage > maxLeverageFor(c, n))
        throw fail(FuturesCode.LEVERAGE_TOO_HIGH, "Leverage too high for this size", {
          leverage: s.leverage,
          max: maxLeverageFor(c, n),
        });
      const required =
        initialMargin(n, s.leverage) + (n * BigInt(this.feeRates(accountId).takerPpm)) / 1_000_000n;
      const available = this.available(accountId);
      if (required > available)
        throw fail(FuturesCode.MARGIN_INSUFFICIENT, "Not enough available margin", {
          required: required.toString(),
          available: available.toString(),
        });
    }
    this.take(order, type === "LIMIT" ? price : null);
    const refused = order.reason === null ? undefined : refusalCode[order.reason];
    if (order.filledLots === 0 && refused !== undefined)
      throw fail(refused, `Order refused: ${order.reason}`, { reason: order.reason });
    if (order.filledLots === 0 && type === "MARKET") {
      order.status = "EXPIRED";
      order.reason ??= "NO_LIQUIDITY";
    } else if (order.filledLots < order.qtyLots) {
      if (type === "MARKET") order.status = "EXPIRED";
      else if (order.reason === null) order.status = order.filledLots > 0 ? "PARTIALLY_FILLED" : "NEW";
      else order.status = "EXPIRED";
    } else order.status = "FILLED";
    this.saveOrder(order);
    return order;
  }

  /** Takes the book's quotes up to `limit` (null: any price) as taker. */
  private take(order: FutOrderRow, limit: number | null): void {
    const c = requirePerp(order.symbol);
    for (const [ticks, qty] of this.book.levels(c, order.side, DEPTH)) {
      const left = order.qtyLots - order.filledLots;
      if (left <= 0) break;
      if (limit !== null && (order.side === "BUY" ? ticks > limit : ticks < limit)) break;
      const r = this.fill(order, Math.min(left, qty), ticks, this.feeRates(order.accountId).takerPpm, false);
      if (r !== null) {
        order.reason = r.code;
        break;
      }
    }
  }

  /** One execution against the order's position; null when done, the refusal otherwise. */
  private fill(
    order: FutOrderRow,
    lots: number,
    ticks: number,
    feePpm: number,
    isMaker: boolean,
  ): DerivativesRefusal | null {
    const c = requirePerp(order.symbol);
    const before = this.stored(order.accountId, order.symbol, order.positionSide);
    const pos = before.position;
    let q = lots;
    if (order.reduceOnly) {
      q = Math.min(q, Math.abs(pos.lots));
      if (q === 0) return { code: DerivativesCode.REDUCE_ONLY_REJECTED, params: {} };
    }
    const r = applyFill(c, pos, {
      side: order.side === "BUY" ? "buy" : "sell",
      lots: q,
      priceTicks: ticks,
      feePpm,
      reduceOnly: order.reduceOnly,
    });
    if (!r.ok) return r.error;
    const out = r.value;
    if (out.openedLots > 0 && pos.marginMode === "cross") {
      const walletDelta = out.realisedPnl - out.fee;
      const others = this.positionsOf(order.accountId)
        .map((p) => p.position)
        .filter((p) => p.symbol !== order.symbol || p.positionSide !== order.positionSide);
      const summary = crossSummary(
        this.wallet(order.accountId) + walletDelta,
        [...others, out.position],
        this.marks.marks(),
      );
      if (summary.available < 0n) return { code: DerivativesCode.MARGIN_INSUFFICIENT, params: {} };
    }
    const refused = this.post(out.entry, order.accountId, order.id);
    if (refused !== null) return refused;
    this.savePosition({
      position: out.position,
      realisedPnl: before.realisedPnl + out.realisedPnl - out.fee,
    });
    this.syncWallet(order.accountId);
    const filled = out.closedLots + out.openedLots;
    order.filledLots += filled;
    order.filledNotional += notionalAt(c, filled, ticks);
    const trade: FutTradeRow = {
      id: ++this.ids.trade,
      orderId: order.id,
      accountId: order.accountId,
      symbol: order.symbol,
      side: order.side,
      positionSide: order.positionSide,
      priceTicks: ticks,
      qtyLots: filled,
      realisedPnl: out.realisedPnl,
      fee: out.fee,
      isMaker,
      liquidation: false,
      createdAt: this.now(),
    };
    this.w.trades.push(trade);
    this.changes.trades.push(trade);
    return null;
  }

  cancel(accountId: number, orderId: number, reason: string | null = null): FutOrderRow | null {
    const o = this.open.get(orderId);
    if (o === undefined || o.accountId !== accountId) return null;
    o.status = "CANCELED";
    o.reason = reason;
    this.saveOrder(o);
    return o;
  }

  closeAll(accountId: number, symbol?: string): FutOrderRow[] {
    const out: FutOrderRow[] = [];
    for (const p of this.positionsOf(accountId)) {
      const pos = p.position;
      if (pos.lots === 0 || (symbol !== undefined && pos.symbol !== symbol)) continue;
      const c = requirePerp(pos.symbol);
      out.push(
        this.place(accountId, {
          symbol: pos.symbol,
          side: pos.lots > 0 ? "SELL" : "BUY",
          type: "MARKET",
          positionSide: pos.positionSide,
          quantity: lotsText(c, Math.abs(pos.lots)),
          reduceOnly: pos.positionSide === "BOTH",
          closePosition: false,
        }),
      );
    }
    return out;
  }

  /** An open isolated position, its mark (entry when none yet) and how far its margin may move each way. */
  marginBounds(
    accountId: number,
    symbol: string,
    side: PositionSideValue,
  ): { position: PerpPosition; mark: number; maxAdd: bigint; maxRemove: bigint } {
    const c = this.contract(symbol);
    const position = this.stored(accountId, c.symbol, side).position;
    if (position.marginMode !== "isolated" || position.lots === 0)
      throw fail(FuturesCode.NOT_ISOLATED, "No open isolated position on that side");
    const mark = this.marks.markOf(c) ?? entryTicks(c, position);
    const spare = minBig(this.available(accountId), this.wallet(accountId));
    return {
      position,
      mark,
      maxAdd: spare > 0n ? spare : 0n,
      maxRemove: maxRemovableMargin(c, position, mark),
    };
  }

  /**
   * Binance's "Adjust Margin": moves USDT between the futures wallet and an isolated
   * position's margin. Adding takes at most the wallet's available margin (after open-order
   * reserves); reducing leaves at least the initial margin at the mark after any loss.
   */
  adjustMargin(
    accountId: number,
    symbol: string,
    side: PositionSideValue,
    direction: "ADD" | "REDUCE",
    amount: bigint,
  ): StoredPosition {
    const b = this.marginBounds(accountId, symbol, side);
    if (direction === "ADD" && amount > b.maxAdd)
      throw fail(FuturesCode.MARGIN_INSUFFICIENT, "Not enough available margin to add", {
        max: fromMinor("USDT", b.maxAdd),
      });
    const c = requirePerp(b.position.symbol);
    const r = adjustIsolatedMargin(c, b.position, direction === "ADD" ? "add" : "reduce", amount, b.mark);
    if (!r.ok) {
      const max = r.error.params.max;
      throw fail(
        refusalCode[r.error.code] ?? FuturesCode.ORDER_INVALID,
        `Margin change refused: ${r.error.code}`,
        max === undefined ? undefined : { max: fromMinor("USDT", BigInt(max)) },
      );
    }
    const refused = this.post(r.value.entry, accountId, null);
    if (refused !== null)
      throw fail(FuturesCode.MARGIN_INSUFFICIENT, "Not enough balance for the margin change");
    const before = this.stored(accountId, c.symbol, side);
    const next = { position: r.value.position, realisedPnl: before.realisedPnl };
    this.savePosition(next);
    this.syncWallet(accountId);
    return next;
  }

  /**
   * Replaces the position's take-profit and/or stop-loss (close-position trigger orders on
   * the mark). `clientOrderId` names the one leg set (refused with both).
   */
  setTpsl(
    accountId: number,
    symbol: string,
    positionSide: PositionSideValue,
    takeProfit: string | undefined,
    stopLoss: string | undefined,
    clientOrderId?: string,
  ): FutOrderRow[] {
    if (clientOrderId !== undefined && takeProfit !== undefined && stopLoss !== undefined)
      throw fail(FuturesCode.ORDER_INVALID, "A clientOrderId names one order: set TP and SL separately", {
        field: "clientOrderId",
      });
    const pos = this.stored(accountId, symbol, positionSide).position;
    if (pos.lots === 0) throw fail(FuturesCode.REDUCE_ONLY_REJECTED, "No position to protect");
    const side = pos.lots > 0 ? "SELL" : "BUY";
    const out: FutOrderRow[] = [];
    for (const [type, price] of [
      ["TAKE_PROFIT_MARKET", takeProfit],
      ["STOP_MARKET", stopLoss],
    ] as const) {
      if (price === undefined) continue;
      // The new leg first: a refused price then leaves the old one in place (nothing changed).
      const placed = this.place(accountId, {
        symbol,
        side,
        type,
        positionSide,
        stopPrice: price,
        closePosition: true,
        reduceOnly: true,
        ...(clientOrderId === undefined ? {} : { clientOrderId }),
      });
      for (const o of this.openOrdersOf(accountId))
        if (
          o.id !== placed.id &&
          o.symbol === placed.symbol &&
          o.positionSide === positionSide &&
          o.closePosition &&
          o.type === type
        )
          this.cancel(accountId, o.id, "REPLACED");
      out.push(placed);
    }
    return out;
  }

  // ---- the mark loop ------------------------------------------------------------------------

  /** After a mark or book move: triggers, resting limits, then the risk pass and liquidations. */
  onMarket(symbol: string): void {
    const c = perpContract(symbol);
    if (c === undefined) return;
    const mark = this.marks.markOf(c);
    if (mark !== undefined) {
      for (const o of [...this.open.values()]) {
        if (o.symbol !== symbol || o.stopTicks === null) continue;
        if (!triggered(o, mark)) continue;
        this.trigger(o);
      }
    }
    const top = this.book.top(c);
    for (const o of [...this.open.values()]) {
      if (o.symbol !== symbol || o.type !== "LIMIT" || o.priceTicks === null) continue;
      const crosses =
        o.side === "BUY" ? top.ask > 0 && top.ask <= o.priceTicks : top.bid > 0 && top.bid >= o.priceTicks;
      if (!crosses) continue;
      const left = o.qtyLots - o.filledLots;
      const r = this.fill(o, left, o.priceTicks, this.feeRates(o.accountId).makerPpm, true);
      if (r !== null) {
        o.status = "EXPIRED";
        o.reason = r.code;
      } else o.status = o.filledLots >= o.qtyLots ? "FILLED" : "PARTIALLY_FILLED";
      this.saveOrder(o);
    }
    this.riskPass();
  }

  private trigger(o: FutOrderRow): void {
    const pos = this.stored(o.accountId, o.symbol, o.positionSide).position;
    if (o.closePosition) o.qtyLots = Math.abs(pos.lots);
    if (o.qtyLots === 0 || (o.reduceOnly && pos.lots === 0)) {
      o.status = "EXPIRED";
      o.reason = "NO_POSITION";
      this.saveOrder(o);
      return;
    }
    if (o.reduceOnly) o.qtyLots = Math.min(o.qtyLots, Math.abs(pos.lots));
    this.take(o, null);
    o.status = o.filledLots >= o.qtyLots ? "FILLED" : "EXPIRED";
    this.saveOrder(o);
  }

  riskPass(): void {
    const marks = this.marks.marks();
    for (const [symbol, ticks] of marks) this.risk.setMark(symbol, ticks);
    const result = this.risk.pass();
    const byId = new Map<number, string>();
    for (const [key, id] of this.positionIds) byId.set(id, key);
    for (const id of result.isolated) {
      const key = byId.get(id);
      const p = key === undefined ? undefined : this.positions.get(key);
      const mark = p === undefined ? undefined : marks.get(p.position.symbol);
      if (p === undefined || mark === undefined) continue;
      const out = liquidateIsolated(p.position, mark);
      if (out.entry !== null) this.ledger().post(out.entry, p.position.accountId, null);
      this.closeLiquidated([p], new Map([[p.position.symbol, mark]]));
    }
    for (const accountId of result.crossAccounts) {
      const cross = this.positionsOf(accountId).filter(
        (p) => p.position.marginMode === "cross" && p.position.lots !== 0,
      );
      if (cross.length === 0) continue;
      const out = liquidateCross(
        accountId,
        this.wallet(accountId),
        cross.map((p) => p.position),
        marks,
      );
      if (out.entry !== null) this.ledger().post(out.entry, accountId, null);
      this.closeLiquidated(cross, marks);
    }
  }

  private closeLiquidated(list: readonly StoredPosition[], fills: ReadonlyMap<string, number>): void {
    for (const p of list) {
      const pos = p.position;
      const fill = fills.get(pos.symbol) ?? 0;
      const c = requirePerp(pos.symbol);
      for (const o of this.openOrdersOf(pos.accountId))
        if (o.symbol === pos.symbol && (pos.marginMode === "cross" || o.positionSide === pos.positionSide))
          this.cancel(pos.accountId, o.id, "LIQUIDATION");
      const n = notionalAt(c, pos.lots, fill);
      const pnl = pos.lots > 0 ? n - pos.cost : pos.cost - n;
      const lost = pos.marginMode === "isolated" ? -pos.isolatedMargin : pnl;
      const id = ++this.ids.order;
      const order: FutOrderRow = {
        id,
        accountId: pos.accountId,
        symbol: pos.symbol,
        side: pos.lots > 0 ? "SELL" : "BUY",
        positionSide: pos.positionSide,
        type: "MARKET",
        priceTicks: null,
        stopTicks: null,
        qtyLots: Math.abs(pos.lots),
        filledLots: Math.abs(pos.lots),
        filledNotional: n,
        reduceOnly: true,
        closePosition: true,
        clientOrderId: `#${id}`,
        status: "FILLED",
        reason: "LIQUIDATION",
        createdAt: this.now(),
        updatedAt: this.now(),
      };
      this.saveOrder(order);
      const trade: FutTradeRow = {
        id: ++this.ids.trade,
        orderId: order.id,
        accountId: pos.accountId,
        symbol: pos.symbol,
        side: order.side,
        positionSide: pos.positionSide,
        priceTicks: fill,
        qtyLots: Math.abs(pos.lots),
        realisedPnl: lost,
        fee: 0n,
        isMaker: false,
        liquidation: true,
        createdAt: this.now(),
      };
      this.w.trades.push(trade);
      this.changes.trades.push(trade);
      this.savePosition({
        position: { ...pos, lots: 0, cost: 0n, isolatedMargin: 0n },
        realisedPnl: p.realisedPnl + lost,
      });
      this.syncWallet(pos.accountId);
    }
  }

  /** Settles one funding interval for every open position of `symbol` at `rateE8`. */
  settleFunding(symbol: string, markTicks: number, rateE8: bigint): void {
    const c = perpContract(symbol);
    if (c === undefined) return;
    const list = [...this.positions.values()].filter(
      (p) => p.position.symbol === symbol && p.position.lots !== 0,
    );
    if (list.length === 0) return;
    const tx = this.ledger();
    const out = settleFunding(
      c,
      list.map((p) => p.position),
      markTicks,
      rateE8,
      (p) => (p.marginMode === "isolated" ? p.isolatedMargin : this.wallet(p.accountId)),
    );
    if (out.entry !== null && tx.post(out.entry, null, null) !== null) return;
    list.forEach((p, i) => {
      const paid = out.paid[i] ?? 0n;
      const position = out.positions[i] ?? p.position;
      if (paid === 0n) return;
      this.savePosition({ position, realisedPnl: p.realisedPnl - paid });
      this.syncWallet(position.accountId);
      const row: FundingRow = {
        id: ++this.ids.funding,
        accountId: position.accountId,
        symbol,
        positionSide: position.positionSide,
        rateE8,
        markTicks,
        amount: -paid,
        createdAt: this.now(),
      };
      this.w.funding.push(row);
      this.changes.funding.push(row);
    });
  }
}

/** A trigger order against the mark: a STOP_MARKET is a stop, any other trigger type a take-profit. */
function triggered(o: FutOrderRow, mark: number): boolean {
  return triggerReached(firesOnRise(o.side === "BUY", o.type !== "STOP_MARKET"), o.stopTicks ?? 0, mark);
}

/** Entry price in ticks (at least 1), for a position whose contract has no mark yet. */
function entryTicks(c: PerpContract, p: PerpPosition): number {
  const lots = BigInt(Math.max(1, Math.abs(p.lots)));
  const t = p.cost / (lots * c.minorPerTickLot);
  return t > 0n ? Number(t) : 1;
}

function lotsText(c: PerpContract, lots: number): string {
  const spec = c.instrument;
  const units = BigInt(lots) * spec.lotUnits;
  const s = units.toString().padStart(spec.qtyDecimals + 1, "0");
  return spec.qtyDecimals === 0
    ? s
    : `${s.slice(0, s.length - spec.qtyDecimals)}.${s.slice(s.length - spec.qtyDecimals)}`;
}
