import {
  type PaperAccount,
  type PaperBalance,
  PaperCode,
  type PaperFees,
  type PaperOrder,
  type PaperTrade,
  type PlaceOrderBody,
  type PlaceOrderResult,
} from "@meridian/contracts";
import { availableOf, type FeeSchedule, VIP_TIERS } from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import type { ClientOrderRef, LedgerService, LedgerTx, StoredOrders } from "../ledger/index.ts";
import { PaperEngine } from "./engine.ts";
import { publishCommit, type UserEvents } from "./events.ts";
import { answerPlacement } from "./placement.ts";
import { presentBalances, presentOrder, presentTier, presentTrade } from "./present.ts";
import type { OrderQuery, PaperRepo } from "./repo.ts";
import { emptyOrderBatch, type OrderBatch, type OrderRow, orderBatchIsEmpty, type TradeRow } from "./rows.ts";
import type { OrderReader, PaperTx, Placement, SpotForMargin } from "./spot-for-margin.ts";
import type { PaperVenue } from "./venue.ts";

export interface PaperServiceOptions {
  repo: PaperRepo;
  venue: PaperVenue;
  /** The ledger writer its commands run in; the spot rows are one of its batch writers. */
  ledger: LedgerService;
  /** The rates an order pays (the VIP module's schedule). */
  fees: FeeSchedule;
  now?: () => number;
  onError?: (error: unknown, msg: string) => void;
}

/**
 * The spot order service. Its engine holds the open orders and the spot books; its
 * commands run in the ledger writer (`modules/ledger`), where its orders and trades are
 * one batch writer of the group commit, beside margin's and futures' rows.
 */
export class PaperService implements SpotForMargin {
  readonly repo: PaperRepo;
  readonly venue: PaperVenue;
  private readonly ledger: LedgerService;
  private readonly feeSchedule: FeeSchedule;
  private readonly engine: PaperEngine;
  private readonly now: () => number;
  private readonly onError: (error: unknown, msg: string) => void;
  private readonly listeners = new Set<(e: UserEvents) => void>();
  /** Where placements look up the stored orders of their client order ids. */
  private readonly storedOrders: StoredOrders<OrderRow>;
  /** Committed order and trade rows (margin's peer view of the orders table). */
  get orderRows(): OrderReader {
    return this.repo;
  }
  private offPrice: (() => void) | null = null;
  private offTrades: (() => void) | null = null;

  constructor(o: PaperServiceOptions) {
    this.repo = o.repo;
    this.venue = o.venue;
    this.ledger = o.ledger;
    this.feeSchedule = o.fees;
    this.now = o.now ?? Date.now;
    this.onError = o.onError ?? (() => {});
    this.engine = new PaperEngine(o.venue, this.now, o.ledger, o.fees);
    this.storedOrders = { byClientIds: (refs) => this.repo.ordersByClientIds(refs), refOf: (row) => row };
    const engine = this.engine;
    o.ledger.register<OrderBatch>({
      name: "spot",
      take: () => engine.takeBatch(),
      isEmpty: orderBatchIsEmpty,
      write: (tx, batch) => this.repo.write(tx, batch),
      afterCommand: () => engine.afterCommand(),
      broken: () => engine.broken,
      committed: (batch, journal) => {
        this.publish(batch, journal.touched);
        const last = batch.trades[batch.trades.length - 1];
        if (last !== undefined) this.onPushed?.(last.id);
      },
      clear: () => engine.clear(),
      reload: async () => engine.load(await this.repo.loadState()),
    });
  }

  /**
   * Loads the open orders and puts them back on the books (the ledger writer has loaded
   * the balances). `pushedUpTo` (several instances): the last trade id the previous
   * writer pushed; the fills after it, committed by a writer that died before pushing
   * them, are pushed now.
   */
  async start(pushedUpTo: number | null = null): Promise<void> {
    this.engine.load(await this.repo.loadState());
    if (pushedUpTo !== null) await this.pushAfter(pushedUpTo);
    await this.ledger.flush();
    this.offPrice = this.venue.onPrice((symbol) => {
      if (this.engine.hasStops(symbol))
        void this.submit(() => this.engine.triggerStops(symbol)).catch(() => {});
    });
    // A command per batch, queued behind the placements and cancels already submitted.
    this.offTrades =
      this.venue.onExchangeTrades?.((symbol, trades, times) => {
        if (this.engine.hasQueued(symbol))
          void this.submit(() => this.engine.exchangeTrades(symbol, trades, times)).catch(() => {});
      }) ?? null;
  }

