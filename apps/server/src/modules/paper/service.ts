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
import { availableOf, Ledger, VIP_TIERS, vipTier } from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import { type ClientOrderRef, GroupCommit, type LedgerWriter } from "../ledger/index.ts";
import { PaperEngine } from "./engine.ts";
import { publishCommit, type UserEvents } from "./events.ts";
import { answerPlacement } from "./placement.ts";
import { presentBalances, presentOrder, presentTier, presentTrade } from "./present.ts";
import type { OrderQuery, PaperRepo } from "./repo.ts";
import {
  type AccountRow,
  type Batch,
  batchIsEmpty,
  emptyBatch,
  type OrderRow,
  type TradeRow,
} from "./rows.ts";
import type { OrderReader, PaperTx, Placement, SpotForMargin } from "./spot-for-margin.ts";
import type { PaperVenue } from "./venue.ts";

export interface PaperServiceOptions {
  repo: PaperRepo;
  venue: PaperVenue;
  now?: () => number;
  onError?: (error: unknown, msg: string) => void;
}

/**
 * The spot order service, and the ledger writer the other trading modules use as peers
 * (`LedgerWriter`): one engine holds the ledger and the spot books, and its commands
 * and theirs go through one group commit (`modules/ledger`).
 */
export class PaperService implements LedgerWriter, SpotForMargin {
  readonly repo: PaperRepo;
  readonly venue: PaperVenue;
  private readonly engine: PaperEngine;
  private readonly now: () => number;
  private readonly onError: (error: unknown, msg: string) => void;
  private readonly accounts = new Map<string, number>();
  private readonly activating = new Map<string, AccountRow>();
  private readonly listeners = new Set<(e: UserEvents) => void>();
  private readonly rebuiltListeners = new Set<() => void>();
  private readonly pushListeners = new Set<(accountId: number, messages: readonly object[]) => void>();
  private readonly commit: GroupCommit<Batch, OrderRow>;
  /** Committed order and trade rows (margin's peer view of the orders table). */
  get orderRows(): OrderReader {
    return this.repo;
  }
  private offPrice: (() => void) | null = null;

  constructor(o: PaperServiceOptions) {
    this.repo = o.repo;
    this.venue = o.venue;
    this.now = o.now ?? Date.now;
    this.onError = o.onError ?? (() => {});
    this.engine = new PaperEngine(o.venue, this.now, () => this.commit.markDirty());
    const engine = this.engine;
    this.commit = new GroupCommit<Batch, OrderRow>({
      run: (fn) => engine.run(fn),
      takeBatch: () => engine.takeBatch(),
      isEmpty: batchIsEmpty,
      broken: () => engine.broken,
      persist: (batch) => this.repo.persist(batch),
      rebuild: () => this.rebuild(),
      committed: (batch) => {
        this.publish(batch);
        const last = batch.trades[batch.trades.length - 1];
        if (last !== undefined) this.onPushed?.(last.id);
      },
      storedByClientIds: (refs) => this.repo.ordersByClientIds(refs),
      refOf: (row) => row,
      onError: (error, msg) => this.onError(error, msg),
    });
  }

  /**
   * Loads balances and open orders and puts the orders back on the books. `pushedUpTo`
   * (several instances): the last trade id the previous writer pushed; the fills after
   * it, committed by a writer that died before pushing them, are pushed now.
   */
  async start(pushedUpTo: number | null = null): Promise<void> {
    this.engine.load(await this.repo.loadState());
    if (pushedUpTo !== null) await this.pushAfter(pushedUpTo);
    await this.flush();
    this.offPrice = this.venue.onPrice((symbol) => {
      if (this.engine.hasStops(symbol))
        void this.submit(() => this.engine.triggerStops(symbol)).catch(() => {});
    });
  }

  /** Commits what is pending and stops listening; the books keep the orders (they are rebuilt on start). */
  async close(): Promise<void> {
    this.offPrice?.();
    await this.commit.close();
    this.engine.detach();
  }

  /**
   * Runs another module's command (futures, margin) in this writer: `post` puts entries
   * in the shared ledger and journal, `write` adds rows to the same group commit, and
   * the promise settles once that commit is durable. `onRebuilt` listeners hear when a
   * failed commit made the ledger reload from the database.
   */
  transact<T>(fn: (tx: PaperTx) => T): Promise<T> {
    return this.submit(() => fn(this.tx()));
  }

