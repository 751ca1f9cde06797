import {
  type ClosedPositionRecord,
  type FundingRecord,
  type FuturesAccount,
  FuturesCode,
  type FuturesMark,
  type FuturesOrder,
  type FuturesOrderBody,
  type FuturesOrderDetail,
  type FuturesOrderType,
  type FuturesPosition,
  type FuturesSettings,
  type FuturesTrade,
  type FuturesTransferBody,
  type InsuranceFund,
  type MarginAdjustType,
  type PositionMarginInfo,
  type PositionSideValue,
  type positionHistoryQuerySchema,
} from "@meridian/contracts";
import {
  adjustIsolatedMargin,
  closedPositions,
  DerivativesAccount,
  FUNDING_INTERVAL_MS,
  type MarginMode,
  nextFundingTime,
  PERP_CONTRACTS,
  perpContract,
  priceToTicks,
  toMinor,
} from "@meridian/domain";
import type { z } from "zod";
import { KeyedMutex } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { LedgerTx, LedgerWriter } from "../ledger/index.ts";
import type { PerpBook } from "./book.ts";
import { type Changes, type FeeRates, FuturesEngine } from "./engine.ts";
import { MarkBoard } from "./marks.ts";
import {
  presentAccount,
  presentClosedPosition,
  presentFunding,
  presentMarginInfo,
  presentMarks,
  presentOrder,
  presentPosition,
  presentTrade,
  usdtText,
} from "./present.ts";
import type { FutOrderRow, FuturesRepo, HistoryQuery } from "./repo.ts";
import { WalletTransferIds } from "./transfer-ids.ts";

const POSITION_HISTORY_FILLS = 50_000;

export interface FuturesEvents {
  accountId: number;
  account: FuturesAccount;
  positions: FuturesPosition[];
  orders: FuturesOrder[];
  fills: FuturesTrade[];
  funding: FundingRecord[];
}

export interface FuturesServiceOptions {
  /** The ledger writer its commands run in (`modules/ledger`). */
  ledger: LedgerWriter;
  repo: FuturesRepo;
  book: PerpBook;
  now?: () => number;
  /** Funding settlement interval (default 8 h; `FUNDING_INTERVAL_MS` for a demo). */
  fundingIntervalMs?: number;
  /** Each account's fee rates (its VIP tier's); default VIP 0's for everyone. */
  feeRates?: FeeRates;
  onError?: (error: unknown, msg: string) => void;
}

/** A positive USDT amount in minor units, or the envelope's invalid-amount refusal. */
function positiveUsdt(amount: string): bigint {
  const minor = toMinor("USDT", amount);
  if (minor === null || minor <= 0n)
    throw new AppError(FuturesCode.ORDER_INVALID, "Invalid amount", {
      status: 200,
      data: { field: "amount" },
    });
  return minor;
}

/** An order by its id or by the client's id. */
export type FuturesOrderRef = { id: number } | { clientOrderId: string };

/** Take-profit and stop-loss trigger prices placed with an order (close-position legs on the mark). */
export interface AttachedTpsl {
  takeProfit?: string | undefined;
  stopLoss?: string | undefined;
}

function perpContractOf(symbol: string) {
  const c = perpContract(symbol);
  if (c === undefined) throw new AppError(FuturesCode.UNKNOWN_SYMBOL, "Unknown perpetual", { status: 200 });
  return c;
}

/**
 * USDT-M perpetuals on paper. Commands run in the paper writer (one ledger, one journal,
 * one group commit for both modules); the mark loop follows the market's prices, and each
 * mark update runs triggers, resting limits and the risk pass (liquidations into
 * `system:insurance`). Funding settles on the interval's boundaries.
 */
export class FuturesService {
  readonly engine: FuturesEngine;
  readonly marks = new MarkBoard();
  readonly fundingIntervalMs: number;
  /** Wallet transfers with a client id (shared with the margin module's transfer). */
  readonly transferIds: WalletTransferIds;
  private readonly ledger: LedgerWriter;
  private readonly repo: FuturesRepo;
  private readonly book: PerpBook;
  private readonly now: () => number;
  private readonly onError: (error: unknown, msg: string) => void;
  private readonly listeners = new Set<(e: FuturesEvents) => void>();
  private readonly pending = new Set<string>();
  /** Placements with the same client order id run one after another (`once`). */
  private readonly orderIds = new KeyedMutex();
  private offs: Array<() => void> = [];
  private fundingTimer: NodeJS.Timeout | null = null;
  private following = false;
  /** The engine runs here (this instance is the writer, `start`). */
  private running = false;
  private closed = false;