  /** Commits what is pending and stops listening; the books keep the orders (they are rebuilt on start). */
  async close(): Promise<void> {
    this.offPrice?.();
    this.offTrades?.();
    await this.ledger.flush();
    this.engine.detach();
  }

  /**
   * Runs another module's command (margin) in the ledger writer with the spot engine:
   * `post` puts entries in the shared ledger and journal, `write` adds rows to the same
   * group commit, `place` and `cancelMargin` work the spot books, and the promise settles
   * once that commit is durable.
   */
  transact<T>(fn: (tx: PaperTx) => T): Promise<T> {
    return this.ledger.transact((tx) => fn(this.tx(tx)));
  }

  private tx(tx: LedgerTx): PaperTx {
    return {
      ledger: tx.ledger,
      post: (entry, accountId, refId) => tx.post(entry, accountId, refId),
      write: (w) => tx.write(w),
      place: (accountId, vipLevel, body, options) => this.engine.place(accountId, vipLevel, body, options),
      cancelMargin: (accountId, orderId) => this.engine.cancel(accountId, orderId, true),
      liveOrderIds: (accountId, which) => this.engine.openOrderIds(accountId, which),
    };
  }

  /**
   * Another module's hook on every margin-order fill, run in the writer right after the
   * fill settles, with the writer's `tx` (it may post entries and add writes to the same
   * commit; fills between commands are committed like the maker's).
   */
  setMarginFillHook(hook: ((order: OrderRow, trade: TradeRow, tx: PaperTx) => void) | null): void {
    this.engine.onMarginFill =
      hook === null ? null : (order, trade) => hook(order, trade, this.tx(this.ledger.tx));
  }

