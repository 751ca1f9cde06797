import type {
  FundingRecord,
  FuturesAccount,
  FuturesMark,
  FuturesOrder,
  FuturesOrderBody,
  FuturesOrderDetail,
  FuturesPosition,
  FuturesSettings,
  FuturesTrade,
  FuturesTransferBody,
  InsuranceFund,
  PositionMarginInfo,
} from "@meridian/contracts";
import { FuturesCode } from "@meridian/contracts";
import {
  ALL_PERP_CONTRACTS,
  type AnyPerpContract,
  anyPerpContract,
  FUNDING_INTERVAL_MS,
  type KlineInterval,
  type MarginMode,
  type PerpFamily,
  priceToTicks,
  spotSymbolOf,
  ticksToPrice,
  USDT,
} from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import { type LedgerTx, type LedgerWriter, queuedBatchWriter } from "../ledger/index.ts";
import type { PerpBook } from "./book.ts";
import { type AttachedTpsl, FuturesCommands, type FuturesTransferDone } from "./commands.ts";
import { type Changes, type FeeRates, FuturesEngine } from "./engine.ts";
import { FuturesHistory, type FuturesOrderRef } from "./history.ts";
import { MarkBoard, type MarkPriceKind } from "./marks.ts";
import { presentFunding, presentOrder, presentTrade } from "./present.ts";
import type {
  FundingRateRow,
  FuturesRepo,
  FuturesWrites,
  HistoryQuery,
  TransferQuery,
  TransferRecordRow,
  TransferRow,
} from "./repo.ts";
import { WalletTransferIds } from "./transfer-ids.ts";
import { FuturesViews, perpContractOf } from "./views.ts";

/** One mark or index candle, prices as decimal strings. */
export interface MarkCandle {
  openTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

export interface FuturesEvents {
  accountId: number;
  /** The USDT-M wallet. */
  account: FuturesAccount;
  /** The coin-M wallets in use (`coinWalletsInUse`), after the USDT-M one. */
  coinWallets: FuturesAccount[];
  /** Both families' positions. */
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

/**
 * USDT-M and coin-M perpetuals on paper. Commands run in the paper writer (one ledger, one journal,
 * one group commit for both modules); the mark loop follows the market's prices, and each
 * mark update runs triggers, resting limits and the risk pass (liquidations into
 * `system:insurance`). Funding settles on the interval's boundaries.
 *
 * The service is the module's one surface and its lifecycle (start, the mark loop, the
 * funding timer, the stream after each commit); the work is in its parts:
 * `FuturesCommands` (orders, cancels, TP/SL, transfers, margin and settings),
 * `FuturesViews` (the engine's memory as answers) and `FuturesHistory` (committed rows).
 */
export class FuturesService {
  readonly engine: FuturesEngine;
  readonly marks = new MarkBoard(() => this.now());
  readonly fundingIntervalMs: number;
  /** Wallet transfers with a client id (shared with the margin module's transfer). */
  readonly transferIds: WalletTransferIds;
  private readonly ledger: LedgerWriter;
  private readonly repo: FuturesRepo;
  private readonly book: PerpBook;
  private readonly now: () => number;
  private readonly onError: (error: unknown, msg: string) => void;
  private readonly views: FuturesViews;
  private readonly history: FuturesHistory;
  private readonly commands: FuturesCommands;
  private readonly listeners = new Set<(e: FuturesEvents) => void>();
  private readonly pending = new Set<string>();
  /** The rows of the commands since the last commit: the futures batch writer's batch. */
  /** Queues a command's rows for the next commit (the ledger's batch writer "futures"). */
  private readonly queueWrites: (writes: FuturesWrites, now: number) => void;
  private offs: Array<() => void> = [];
  private fundingTimer: NodeJS.Timeout | null = null;
  /** When the funding timer fires (a live exchange's next funding time may move it). */
  private fundingAt = 0;
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
    const batches = queuedBatchWriter<FuturesWrites>("futures", (tx, writes, now) =>
      this.repo.write(tx, writes, now),
    );
    this.queueWrites = batches.push;
    o.ledger.register(batches.writer);
    this.engine = new FuturesEngine(
      o.book,
      this.marks,
      this.now,
      (a, asset) => this.ledger.ledgerBalance(a, asset),
      o.feeRates,
    );
    this.views = new FuturesViews({
      engine: this.engine,
      marks: this.marks,
      ledger: o.ledger,
      now: this.now,
      fundingIntervalMs: this.fundingIntervalMs,
    });
    this.history = new FuturesHistory(o.repo);
    this.commands = new FuturesCommands({
      engine: this.engine,
      repo: o.repo,
      views: this.views,
      history: this.history,
      transferIds: this.transferIds,
      exec: (fn) => this.exec(fn),
    });
  }

