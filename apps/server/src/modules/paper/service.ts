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
import {
  availableOf,
  heldOf,
  type JournalEntry,
  Ledger,
  type LedgerRefusal,
  VIP_TIERS,
  vipTier,
} from "@meridian/domain";
import type { Queryable } from "../../platform/db/types.ts";
import { AppError } from "../../platform/errors.ts";
import {
  type AccountRow,
  type Batch,
  batchIsEmpty,
  emptyBatch,
  type OrderRow,
  PaperEngine,
  type PlaceOptions,
  type PlaceOutcome,
  rejected,
  type TradeRow,
} from "./engine.ts";
import { presentBalances, presentOrder, presentTier, presentTrade } from "./present.ts";
import type { OrderQuery, PaperRepo } from "./repo.ts";
import type { PaperVenue } from "./venue.ts";

/** What the user stream hears after each commit. */
export interface UserEvents {
  accountId: number;
  orders: PaperOrder[];
  fills: PaperTrade[];
  balances: PaperBalance[] | null;
  /** Margin orders and fills of the commit (the margin module presents and pushes them). */
  marginOrders: OrderRow[];
  marginFills: TradeRow[];
}

/** A client order id already names an order of another wallet (ids are unique per account). */
export function clientIdInUse(): AppError {
  return new AppError(
    PaperCode.ORDER_REJECTED,
    "Order rejected: the clientOrderId is in use by another wallet",
    {
      status: 200,
      data: { reason: "DUPLICATE_CLIENT_ORDER_ID", field: "clientOrderId" },
    },
  );
}

/** What `PaperService.transact` hands another module's command. */
export interface PaperTx {
  readonly ledger: Ledger;
  post(entry: JournalEntry, accountId: number | null, refId?: number | null): LedgerRefusal | null;
  write(write: (tx: Queryable) => Promise<void>): void;
  /** Places an order in the same command (margin orders: `options.wallet`). */
  place(accountId: number, vipLevel: number, body: PlaceOrderBody, options: PlaceOptions): PlaceOutcome;
  /** Cancels a live margin order; false when it is not live. */
  cancelMargin(accountId: number, orderId: number): boolean;
  /** Live order ids of an account matching `which`. */
  liveOrderIds(accountId: number, which: (row: OrderRow) => boolean): number[];
}

interface Job {
  run(): unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** A placement with a client order id: runs only when no stored order has it. */
  cid: ClientOrderRef | null;
}

/** A client order id, unique per account across wallets. */
export interface ClientOrderRef {
  accountId: number;
  clientOrderId: string;
}

/** What a placement with a client order id came to: the stored order with that id, or the command's value. */
export type Placement<T> = { stored: OrderRow; ran?: undefined } | { stored?: undefined; ran: T };

const cidKey = (accountId: number, clientOrderId: string) => `${accountId}\u0000${clientOrderId}`;

export interface PaperServiceOptions {
  repo: PaperRepo;
  venue: PaperVenue;
  now?: () => number;
  onError?: (error: unknown, msg: string) => void;
}

/**
 * The order service. One writer per process: commands queue, run one after another
 * against the in-memory engine, and every command run since the last commit is written
 * in one transaction (group commit) before any of them is answered. So an order is
 * acknowledged only once its row, its hold and any trades and settlements it caused
 * are committed together; a crash before that loses only unanswered work.
 *
 * NOTE: a failed commit leaves memory ahead of the database, so the engine is rebuilt
 * from the database (the same path as a restart) and the waiting callers get an error.
 */
export class PaperService {
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
  private queue: Job[] = [];
  private pumping: Promise<void> | null = null;
  private dirty = false;
  private offPrice: (() => void) | null = null;
  private closed = false;