  onEvents(listener: (e: UserEvents) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private submit<T>(run: () => T): Promise<T> {
    return this.ledger.transact(() => run());
  }

  /**
   * Runs a placement in the writer, unless `cid` names an order already stored: then it
   * resolves with that order and `fn` never runs (see `GroupCommit.submitPlacement`).
   */
  transactPlacement<T>(cid: ClientOrderRef | null, fn: (tx: PaperTx) => T): Promise<Placement<T>> {
    return this.ledger.transactPlacement(this.storedOrders, cid, (tx) => fn(this.tx(tx)));
  }

  /** Heard after each commit's pushes: the highest trade id among them (modules/writer records it). */
  onPushed: ((tradeId: number) => void) | null = null;

  private async pushAfter(tradeId: number): Promise<void> {
    for (let from = tradeId; ; ) {
      const trades = await this.repo.tradesAfter(from, 5000);
      if (trades.length === 0) return;
      const orders = await this.repo.ordersByIds([...new Set(trades.map((t) => t.orderId))]);
      const batch = emptyOrderBatch();
      for (const o of orders) batch.orders.set(o.id, o);
      batch.trades = trades;
      this.publish(batch, new Set(trades.map((t) => t.accountId)));
      from = trades[trades.length - 1]?.id ?? from;
      this.onPushed?.(from);
    }
  }

  /** Tells the listeners what the commit changed (`publishCommit`). */
  private publish(batch: OrderBatch, touched: ReadonlySet<number>): void {
    publishCommit(batch, touched, this.engine.ledger, this.venue, this.listeners);
  }

  // ---- accounts ---------------------------------------------------------------------

  async account(userId: string): Promise<PaperAccount> {
    const { id, created } = await this.ledger.accountFor(userId);
    return { activated: created, createdAt: this.now(), balances: await this.balances(id) };
  }

  // ---- orders ---------------------------------------------------------------------------

  async place(accountId: number, vipLevel: number, body: PlaceOrderBody): Promise<PlaceOrderResult> {
    const cid = body.clientOrderId === undefined ? null : { accountId, clientOrderId: body.clientOrderId };
    const placed = await this.transactPlacement(cid, () => ({
      outcome: this.engine.place(accountId, vipLevel, body),
      extra: {},
    }));
    return answerPlacement(
      placed,
      {},
      {
        accountId,
        wallet: "spot",
        wallets: ["spot"],
        rows: this.repo,
        presentOrder: (o) => this.presentOrder(o),
        presentTrade: (t) => this.presentTrade(t),
      },
    );
  }

  async cancel(accountId: number, ref: { id: number } | { clientOrderId: string }): Promise<PaperOrder> {
    // By id nothing needs reading first: the engine cancels only the account's own spot
    // order, and the read after it answers (or finds nothing: ORDER_NOT_FOUND).
    const id = "id" in ref ? ref.id : (await this.repo.orderByClientId(accountId, ref.clientOrderId))?.id;
    if (id === undefined) throw new AppError(PaperCode.ORDER_NOT_FOUND, "Order not found", { status: 200 });
    const live = await this.submit(() => this.engine.cancel(accountId, id));
    const after = await this.repo.order(accountId, id);
    if (after === undefined)
      throw new AppError(PaperCode.ORDER_NOT_FOUND, "Order not found", { status: 200 });
    if (!live) {
      throw new AppError(PaperCode.ORDER_NOT_OPEN, `Order is ${after.status}`, {
        status: 200,
        data: this.presentOrder(after),
      });
    }
    return this.presentOrder(after);
  }

  async topUp(accountId: number, asset: string, amount: string): Promise<PaperBalance[]> {
    await this.submit(() => this.engine.topUp(accountId, asset, amount));
    return this.balances(accountId);
  }

  async reset(accountId: number): Promise<PaperBalance[]> {
    await this.submit(() => this.engine.reset(accountId));
    return this.balances(accountId);
  }

  // ---- queries (committed state) -------------------------------------------------------------

  async balances(accountId: number): Promise<PaperBalance[]> {
    const rows = await this.ledger.repo.accountBalances(accountId);
    const available = new Map<string, bigint>();
    const held = new Map<string, bigint>();
    for (const r of rows) (r.account === availableOf(accountId) ? available : held).set(r.asset, r.amount);
    return presentBalances(available, held);
  }

  async openOrders(q: OrderQuery): Promise<PaperOrder[]> {
    return (await this.repo.orders(q, true)).map((o) => this.presentOrder(o));
  }

  async orderHistory(q: OrderQuery): Promise<PaperOrder[]> {
    return (await this.repo.orders(q, false)).map((o) => this.presentOrder(o));
  }

  /** One spot order of the account by id or client order id (the bot API's order lookup), or undefined. */
  async order(
    accountId: number,
    ref: { id: number } | { clientOrderId: string },
  ): Promise<PaperOrder | undefined> {
    const row =
      "id" in ref
        ? await this.repo.order(accountId, ref.id)
        : await this.repo.orderByClientId(accountId, ref.clientOrderId);
    return row === undefined || row.wallet !== "spot" ? undefined : this.presentOrder(row);
  }

  async trades(q: OrderQuery): Promise<PaperTrade[]> {
    return (await this.repo.trades(q)).map((t) => this.presentTrade(t));
  }

  fees(vipLevel: number): PaperFees {
    return { tiers: VIP_TIERS.map(presentTier), current: presentTier(this.feeSchedule.spotTier(vipLevel)) };
  }

  /** Open user orders as the engine holds them (restart tests compare these). */
  liveOrderIds(accountId: number): number[] {
    return this.engine.openOrderIds(accountId);
  }

  private presentOrder(o: OrderRow): PaperOrder {
    return presentOrder(this.venue, o);
  }

  private presentTrade(t: TradeRow): PaperTrade {
    return presentTrade(this.venue, t);
  }
}