  /**
   * Follows the market's prices into the marks (every instance: marks are market data;
   * `start` adds the engine's pass on each move, on the writer).
   */
  followMarks(): void {
    if (this.following) return;
    this.following = true;
    for (const c of ALL_PERP_CONTRACTS) this.refreshMark(c);
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
    this.followExchange();
    this.scheduleFunding();
  }

  /**
   * A live feed (docs/trading.md, "Live prices: the fill model"): each batch of a pair's
   * printed trades is one command per perpetual with orders in the exchange's queue,
   * queued behind the commands already submitted; each mirrored book refreshes what
   * earlier orders took from it.
   */
  private followExchange(): void {
    const byPair = new Map<string, AnyPerpContract[]>();
    for (const c of ALL_PERP_CONTRACTS)
      byPair.set(spotSymbolOf(c), [...(byPair.get(spotSymbolOf(c)) ?? []), c]);
    const following = (pair: string): readonly AnyPerpContract[] => byPair.get(pair) ?? [];
    const offTrades = this.book.onExchangeTrades?.((pair, trades, times) => {
      if (this.closed) return;
      for (const c of following(pair)) {
        if (!this.engine.waitsForPrints(c.symbol)) continue;
        void this.exec(() => this.engine.exchangeTrades(c.symbol, trades, times)).catch((e: unknown) =>
          this.onError(e, "futures queue fills failed"),
        );
      }
    });
    const offBooks = this.book.onShownBook?.((pair) => {
      for (const c of following(pair)) this.engine.onBook(c.symbol);
    });
    if (offTrades !== undefined) this.offs.push(offTrades);
    if (offBooks !== undefined) this.offs.push(offBooks);
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
      this.queueWrites(r.writes, this.now());
      return r;
    });
    this.publish(out.changes);
    return out.value;
  }

  /**
   * A transfer of a futures wallet (`asset` USDT: the USDT-M one; a coin: its coin-M one)
   * inside another module's command (margin's wallet transfer): the engine moves the money
   * in `tx`, and its row joins this module's batch, so both land in that command's commit.
   * Answers the transfer's id.
   */
  transferIn(
    tx: LedgerTx,
    accountId: number,
    direction: "IN" | "OUT",
    amount: bigint,
    other: { wallet: string; symbol?: string | undefined },
    asset: string = USDT,
  ): number {
    const r = this.engine.run(tx, () => this.engine.transfer(accountId, direction, amount, other, asset));
    this.queueWrites(r.writes, this.now());
    return r.value;
  }

  /**
   * Records a wallet transfer that does not touch the futures wallet (spot and margin
   * wallets, moved by the margin module in `tx`), so every wallet transfer takes its id
   * from one sequence and lists in one place. Answers the id.
   */
  recordTransfer(tx: LedgerTx, t: Omit<TransferRow, "id" | "createdAt">): number {
    const r = this.engine.run(tx, () => this.engine.recordTransfer(t));
    this.queueWrites(r.writes, this.now());
    return r.value;
  }

  private publish(ch: Changes): void {
    if (this.listeners.size === 0) return;
    for (const accountId of ch.accounts) {
      const e: FuturesEvents = {
        accountId,
        account: this.account(accountId),
        coinWallets: this.views.coinWalletsInUse(accountId),
        positions: this.positions(accountId),
        orders: ch.orders.filter((o) => o.accountId === accountId).map(presentOrder),
        fills: ch.trades.filter((t) => t.accountId === accountId).map(presentTrade),
        funding: ch.funding.filter((f) => f.accountId === accountId).map(presentFunding),
      };
      for (const l of this.listeners) l(e);
    }
  }

  // ---- the mark loop and funding ----------------------------------------------------------

  /** A spot pair's price moved: every perpetual following it (BTCUSDT and BTCUSD follow BTCUSDT). */
  private onPrice(symbol: string): void {
    if (this.closed) return;
    for (const c of ALL_PERP_CONTRACTS) {
      if (spotSymbolOf(c) !== symbol) continue;
      this.refreshMark(c);
      if (this.running) this.runMarket(c.symbol);
    }
    if (!this.running) return;
    if (this.fundingTimer !== null && this.nextFunding() !== this.fundingAt) this.scheduleFunding();
  }

  /** The exchange's mark when a live feed gives one, else the domain's mark from index and book. */
  private refreshMark(c: AnyPerpContract): void {
    const ex = this.book.exchange?.(c);
    if (ex?.mark !== undefined) {
      this.marks.setExchange(c, ex.mark, ex.index ?? this.book.index(c), ex.rateE8);
      return;
    }
    const top = this.book.top(c);
    this.marks.update(c, this.book.index(c), top.bid, top.ask);
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
    const c = perpContractOf(symbol);
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

  /** The next settlement: a live exchange's next funding time when it gives one, else every interval. */
  nextFunding(): number {
    const now = this.now();
    let next: number | undefined;
    for (const c of ALL_PERP_CONTRACTS) {
      const t = this.book.exchange?.(c)?.nextFundingTime;
      if (t !== undefined && t > now && (next === undefined || t < next)) next = t;
    }
    return next ?? this.views.nextFunding();
  }

  private scheduleFunding(): void {
    if (this.closed) return;
    if (this.fundingTimer !== null) clearTimeout(this.fundingTimer);
    this.fundingAt = this.nextFunding();
    const wait = Math.max(0, this.fundingAt - this.now());
    this.fundingTimer = setTimeout(() => {
      void this.settleFunding()
        .catch((e: unknown) => this.onError(e, "funding settlement failed"))
        .finally(() => this.scheduleFunding());
    }, wait + 5);
    this.fundingTimer.unref();
  }

  /** Settles the running interval for every contract (the timer, or tests). */
  async settleFunding(): Promise<void> {
    // The rate is recorded as of the boundary the timer was set for (it fires just after).
    const now = this.now();
    const at = this.fundingAt > 0 && this.fundingAt <= now ? this.fundingAt : now;
    await this.exec(() => {
      for (const c of ALL_PERP_CONTRACTS) {
        const rate = this.marks.takeRate(c, this.fundingIntervalMs);
        const mark = this.marks.markOf(c);
        if (mark !== undefined) this.engine.settleFunding(c.symbol, mark, rate, at);
      }
    });
  }

  /** A perpetual's settled funding rates, newest first (committed rows; any instance). */
  fundingRates(symbol: string, limit: number, offset = 0): Promise<FundingRateRow[]> {
    return this.repo.fundingRates(symbol, limit, offset);
  }

  // ---- commands (`FuturesCommands`) -------------------------------------------------------

  /** Places an order, with `attached` TP/SL legs in the same command; once per client order id. */
  place(accountId: number, body: FuturesOrderBody, attached?: AttachedTpsl): Promise<FuturesOrder> {
    return this.commands.place(accountId, body, attached);
  }

  cancel(accountId: number, ref: FuturesOrderRef): Promise<FuturesOrder> {
    return this.commands.cancel(accountId, ref);
  }

  closeAll(accountId: number, symbol?: string): Promise<FuturesOrder[]> {
    return this.commands.closeAll(accountId, symbol);
  }

  setTpsl(...args: Parameters<FuturesCommands["setTpsl"]>): Promise<FuturesOrder[]> {
    return this.commands.setTpsl(...args);
  }

  /** Spot <-> futures wallet; with `clientTransferId`, made once however often it is sent. */
  transfer(accountId: number, body: FuturesTransferBody): Promise<FuturesTransferDone> {
    return this.commands.transfer(accountId, body);
  }

  /** Futures wallet to futures wallet of one asset between a master and its sub-account (`FuturesCommands.subTransfer`). */
  subTransfer(
    from: number,
    to: number,
    amount: bigint,
    record: (tx: LedgerTx) => void,
    asset: string = USDT,
  ): Promise<void> {
    return this.commands.subTransfer(from, to, amount, record, asset);
  }

  adjustMargin(...args: Parameters<FuturesCommands["adjustMargin"]>): Promise<FuturesPosition> {
    return this.commands.adjustMargin(...args);
  }

  setLeverage(accountId: number, symbol: string, leverage: number): Promise<FuturesSettings> {
    return this.commands.setLeverage(accountId, symbol, leverage);
  }

  setMarginMode(accountId: number, symbol: string, mode: MarginMode): Promise<FuturesSettings> {
    return this.commands.setMarginMode(accountId, symbol, mode);
  }

  setPositionMode(accountId: number, dual: boolean): Promise<{ dualSidePosition: boolean }> {
    return this.commands.setPositionMode(accountId, dual);
  }

  // ---- the engine's memory (`FuturesViews`) -----------------------------------------------

  /** The adjust-margin dialog's figures; with a type and amount, the position as it would be after. */
  marginInfo(...args: Parameters<FuturesViews["marginInfo"]>): PositionMarginInfo {
    return this.views.marginInfo(...args);
  }

  settings(accountId: number, symbol: string): FuturesSettings {
    return this.views.settings(accountId, symbol);
  }

  /** The account's settings on every perpetual (one call: the bot API presents orders of any symbol). */
  settingsAll(accountId: number): FuturesSettings[] {
    return this.views.settingsAll(accountId);
  }

  /** One futures wallet: USDT-M (the default), or a coin's coin-M one. */
  account(accountId: number, asset: string = USDT): FuturesAccount {
    return this.views.account(accountId, asset);
  }

  /** Every futures wallet of the account, or one family's. */
  wallets(accountId: number, family?: PerpFamily): FuturesAccount[] {
    return this.views.wallets(accountId, family);
  }

  /** The coin-M wallets with money, a position or an open order (the futures stream's). */
  coinWalletsInUse(accountId: number): FuturesAccount[] {
    return this.views.coinWalletsInUse(accountId);
  }

  /** Open positions of both families, or of one. */
  positions(accountId: number, family?: PerpFamily): FuturesPosition[] {
    return this.views.positions(accountId, family);
  }

  openInterest(symbol: string): { symbol: string; size: string; time: number } {
    return this.views.openInterest(symbol);
  }

  insuranceFund(asset: string = USDT): InsuranceFund {
    return this.views.insuranceFund(asset);
  }

  /**
   * A perpetual's mark or index candles as prices (this instance's mark model; no
   * volume), oldest first; undefined for an unknown perpetual.
   */
  markCandles(
    kind: MarkPriceKind,
    symbol: string,
    interval: KlineInterval,
    limit: number,
    endTime?: number,
  ): MarkCandle[] | undefined {
    const c = anyPerpContract(symbol);
    if (c === undefined) return undefined;
    const price = (ticks: number) => ticksToPrice(c.instrument, ticks);
    return this.marks.candlesOf(kind, c, interval, limit, endTime).map((k) => ({
      openTime: k.openTime,
      open: price(k.open),
      high: price(k.high),
      low: price(k.low),
      close: price(k.close),
    }));
  }

  marksList(family?: PerpFamily): FuturesMark[] {
    const list = this.views.marksList(family);
    const next = this.nextFunding();
    // A live exchange's funding time replaces Meridian's own interval.
    return list[0] === undefined || list[0].nextFundingTime === next
      ? list
      : list.map((m) => ({ ...m, nextFundingTime: next }));
  }

  // ---- committed rows (`FuturesHistory`) --------------------------------------------------

  /** One order of the account by its id or client id (the bot API's order lookup), or undefined. */
  order(accountId: number, ref: FuturesOrderRef): Promise<FuturesOrder | undefined> {
    return this.history.order(accountId, ref);
  }

  openOrders(q: HistoryQuery): Promise<FuturesOrder[]> {
    return this.history.openOrders(q);
  }

  orderHistory(q: HistoryQuery): Promise<FuturesOrder[]> {
    return this.history.orderHistory(q);
  }

  trades(q: HistoryQuery): Promise<FuturesTrade[]> {
    return this.history.trades(q);
  }

  /** One order of the account with its fills (/order/mcp); ORDER_NOT_FOUND for another account's. */
  orderDetail(accountId: number, id: number): Promise<FuturesOrderDetail> {
    return this.history.orderDetail(accountId, id);
  }

  /** Closed positions replayed from the account's fills, newest first (/record/mcp). */
  positionHistory(...args: Parameters<FuturesHistory["positionHistory"]>) {
    return this.history.positionHistory(...args);
  }

  /** An account's wallet transfers (every wallet, with their ids), newest first; committed rows. */
  transfers(q: TransferQuery): Promise<TransferRecordRow[]> {
    return this.repo.transfers(q);
  }

  funding(q: HistoryQuery): Promise<FundingRecord[]> {
    return this.history.funding(q);
  }
}