  constructor(o: FuturesServiceOptions) {
    this.ledger = o.ledger;
    this.repo = o.repo;
    this.book = o.book;
    this.now = o.now ?? Date.now;
    this.onError = o.onError ?? (() => {});
    this.fundingIntervalMs = o.fundingIntervalMs ?? FUNDING_INTERVAL_MS;
    this.transferIds = new WalletTransferIds(o.repo.db, this.now);
    this.engine = new FuturesEngine(
      o.book,
      this.marks,
      this.now,
      (a, asset) => this.ledger.ledgerBalance(a, asset),
      o.feeRates,
    );
  }

  /**
   * Follows the market's prices into the marks (every instance: marks are market data;
   * `start` adds the engine's pass on each move, on the writer).
   */
  followMarks(): void {
    if (this.following) return;
    this.following = true;
    for (const c of PERP_CONTRACTS) {
      const top = this.book.top(c);
      this.marks.update(c, this.book.index(c), top.bid, top.ask);
    }
    this.offs.push(this.book.onPrice((symbol) => this.onPrice(symbol)));
  }

  async start(): Promise<void> {
    await this.ledger.flush();
    this.engine.load(await this.repo.load());
    this.followMarks();
    this.running = true;
    this.offs.push(
      this.ledger.onRebuilt(() => {
        void this.repo
          .load()
          .then((s) => this.engine.load(s))
          .catch((e: unknown) => this.onError(e, "futures reload failed"));
      }),
    );
    this.scheduleFunding();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const off of this.offs) off();
    if (this.fundingTimer !== null) clearTimeout(this.fundingTimer);
  }

  onEvents(listener: (e: FuturesEvents) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async exec<T>(fn: (tx: LedgerTx) => T): Promise<T> {
    const out = await this.ledger.transact((tx) => {
      const r = this.engine.run(tx, () => fn(tx));
      const now = this.now();
      tx.write((db) => this.repo.write(db, r.writes, now));
      return r;
    });
    this.publish(out.changes);
    return out.value;
  }

  private publish(ch: Changes): void {
    if (this.listeners.size === 0) return;
    for (const accountId of ch.accounts) {
      const e: FuturesEvents = {
        accountId,
        account: this.account(accountId),
        positions: this.positions(accountId),
        orders: ch.orders.filter((o) => o.accountId === accountId).map(presentOrder),
        fills: ch.trades.filter((t) => t.accountId === accountId).map(presentTrade),
        funding: ch.funding.filter((f) => f.accountId === accountId).map(presentFunding),
      };
      for (const l of this.listeners) l(e);
    }
  }

  // ---- the mark loop and funding ----------------------------------------------------------

  private onPrice(symbol: string): void {
    const c = perpContract(symbol);
    if (c === undefined || this.closed) return;
    const top = this.book.top(c);
    this.marks.update(c, this.book.index(c), top.bid, top.ask);
    if (this.running) this.runMarket(symbol);
  }

  private runMarket(symbol: string): void {
    if (!this.engine.hasActivity(symbol) || this.pending.has(symbol)) return;
    this.pending.add(symbol);
    void this.exec(() => {
      this.pending.delete(symbol);
      this.engine.onMarket(symbol);
    }).catch((e: unknown) => {
      this.pending.delete(symbol);
      this.onError(e, "futures mark pass failed");
    });
  }

  /** Test-only: pins (or with null unpins) a mark price and runs the pass at once. */
  async pinMark(symbol: string, price: string | null): Promise<FuturesMark[]> {
    const c = perpContract(symbol);
    if (c === undefined) throw new AppError(FuturesCode.UNKNOWN_SYMBOL, "Unknown perpetual", { status: 200 });
    let ticks: number | null = null;
    if (price !== null) {
      const r = priceToTicks(c.instrument, price);
      if (!r.ok) throw new AppError(FuturesCode.ORDER_INVALID, "Invalid price", { status: 200 });
      ticks = r.value;
    }
    this.marks.pin(c, ticks);
    await this.exec(() => this.engine.onMarket(symbol));
    return this.marksList();
  }

  nextFunding(): number {
    return nextFundingTime(this.now(), this.fundingIntervalMs);
  }

  private scheduleFunding(): void {
    if (this.closed) return;
    const wait = Math.max(0, this.nextFunding() - this.now());
    this.fundingTimer = setTimeout(() => {
      void this.settleFunding()
        .catch((e: unknown) => this.onError(e, "funding settlement failed"))
        .finally(() => this.scheduleFunding());
    }, wait + 5);
    this.fundingTimer.unref();
  }

  /** Settles the running interval for every contract (the timer, or tests). */
  async settleFunding(): Promise<void> {
    await this.exec(() => {
      for (const c of PERP_CONTRACTS) {
        const rate = this.marks.takeRate(c, this.fundingIntervalMs);
        const mark = this.marks.markOf(c);
        if (mark !== undefined) this.engine.settleFunding(c.symbol, mark, rate);
      }
    });
  }

  // ---- commands ---------------------------------------------------------------------------

  /**
   * Runs `place` unless the account already has an order with `clientOrderId`: then
   * answers that order. On the writer, commands with the same id run one after another
   * and each looks the id up after the one before it committed, so a retry (a lost
   * answer, a failover, two requests at once) never places a second order.
   */
  private async once<T>(
    accountId: number,
    clientOrderId: string | undefined,
    place: () => Promise<T>,
    stored: (row: FutOrderRow) => T,
  ): Promise<T> {
    if (clientOrderId === undefined) return place();
    return this.orderIds.run(`${accountId}\u0000${clientOrderId}`, async () => {
      const row = await this.repo.orderByClientId(accountId, clientOrderId);
      return row === undefined ? place() : stored(row);
    });
  }

  /**
   * Places an order; `attached` adds its take-profit and stop-loss legs in the same
   * command (one commit: a retry with the order's client id finds them placed too).
   */
  async place(accountId: number, body: FuturesOrderBody, attached: AttachedTpsl = {}): Promise<FuturesOrder> {
    const legs: Array<[FuturesOrderType, string]> = [];
    if (attached.takeProfit !== undefined) legs.push(["TAKE_PROFIT_MARKET", attached.takeProfit]);
    if (attached.stopLoss !== undefined) legs.push(["STOP_MARKET", attached.stopLoss]);
    // The legs' prices are checked before anything runs: a refusal after the order filled would half-apply.
    for (const [, price] of legs)
      if (!priceToTicks(perpContractOf(body.symbol).instrument, price).ok)
        throw new AppError(FuturesCode.ORDER_INVALID, "Invalid take-profit or stop-loss price", {
          status: 200,
          data: { field: "stopPrice" },
        });
    return this.once(
      accountId,
      body.clientOrderId,
      async () =>
        presentOrder(
          await this.exec(() => {
            const order = this.engine.place(accountId, body);
            for (const [type, stopPrice] of legs)
              this.engine.place(accountId, {
                symbol: order.symbol,
                side: order.side === "BUY" ? "SELL" : "BUY",
                positionSide: order.positionSide,
                type,
                stopPrice,
                closePosition: true,
              });
            return order;
          }),
        ),
      presentOrder,
    );
  }

  private async orderRow(accountId: number, ref: FuturesOrderRef): Promise<FutOrderRow | undefined> {
    return "id" in ref
      ? this.repo.order(accountId, ref.id)
      : this.repo.orderByClientId(accountId, ref.clientOrderId);
  }

  async cancel(accountId: number, ref: FuturesOrderRef): Promise<FuturesOrder> {
    const id = "id" in ref ? ref.id : (await this.orderRow(accountId, ref))?.id;
    const o = id === undefined ? null : await this.exec(() => this.engine.cancel(accountId, id));
    if (o !== null) return presentOrder(o);
    const row = id === undefined ? undefined : await this.repo.order(accountId, id);
    if (row === undefined)
      throw new AppError(FuturesCode.ORDER_NOT_FOUND, "Order not found", { status: 200 });
    throw new AppError(FuturesCode.ORDER_NOT_OPEN, `Order is ${row.status}`, {
      status: 200,
      data: presentOrder(row),
    });
  }

  async closeAll(accountId: number, symbol?: string): Promise<FuturesOrder[]> {
    return (await this.exec(() => this.engine.closeAll(accountId, symbol))).map(presentOrder);
  }

  async setTpsl(
    accountId: number,
    body: {
      symbol: string;
      positionSide: PositionSideValue;
      takeProfit?: string | undefined;
      stopLoss?: string | undefined;
      /** Names the one leg set (the bot API's TP/SL order); refused with both. */
      clientOrderId?: string | undefined;
    },
  ): Promise<FuturesOrder[]> {
    return this.once(
      accountId,
      body.clientOrderId,
      async () => {
        const list = await this.exec(() =>
          this.engine.setTpsl(
            accountId,
            body.symbol,
            body.positionSide,
            body.takeProfit,
            body.stopLoss,
            body.clientOrderId,
          ),
        );
        return list.map(presentOrder);
      },
      (row) => [presentOrder(row)],
    );
  }

  /** Spot <-> futures wallet; with `clientTransferId`, made once however often it is sent. */
  async transfer(accountId: number, body: FuturesTransferBody): Promise<FuturesAccount> {
    const minor = toMinor("USDT", body.amount);
    if (minor === null || minor <= 0n)
      throw new AppError(FuturesCode.TRANSFER_EXCEEDS, "Invalid amount", {
        status: 200,
        data: { field: "amount" },
      });
    const [from, to] = body.direction === "IN" ? ["SPOT", "FUTURES"] : ["FUTURES", "SPOT"];
    return this.transferIds.once(
      accountId,
      body.clientTransferId,
      async (record) => {
        await this.exec((tx) => {
          this.engine.transfer(accountId, body.direction, minor);
          record?.(tx, { tranId: 0, from, to, asset: "USDT", amount: minor });
        });
        return this.account(accountId);
      },
      () => this.account(accountId),
    );
  }

  /**
   * Futures wallet to futures wallet between a master and its sub-account; `record` adds
   * the caller's rows to the same commit.
   */
  async subTransfer(from: number, to: number, amount: bigint, record: (tx: LedgerTx) => void): Promise<void> {
    await this.exec((tx) => {
      this.engine.subTransfer(from, to, amount);
      record(tx);
    });
  }

  async adjustMargin(
    accountId: number,
    body: { symbol: string; positionSide: PositionSideValue; type: MarginAdjustType; amount: string },
  ): Promise<FuturesPosition> {
    const minor = positiveUsdt(body.amount);
    const stored = await this.exec(() =>
      this.engine.adjustMargin(accountId, body.symbol, body.positionSide, body.type, minor),
    );
    const shown = this.positions(accountId).find(
      (p) => p.symbol === stored.position.symbol && p.positionSide === stored.position.positionSide,
    );
    if (shown === undefined) throw new Error("adjusted position vanished");
    return shown;
  }

  /** The adjust-margin dialog's figures; with a type and amount, the position as it would be after. */
  marginInfo(
    accountId: number,
    q: {
      symbol: string;
      positionSide: PositionSideValue;
      type?: MarginAdjustType | undefined;
      amount?: string | undefined;
    },
  ): PositionMarginInfo {
    const b = this.engine.marginBounds(accountId, q.symbol, q.positionSide);
    let after = null;
    const minor = q.amount === undefined ? null : toMinor("USDT", q.amount);
    if (q.type !== undefined && minor !== null && minor > 0n) {
      const within = q.type === "ADD" ? minor <= b.maxAdd : minor <= b.maxRemove;
      const r = adjustIsolatedMargin(
        perpContractOf(b.position.symbol),
        b.position,
        q.type === "ADD" ? "add" : "reduce",
        minor,
        b.mark,
      );
      if (within && r.ok) after = r.value.position;
    }
    return presentMarginInfo(b.position, b.mark, b.maxAdd, b.maxRemove, after);
  }

  async setLeverage(accountId: number, symbol: string, leverage: number): Promise<FuturesSettings> {
    await this.exec(() => this.engine.setLeverage(accountId, symbol, leverage));
    return this.settings(accountId, symbol);
  }

  async setMarginMode(accountId: number, symbol: string, mode: MarginMode): Promise<FuturesSettings> {
    await this.exec(() => this.engine.setMarginMode(accountId, symbol, mode));
    return this.settings(accountId, symbol);
  }

  async setPositionMode(accountId: number, dual: boolean): Promise<{ dualSidePosition: boolean }> {
    await this.exec(() => this.engine.setPositionMode(accountId, dual));
    return { dualSidePosition: dual };
  }

  // ---- reads --------------------------------------------------------------------------------

  settings(accountId: number, symbol: string): FuturesSettings {
    const c = perpContract(symbol);
    if (c === undefined) throw new AppError(FuturesCode.UNKNOWN_SYMBOL, "Unknown perpetual", { status: 200 });
    const s = this.engine.settingOf(accountId, c.symbol);
    return {
      symbol: c.symbol,
      leverage: s.leverage,
      maxLeverage: c.maxLeverage,
      marginMode: s.marginMode,
      dualSidePosition: this.engine.isDual(accountId),
    };
  }

  /** The account's settings on every perpetual (one call: the bot API presents orders of any symbol). */
  settingsAll(accountId: number): FuturesSettings[] {
    return PERP_CONTRACTS.map((c) => this.settings(accountId, c.symbol));
  }

  account(accountId: number): FuturesAccount {
    return presentAccount({
      wallet: this.engine.wallet(accountId),
      positions: this.engine.positionsOf(accountId),
      marks: this.marks.marks(),
      available: this.engine.available(accountId),
      dual: this.engine.isDual(accountId),
    });
  }

  positions(accountId: number): FuturesPosition[] {
    const all = this.engine.positionsOf(accountId);
    const marks = this.marks.marks();
    const wallet = this.engine.wallet(accountId);
    const orders = this.engine.openOrdersOf(accountId);
    return all
      .filter((p) => p.position.lots !== 0)
      .map((p) => {
        const mine = orders.filter(
          (o) =>
            o.symbol === p.position.symbol && o.positionSide === p.position.positionSide && o.closePosition,
        );
        const tp = mine.find((o) => o.type === "TAKE_PROFIT_MARKET");
        const sl = mine.find((o) => o.type === "STOP_MARKET");
        return presentPosition(p, wallet, all, marks, {
          takeProfit: tp === undefined ? null : presentOrder(tp).stopPrice,
          stopLoss: sl === undefined ? null : presentOrder(sl).stopPrice,
        });
      });
  }

  /** One order of the account by its id or client id (the bot API's order lookup), or undefined. */
  async order(accountId: number, ref: FuturesOrderRef): Promise<FuturesOrder | undefined> {
    const row = await this.orderRow(accountId, ref);
    return row === undefined ? undefined : presentOrder(row);
  }

  async openOrders(q: HistoryQuery): Promise<FuturesOrder[]> {
    return (await this.repo.orders(q, true)).map(presentOrder);
  }

  async orderHistory(q: HistoryQuery): Promise<FuturesOrder[]> {
    return (await this.repo.orders(q, false)).map(presentOrder);
  }

  async trades(q: HistoryQuery): Promise<FuturesTrade[]> {
    return (await this.repo.trades(q)).map(presentTrade);
  }

  /** One order of the account with its fills (/order/mcp); ORDER_NOT_FOUND for another account's. */
  async orderDetail(accountId: number, id: number): Promise<FuturesOrderDetail> {
    const order = await this.repo.order(accountId, id);
    if (order === undefined)
      throw new AppError(FuturesCode.ORDER_NOT_FOUND, "Order not found", { status: 200 });
    const fills = await this.repo.trades({ accountId, orderId: id, limit: 1000 });
    const pnl = fills.reduce((s, f) => s + f.realisedPnl, 0n);
    const fee = fills.reduce((s, f) => s + f.fee, 0n);
    return {
      order: presentOrder(order),
      fills: fills.map(presentTrade),
      realisedPnl: usdtText(pnl),
      fee: usdtText(fee),
    };
  }

  /**
   * Closed positions replayed from the account's fills, newest first (/record/mcp). Reads
   * up to POSITION_HISTORY_FILLS fills: a paper account past that sees its latest history.
   */
  async positionHistory(accountId: number, q: z.output<typeof positionHistoryQuerySchema>) {
    const rows = await this.repo.trades({ accountId, symbol: q.symbol, limit: POSITION_HISTORY_FILLS });
    rows.reverse();
    const closed = closedPositions(
      rows.map((r) => ({
        symbol: r.symbol,
        positionSide: r.positionSide,
        side: r.side,
        lots: r.qtyLots,
        ticks: r.priceTicks,
        realisedPnl: r.realisedPnl,
        fee: r.fee,
        liquidation: r.liquidation,
        time: r.createdAt,
      })),
    );
    const before = q.before;
    return closed
      .filter((c) => before === undefined || c.closeTime < before)
      .slice(0, q.limit)
      .map(presentClosedPosition) satisfies ClosedPositionRecord[];
  }

  async funding(q: HistoryQuery): Promise<FundingRecord[]> {
    return (await this.repo.funding(q)).map(presentFunding);
  }

  insuranceFund(): InsuranceFund {
    return {
      asset: "USDT",
      balance: usdtText(this.ledger.ledgerBalance(DerivativesAccount.Insurance, "USDT")),
      time: this.now(),
    };
  }

  marksList(): FuturesMark[] {
    return presentMarks(
      (c) => this.marks.markOf(c),
      (c) => this.marks.indexOf(c),
      (c) => this.marks.rateOf(c, this.fundingIntervalMs),
      this.nextFunding(),
    );
  }
}