  constructor(o: PaperServiceOptions) {
    this.repo = o.repo;
    this.venue = o.venue;
    this.now = o.now ?? Date.now;
    this.onError = o.onError ?? (() => {});
    this.engine = new PaperEngine(o.venue, this.now, () => this.markDirty());
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
    this.closed = true;
    this.offPrice?.();
    await this.flush();
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

  // ---- the sequencer ----------------------------------------------------------------

  private submit<T>(run: () => T, cid: ClientOrderRef | null = null): Promise<T> {
    if (this.closed)
      return Promise.reject(new AppError(PaperCode.PAPER_ONLY, "Paper trading is stopping", { status: 503 }));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (v: unknown) => void, reject, cid });
      this.pump();
    });
  }

  /**
   * Runs a placement in the writer, unless `cid` names an order already stored: then it
   * resolves with that order and `fn` never runs. The lookup is made in the writer, for
   * every placement of the group commit at once (one query per account), after every
   * earlier commit landed, so it sees each order placed before; placements in the same
   * group that share an id are caught by the engine itself.
   */
  transactPlacement<T>(cid: ClientOrderRef | null, fn: (tx: PaperTx) => T): Promise<Placement<T>> {
    return this.submit<Placement<T>>(() => ({ ran: fn(this.tx()) }), cid);
  }

  /** The stored orders that hold the jobs' client order ids, by account and id. */
  private async storedByClientId(jobs: readonly Job[]): Promise<Map<string, OrderRow> | Error> {
    const refs: ClientOrderRef[] = [];
    for (const job of jobs) if (job.cid !== null) refs.push(job.cid);
    try {
      const found = new Map<string, OrderRow>();
      for (const row of await this.repo.ordersByClientIds(refs))
        found.set(cidKey(row.accountId, row.clientOrderId), row);
      return found;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  private markDirty(): void {
    if (this.dirty) return;
    this.dirty = true;
    queueMicrotask(() => this.pump());
  }

  private pump(): void {
    // The drain starts in the loop's check phase, not at once: every request read in
    // this loop turn joins the same commit, so a backlog (after a GC pause or a busy
    // neighbour) is written with one COMMIT and one INSERT per table, not one per order.
    this.pumping ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .finally(() => {
        this.pumping = null;
        if (this.queue.length > 0 || this.dirty) this.pump();
      });
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
  async flush(): Promise<void> {
    this.markDirty();
    while (this.pumping !== null) await this.pumping;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 || this.dirty) {
      this.dirty = false;
      const jobs = this.queue;
      this.queue = [];
      const results: Array<{ job: Job; ok: boolean; value: unknown }> = [];
      const stored = jobs.some((j) => j.cid !== null) ? await this.storedByClientId(jobs) : null;
      for (const job of jobs) {
        if (job.cid !== null && stored !== null) {
          if (stored instanceof Error) {
            results.push({ job, ok: false, value: stored });
            continue;
          }
          const hit = stored.get(cidKey(job.cid.accountId, job.cid.clientOrderId));
          if (hit !== undefined) {
            results.push({ job, ok: true, value: { stored: hit } satisfies Placement<never> });
            continue;
          }
        }
        try {
          results.push({ job, ok: true, value: this.engine.run(() => job.run()) });
        } catch (error) {
          results.push({ job, ok: false, value: error });
        }
      }
      const batch = this.engine.takeBatch();
      let failure: unknown = this.engine.broken === null ? null : new Error(this.engine.broken);
      if (failure === null && !batchIsEmpty(batch)) {
        try {
          await this.repo.persist(batch);
        } catch (error) {
          failure = error;
        }
      }
      if (failure !== null) {
        this.onError(failure, "paper commit failed; rebuilding from the database");
        await this.rebuild();
        const unavailable = new AppError(PaperCode.PAPER_ONLY, "Paper trading is briefly unavailable", {
          status: 503,
        });
        for (const r of results) r.job.reject(r.ok ? unavailable : r.value);
        continue;
      }
      for (const r of results) (r.ok ? r.job.resolve : r.job.reject)(r.value);
      this.publish(batch);
      const last = batch.trades[batch.trades.length - 1];
      if (last !== undefined) this.onPushed?.(last.id);
    }
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

  /**
   * Tells the listeners what the commit changed, per account. The spot orders, fills
   * and balances (as of the commit) are presented only when a listener reads them: the
   * user stream reads them only for accounts with a socket open, so a commit of orders
   * nobody watches presents nothing (presenting every balance of every touched account
   * was ~5 % of what an order allocates in bench:orders).
   */
  private publish(batch: Batch): void {
    if (this.listeners.size === 0) return;
    interface Raw {
      orders: OrderRow[];
      fills: TradeRow[];
      touched: boolean;
      marginOrders: OrderRow[];
      marginFills: TradeRow[];
    }
    const byAccount = new Map<number, Raw>();
    const of = (accountId: number) => {
      let r = byAccount.get(accountId);
      if (r === undefined) {
        r = { orders: [], fills: [], touched: false, marginOrders: [], marginFills: [] };
        byAccount.set(accountId, r);
      }
      return r;
    };
    for (const o of batch.orders.values())
      (o.wallet === "spot" ? of(o.accountId).orders : of(o.accountId).marginOrders).push(o);
    for (const t of batch.trades)
      (t.wallet === "spot" ? of(t.accountId).fills : of(t.accountId).marginFills).push(t);
    for (const id of batch.touched) of(id).touched = true;
    const presentO = (o: OrderRow) => this.presentOrder(o);
    const presentT = (t: TradeRow) => this.presentTrade(t);
    // Balances are copied now (the ledger moves on) and presented only when read.
    const ledger = this.engine.ledger;
    const snapshot = (accountId: number) => {
      const available = new Map(ledger.balancesOf(availableOf(accountId)));
      const held = new Map(ledger.balancesOf(heldOf(accountId)));
      return () => presentBalances(available, held);
    };
    for (const [accountId, r] of byAccount) {
      let orders: PaperOrder[] | undefined;
      let fills: PaperTrade[] | undefined;
      let balances: PaperBalance[] | null | undefined;
      const balancesAtCommit = r.touched ? snapshot(accountId) : null;
      const e: UserEvents = {
        accountId,
        get orders() {
          orders ??= r.orders.map(presentO);
          return orders;
        },
        get fills() {
          fills ??= r.fills.map(presentT);
          return fills;
        },
        get balances() {
          if (balances === undefined) balances = balancesAtCommit === null ? null : balancesAtCommit();
          return balances;
        },
        marginOrders: r.marginOrders,
        marginFills: r.marginFills,
      };
      for (const l of this.listeners) l(e);
    }
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
    const placed = await this.transactPlacement(cid, () => this.engine.place(accountId, vipLevel, body));
    if (placed.stored !== undefined) {
      if (placed.stored.wallet !== "spot") throw clientIdInUse();
      return this.duplicate(placed.stored);
    }
    const outcome = placed.ran;
    if (outcome.kind === "duplicate") {
      const existing = await this.repo.order(accountId, outcome.orderId);
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
    };
  }

  private async duplicate(order: OrderRow): Promise<PlaceOrderResult> {
    const fills = await this.repo.trades({ accountId: order.accountId, orderId: order.id, limit: 500 });
    return {
      order: this.presentOrder(order),
      fills: fills.reverse().map((t) => this.presentTrade(t)),
      duplicate: true,
    };
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