  private tx(): PaperTx {
    return {
      ledger: this.engine.ledger,
      post: (entry, accountId, refId) => this.engine.postEntry(entry, accountId, refId ?? null),
      write: (w) => this.engine.addWrite(w),
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
    this.engine.onMarginFill = hook === null ? null : (order, trade) => hook(order, trade, this.tx());
  }

  /** Every balance of a ledger account as the writer holds it. */
  ledgerBalances(account: string): ReadonlyMap<string, bigint> {
    return this.engine.ledger.balancesOf(account);
  }

  /** Sends messages to the user's `/v1/ws/user` sockets (other modules' pushes: margin). */
  push(accountId: number, messages: readonly object[]): void {
    for (const l of this.pushListeners) l(accountId, messages);
  }

  onPush(listener: (accountId: number, messages: readonly object[]) => void): () => void {
    this.pushListeners.add(listener);
    return () => this.pushListeners.delete(listener);
  }

  /** Balance of a ledger account as the writer holds it (committed or about to be). */
  ledgerBalance(account: string, asset: string): bigint {
    return this.engine.ledger.balance(account, asset);
  }

  onRebuilt(listener: () => void): () => void {
    this.rebuiltListeners.add(listener);
    return () => this.rebuiltListeners.delete(listener);
  }

  onEvents(listener: (e: UserEvents) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private submit<T>(run: () => T): Promise<T> {
    return this.commit.submit(run);
  }

  /**
   * Runs a placement in the writer, unless `cid` names an order already stored: then it
   * resolves with that order and `fn` never runs (see `GroupCommit.submitPlacement`).
   */
  transactPlacement<T>(cid: ClientOrderRef | null, fn: (tx: PaperTx) => T): Promise<Placement<T>> {
    return this.commit.submitPlacement(cid, () => fn(this.tx()));
  }

  /** Heard after each commit's pushes: the highest trade id among them (modules/writer records it). */
  onPushed: ((tradeId: number) => void) | null = null;

  private async pushAfter(tradeId: number): Promise<void> {
    for (let from = tradeId; ; ) {
      const trades = await this.repo.tradesAfter(from, 5000);
      if (trades.length === 0) return;
      const orders = await this.repo.ordersByIds([...new Set(trades.map((t) => t.orderId))]);
      const batch = emptyBatch();
      for (const o of orders) batch.orders.set(o.id, o);
      batch.trades = trades;
      for (const t of trades) batch.touched.add(t.accountId);
      this.publish(batch);
      from = trades[trades.length - 1]?.id ?? from;
      this.onPushed?.(from);
    }
  }

  /** Commits whatever the engine holds (fills between commands included). */
  flush(): Promise<void> {
    return this.commit.flush();
  }

  private async rebuild(): Promise<void> {
    this.engine.clear();
    this.accounts.clear();
    this.activating.clear();
    try {
      this.engine.load(await this.repo.loadState());
    } catch (error) {
      this.onError(error, "paper rebuild failed");
    }
    for (const l of this.rebuiltListeners) l();
  }

  /** Tells the listeners what the commit changed (`publishCommit`). */
  private publish(batch: Batch): void {
    publishCommit(batch, this.engine.ledger, this.venue, this.listeners);
  }

  // ---- accounts ---------------------------------------------------------------------

  /**
   * The user's paper account, created with the initial balances on first use (`empty`:
   * without them; sub-accounts open this way when made, funded by their master).
   */
  async accountFor(userId: string, empty = false): Promise<{ id: number; created: boolean }> {
    const known = this.accounts.get(userId);
    if (known !== undefined) return { id: known, created: false };
    const stored = await this.repo.accountOf(userId);
    if (stored !== undefined) {
      this.accounts.set(userId, stored.id);
      return { id: stored.id, created: false };
    }
    const made = await this.creator(userId, empty);
    this.accounts.set(userId, made.id);
    return made;
  }

  /**
   * Who creates accounts: this writer, or (several instances, on a follower) the writer
   * through the command bus (set by the module's composition).
   */
  creator: (userId: string, empty: boolean) => Promise<{ id: number; created: boolean }> = (userId, empty) =>
    this.createAccount(userId, empty);

  /** In the writer: opens the account unless another request did since. */
  async createAccount(userId: string, empty = false): Promise<{ id: number; created: boolean }> {
    const stored = this.accounts.get(userId) ?? (await this.repo.accountOf(userId))?.id;
    if (stored !== undefined) return { id: stored, created: false };
    // Another request may have created it since (still in this group commit:
    // `activating`; in an earlier one: `accounts`, set before `activating` is cleared).
    const made = await this.submit(() => {
      const id = this.accounts.get(userId) ?? this.activating.get(userId)?.id;
      if (id !== undefined) return { id, created: false };
      const row = this.engine.activate(userId, empty);
      this.activating.set(userId, row);
      return { id: row.id, created: true };
    });
    this.accounts.set(userId, made.id);
    this.activating.delete(userId);
    return made;
  }

  async account(userId: string): Promise<PaperAccount> {
    const { id, created } = await this.accountFor(userId);
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
    const row =
      "id" in ref
        ? await this.repo.order(accountId, ref.id)
        : await this.repo.orderByClientId(accountId, ref.clientOrderId);
    const id = row?.id ?? ("id" in ref ? ref.id : undefined);
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
    const rows = await this.repo.accountBalances(accountId);
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
    return { tiers: VIP_TIERS.map(presentTier), current: presentTier(vipTier(vipLevel)) };
  }

  /** The consistency check the crash test runs: journal replay equals balances, every asset sums to zero. */
  async audit(): Promise<{ replayEqualsBalances: boolean; assetSums: Record<string, string> }> {
    const balances = Ledger.fromBalances(await this.repo.balanceRows());
    const replay = Ledger.fromBalances(await this.repo.journalSums());
    const assetSums: Record<string, string> = {};
    for (const p of await this.repo.balanceRows()) {
      assetSums[p.asset] = (BigInt(assetSums[p.asset] ?? "0") + p.amount).toString();
    }
    return {
      replayEqualsBalances: balances !== null && replay !== null && balances.equals(replay),
      assetSums,
    };
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
