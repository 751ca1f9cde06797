import {
  type OrderStatusValue,
  PAPER_INITIAL_BALANCES,
  PAPER_MAX_OPEN_ORDERS,
  PAPER_TOPUP_CAP,
  PaperCode,
  type PlaceOrderBody,
} from "@meridian/contracts";
import {
  availableOf,
  burnEntry,
  type DomainError,
  EntryKind,
  finishOrder,
  heldOf,
  holdEntry,
  holdFor,
  type InstrumentSpec,
  type JournalEntry,
  type Ledger,
  type LedgerRefusal,
  mintEntry,
  newOrderFunds,
  type OrderFunds,
  type PairUnits,
  pairUnits,
  type SettledFill,
  Side,
  Stp,
  settleFill,
  Tif,
  toMinor,
  triggerReached,
  vipTier,
} from "@meridian/domain";
import type { Queryable } from "../../platform/db/types.ts";
import { AppError } from "../../platform/errors.ts";
import { Journal } from "../ledger/index.ts";
import { planOrder, planTpSl, stopMarketCap } from "./order-plan.ts";
import {
  type AccountRow,
  type Batch,
  emptyOrderBatch,
  firesAbove,
  type LoadedState,
  ledgerWallet,
  NO_TPSL,
  type OrderBatch,
  type OrderRow,
  type PlaceOptions,
  type PlaceOutcome,
  type TpSlRole,
  type TradeRow,
} from "./rows.ts";
import type { PaperVenue, VenueBook } from "./venue.ts";

interface LiveOrder {
  readonly row: OrderRow;
  readonly funds: OrderFunds;
  readonly spec: InstrumentSpec;
  readonly units: PairUnits;
}

/**
 * The paper exchange in memory: the open orders with their holds, the venue's books
 * they rest in, and the ledger writer's `Journal` (`modules/ledger`: the ledger, the
 * authority for every balance check, and the entries posted since the last commit,
 * its own and the other modules'). Commands run
 * synchronously and collect what they change into the current `Batch`, which the
 * service commits as one transaction before answering anyone (see service.ts).
 *
 * Fills can also arrive between commands (the liquidity maker requoting into a resting
 * user order); they settle the same way and `onDirty` asks the service to commit them.
 */
export class PaperEngine {
  /** Set when a settlement was refused: the service must rebuild from the database. */
  broken: string | null = null;
  private readonly venue: PaperVenue;
  private readonly now: () => number;
  private readonly onDirty: () => void;
  private readonly live = new Map<number, LiveOrder>();
  private readonly stops = new Map<string, Set<LiveOrder>>();
  private readonly openCount = new Map<number, number>();
  /** Client order ids placed since the last commit (account \u0000 id -> order id). */
  private readonly recentCids = new Map<string, number>();
  private readonly subscribed = new Map<string, () => void>();
  /** The ledger and what was posted to it since the last commit (`modules/ledger`). */
  private readonly journal: Journal;
  private batch: OrderBatch = emptyOrderBatch();
  private ids = { order: 0, trade: 0, account: 0, bookSeq: 0 };
  private muted = false;
  private inCommand = false;
  /** Symbols where TP/SL orders were just placed: they fire at once if the price is already past. */
  private readonly due = new Set<string>();
  private dueScheduled = false;
  private collect: { orderId: number; fills: TradeRow[]; rejection: DomainError | null } | null = null;
  /**
   * Called for each fill of a margin order once it is settled (the margin module's
   * AUTO_REPAY and account pushes); it may post entries and add writes.
   */
  onMarginFill: ((order: OrderRow, trade: TradeRow) => void) | null = null;

  constructor(venue: PaperVenue, now: () => number, onDirty: () => void) {
    this.venue = venue;
    this.now = now;
    this.onDirty = onDirty;
    this.journal = new Journal(now);
  }

  /** The ledger (the authority for every balance check), held by the journal. */
  get ledger(): Ledger {
    return this.journal.ledger;
  }

  /** Hands over what changed since the last call. */
  takeBatch(): Batch {
    const b: Batch = { ...this.batch, ...this.journal.take() };
    this.batch = emptyOrderBatch();
    // One copy per changed order, not one per change (an order is snapped about three times).
    for (const [id, row] of b.orders) b.orders.set(id, { ...row });
    // The service looks client order ids up in the database before the next commit's
    // placements run (PaperService.transactPlacement): only this commit's are needed here.
    this.recentCids.clear();
    return b;
  }

  /** Runs a command; anything it changes joins the current batch. */
  run<T>(fn: () => T): T {
    this.inCommand = true;
    try {
      const out = fn();
      this.fireDue();
      return out;
    } finally {
      this.inCommand = false;
    }
  }

  /**
   * Fires the TP/SL orders placed since the last check whose trigger the price has
   * already passed. Placement happens inside a fill (the book is mid-match), so the
   * check waits until the book is idle: the end of the command, or a microtask for fills
   * between commands.
   */
  private fireDue(): void {
    for (let round = 0; this.due.size > 0 && round < 100; round++) {
      const symbols = [...this.due];
      this.due.clear();
      for (const symbol of symbols) this.triggerStops(symbol);
    }
  }

  private markDue(symbol: string): void {
    this.due.add(symbol);
    if (this.inCommand || this.dueScheduled) return;
    this.dueScheduled = true;
    queueMicrotask(() => {
      this.dueScheduled = false;
      if (!this.inCommand) this.fireDue();
    });
  }

  // ---- state -----------------------------------------------------------------------

  /** Drops every user order from the books and all memory (before a reload). */
  clear(): void {
    this.muted = true;
    try {
      for (const o of this.live.values()) {
        const vb = this.venue.book(o.row.symbol);
        if (vb?.book.has(o.row.id)) vb.book.cancel(o.row.id, this.now());
      }
    } finally {
      this.muted = false;
    }
    this.live.clear();
    this.stops.clear();
    this.due.clear();
    this.openCount.clear();
    this.recentCids.clear();
    this.batch = emptyOrderBatch();
    this.journal.clear();
    this.broken = null;
  }

  /**
   * Rebuilds from the database: balances into the ledger, resting orders replayed into
   * the books in their original book order (a resting order the market has moved
   * through fills now, settled as usual), stops back on their watch lists.
   */
  load(state: LoadedState): void {
    const { entry, ...ids } = state.maxIds;
    this.journal.load(state.balances, entry);
    this.ids = ids;
    const ts = this.now();
    for (const row of state.openOrders) {
      const spec = this.venue.spec(row.symbol);
      const units = spec === undefined ? null : pairUnits(spec);
      if (spec === undefined || units === null) continue;
      const funds = newOrderFunds({
        id: row.id,
        accountId: row.accountId,
        side: row.side,
        units,
        makerPpm: row.makerPpm,
        takerPpm: row.takerPpm,
        held: row.held,
        wallet: ledgerWallet(row.accountId, row.wallet, row.symbol),
      });
      funds.takerQuote = row.takerQuote;
      funds.makerQuote = row.makerQuote;
      funds.fees = row.fees;
      funds.filledLots = row.filledLots;
      const o: LiveOrder = { row, funds, spec, units };
      this.track(o);
      if (row.bookSeq === null) this.watchStop(o);
      else {
        const vb = this.bookOf(row.symbol);
        const left = row.qtyLots - row.filledLots;
        vb?.book.limit(
          row.id,
          row.accountId,
          row.side,
          row.priceTicks ?? 0,
          left,
          Tif.GTC,
          Stp.ExpireMaker,
          ts,
        );
      }
    }
    this.fireDue();
  }

  private bookOf(symbol: string): VenueBook | undefined {
    const vb = this.venue.book(symbol);
    if (vb !== undefined && !this.subscribed.has(symbol)) {
      this.subscribed.set(symbol, vb.subscribe(this.listenerFor(symbol)));
    }
    return vb;
  }

  /** Stops listening to the venue's books. */
  detach(): void {
    for (const off of this.subscribed.values()) off();
    this.subscribed.clear();
  }

  private track(o: LiveOrder): void {
    this.live.set(o.row.id, o);
    this.openCount.set(o.row.accountId, (this.openCount.get(o.row.accountId) ?? 0) + 1);
  }

  private watchStop(o: LiveOrder): void {
    let set = this.stops.get(o.row.symbol);
    if (set === undefined) {
      set = new Set();
      this.stops.set(o.row.symbol, set);
    }
    set.add(o);
    this.bookOf(o.row.symbol);
  }

  /** Live order ids of an account (resting and untriggered stops), optionally only some of them. */
  openOrderIds(accountId: number, which?: (row: OrderRow) => boolean): number[] {
    const out: number[] = [];
    for (const o of this.live.values())
      if (o.row.accountId === accountId && (which === undefined || which(o.row))) out.push(o.row.id);
    return out;
  }

  isLive(orderId: number): boolean {
    return this.live.has(orderId);
  }

  liveOrder(orderId: number): OrderRow | undefined {
    return this.live.get(orderId)?.row;
  }

  // ---- journal -----------------------------------------------------------------------

  private post(entry: JournalEntry, accountId: number | null, orderId: number | null): LedgerRefusal | null {
    return this.journal.post(entry, accountId, orderId);
  }

  /** Posts another module's entry (futures, margin) in this ledger and journal; a refusal changes nothing. */
  postEntry(
    entry: JournalEntry,
    accountId: number | null,
    refId: number | null = null,
  ): LedgerRefusal | null {
    return this.post(entry, accountId, refId);
  }

  /** Adds another module's rows to the current group commit. */
  addWrite(write: (tx: Queryable) => Promise<void>): void {
    this.journal.write(write);
    if (!this.inCommand) this.onDirty();
  }

  /** Settlements follow from holds, so a refusal means a bug: stop and rebuild. */
  private mustPost(entry: JournalEntry | null, accountId: number | null, orderId: number | null): void {
    if (entry === null) return;
    const refusal = this.post(entry, accountId, orderId);
    if (refusal !== null)
      this.broken ??= `settlement refused: ${refusal.code} ${refusal.account} ${refusal.asset}`;
  }

  private snap(o: LiveOrder): void {
    const r = o.row;
    const f = o.funds;
    r.held = f.held;
    r.takerQuote = f.takerQuote;
    r.makerQuote = f.makerQuote;
    r.fees = f.fees;
    r.filledLots = f.filledLots;
    r.updatedAt = this.now();
    this.batch.orders.set(r.id, r);
    if (!this.inCommand) this.onDirty();
  }

  private finish(o: LiveOrder, status: OrderStatusValue): void {
    o.row.status = status;
    this.mustPost(finishOrder(o.funds), o.row.accountId, o.row.id);
    this.live.delete(o.row.id);
    this.openCount.set(o.row.accountId, (this.openCount.get(o.row.accountId) ?? 1) - 1);
    this.stops.get(o.row.symbol)?.delete(o);
    this.snap(o);
    // A cancelled parent places nothing (its TP/SL were never live); one that filled, or
    // expired after filling part, protects what it filled.
    if ((status === "FILLED" || status === "EXPIRED") && o.row.filledLots > 0 && hasTpSl(o.row))
      this.placeTpSl(o);
  }

  /**
   * Places the TP/SL of a parent that is done filling: one trigger order per leg, on the
   * other side, for the filled quantity, linked as an OCO pair. The pair holds once: a
   * buy parent's legs sell the base its fills delivered (exactly that amount is held); a
   * sell parent's legs buy back, holding the quote of the dearer leg. The hold sits on
   * the first leg and moves to whichever fires. When it cannot be held (the delivered
   * asset was spent meanwhile), both legs are stored as REJECTED.
   */
  private placeTpSl(parent: LiveOrder): void {
    const p = parent.row;
    const side: 0 | 1 = p.side === Side.Buy ? Side.Sell : Side.Buy;
    const lots = p.filledLots;
    const legs: Array<{ role: TpSlRole; trigger: number; price: number | null }> = [];
    if (p.tpTriggerTicks !== null)
      legs.push({ role: "TP", trigger: p.tpTriggerTicks, price: p.tpPriceTicks });
    if (p.slTriggerTicks !== null)
      legs.push({ role: "SL", trigger: p.slTriggerTicks, price: p.slPriceTicks });
    const rates = { makerPpm: p.makerPpm, takerPpm: p.takerPpm };
    const planned = legs.map((leg) => {
      // Stop-market buys run as an IOC limit capped beyond the trigger, as placed ones do.
      const priceTicks = leg.price ?? (side === Side.Buy ? stopMarketCap(parent.spec, leg.trigger) : null);
      return {
        ...leg,
        priceTicks,
        hold: holdFor(parent.spec, parent.units, side, priceTicks ?? 0, lots, rates),
      };
    });
    let hold = 0n;
    for (const l of planned) if (l.hold > hold) hold = l.hold;
    const asset = side === Side.Buy ? parent.units.quote : parent.units.base;
    const wallet = ledgerWallet(p.accountId, p.wallet, p.symbol);
    const ids = planned.map(() => ++this.ids.order);
    const refused =
      this.post(holdEntry(p.accountId, asset, hold, wallet), p.accountId, ids[0] ?? null) !== null;
    const now = this.now();
    planned.forEach((leg, i) => {
      const id = ids[i] ?? 0;
      const row: OrderRow = {
        ...NO_TPSL,
        id,
        accountId: p.accountId,
        wallet: p.wallet,
        sideEffect: p.wallet === "spot" ? null : "NO_SIDE_EFFECT",
        clientOrderId: `#${id}`,
        symbol: p.symbol,
        side,
        type: leg.price === null ? "STOP_MARKET" : "STOP_LIMIT",
        tif: leg.price === null ? null : "GTC",
        priceTicks: leg.priceTicks,
        stopTicks: leg.trigger,
        qtyLots: lots,
        quoteQty: null,
        status: refused ? "REJECTED" : "NEW",
        triggered: false,
        bookSeq: null,
        filledLots: 0,
        takerQuote: 0n,
        makerQuote: 0n,
        fees: 0n,
        held: !refused && i === 0 ? hold : 0n,
        makerPpm: p.makerPpm,
        takerPpm: p.takerPpm,
        createdAt: now,
        updatedAt: now,
        parentId: p.id,
        tpslRole: leg.role,
        ocoId: ids.length === 2 ? (ids[1 - i] ?? null) : null,
      };
      const o: LiveOrder = {
        row,
        funds: newOrderFunds({
          id,
          accountId: p.accountId,
          side,
          units: parent.units,
          ...rates,
          held: row.held,
          wallet,
        }),
        spec: parent.spec,
        units: parent.units,
      };
      if (refused) {
        this.snap(o);
        return;
      }
      this.track(o);
      this.snap(o);
      this.watchStop(o);
    });
    if (!refused) this.markDue(p.symbol);
  }

  /**
   * One leg of a TP/SL pair fires or is cancelled: its partner is cancelled, and when it
   * fires the pair's hold moves to it first.
   */
  private dropPartner(o: LiveOrder, takeHold: boolean): void {
    const partnerId = o.row.ocoId;
    const partner = partnerId === null ? undefined : this.live.get(partnerId);
    if (partner === undefined || partner.row.bookSeq !== null) return;
    if (takeHold) {
      o.funds.held += partner.funds.held;
      partner.funds.held = 0n;
    }
    this.finish(partner, "CANCELED");
  }

  // ---- engine events -------------------------------------------------------------------

  private listenerFor(symbol: string) {
    const engine = this;
    return {
      onAccepted() {},
      onTriggered() {},
      onDelta() {},
      onRejected(_seq: number, id: number, error: DomainError) {
        const o = engine.live.get(id);
        if (o === undefined || engine.muted) return;
        if (engine.collect?.orderId === id) engine.collect.rejection = error;
        engine.finish(o, "REJECTED");
      },
      onCancelled(_seq: number, id: number) {
        const o = engine.live.get(id);
        if (o === undefined || engine.muted) return;
        engine.finish(o, "CANCELED");
      },
      onExpired(_seq: number, id: number) {
        const o = engine.live.get(id);
        if (o === undefined || engine.muted) return;
        engine.finish(o, "EXPIRED");
      },
      onTrade(
        _seq: number,
        makerId: number,
        takerId: number,
        price: number,
        qty: number,
        makerSide: Side,
        makerLeft: number,
        takerLeft: number,
        ts: number,
      ) {
        if (engine.muted) return;
        const maker = engine.live.get(makerId);
        const taker = engine.live.get(takerId);
        if (maker === undefined && taker === undefined) return;
        const any = maker ?? taker;
        if (any === undefined) return;
        const m = { order: maker?.funds ?? null, role: "maker" as const };
        const t = { order: taker?.funds ?? null, role: "taker" as const };
        const buyerIsMaker = makerSide === Side.Buy;
        const s = settleFill(any.spec, any.units, price, qty, buyerIsMaker ? m : t, buyerIsMaker ? t : m);
        engine.mustPost(s.entry, null, takerId);
        if (maker !== undefined) engine.filled(maker, symbol, price, qty, s, true, makerLeft, takerId, ts);
        if (taker !== undefined) engine.filled(taker, symbol, price, qty, s, false, takerLeft, makerId, ts);
      },
    };
  }

  /** One side's trade row of a settled fill, and what the fill does to its order. */
  private filled(
    o: LiveOrder,
    symbol: string,
    price: number,
    qty: number,
    s: SettledFill,
    isMaker: boolean,
    left: number,
    counter: number,
    ts: number,
  ): void {
    const trade: TradeRow = {
      id: ++this.ids.trade,
      orderId: o.row.id,
      accountId: o.row.accountId,
      wallet: o.row.wallet,
      symbol,
      side: o.row.side,
      priceTicks: price,
      qtyLots: qty,
      quote: s.quoteAmount,
      fee: o.row.side === Side.Buy ? s.buyerFee : s.sellerFee,
      isMaker,
      counterOrderId: counter,
      createdAt: ts,
    };
    this.batch.trades.push(trade);
    if (this.collect?.orderId === o.row.id) this.collect.fills.push(trade);
    if (left === 0) this.finish(o, "FILLED");
    else {
      o.row.status = "PARTIALLY_FILLED";
      this.snap(o);
    }
    if (o.row.wallet !== "spot") this.onMarginFill?.(o.row, trade);
  }

  // ---- commands ------------------------------------------------------------------------

  /** Opens a paper account with the initial balances (`empty`: none, a sub-account's, funded by its master). */
  activate(userId: string, empty = false): AccountRow {
    const account: AccountRow = { id: ++this.ids.account, userId, createdAt: this.now() };
    this.batch.accounts.push(account);
    if (!empty) this.mustPost(mintEntry(EntryKind.Activate, account.id, initialAmounts()), account.id, null);
    return account;
  }

  topUp(accountId: number, asset: string, amountText: string): void {
    const cap = Object.hasOwn(PAPER_TOPUP_CAP, asset) ? PAPER_TOPUP_CAP[asset] : undefined;
    const amount = toMinor(asset, amountText);
    const capMinor = cap === undefined ? null : toMinor(asset, cap);
    if (amount === null || amount <= 0n || capMinor === null) {
      throw new AppError(
        PaperCode.TOPUP_LIMIT,
        `Top-ups exist for ${Object.keys(PAPER_TOPUP_CAP).join(", ")}`,
        {
          status: 200,
          data: { asset, max: cap ?? "0" },
        },
      );
    }
    const total =
      this.ledger.balance(availableOf(accountId), asset) + this.ledger.balance(heldOf(accountId), asset);
    if (total + amount > capMinor) {
      throw new AppError(PaperCode.TOPUP_LIMIT, `A top-up may bring ${asset} to at most ${cap}`, {
        status: 200,
        data: { asset, max: cap },
      });
    }
    this.mustPost(mintEntry(EntryKind.TopUp, accountId, [{ asset, amount }]), accountId, null);
  }

  /** Cancels every open order, returns every balance to the treasury, mints the initial set again. */
  reset(accountId: number): void {
    for (const id of this.openOrderIds(accountId, (r) => r.wallet === "spot")) this.cancel(accountId, id);
    this.mustPost(burnEntry(accountId, this.ledger.balancesOf(availableOf(accountId))), accountId, null);
    this.mustPost(mintEntry(EntryKind.Reset, accountId, initialAmounts()), accountId, null);
  }

  /** Cancels a live order (a spot one, or with `margin` a margin one); false when it is not live (any more). */
  cancel(accountId: number, orderId: number, margin = false): boolean {
    const o = this.live.get(orderId);
    if (o === undefined || o.row.accountId !== accountId || (o.row.wallet !== "spot") !== margin)
      return false;
    if (o.row.bookSeq === null) {
      this.finish(o, "CANCELED");
      // Cancelling one leg of a TP/SL pair cancels the pair (the other's hold is released with it).
      this.dropPartner(o, false);
    } else this.bookOf(o.row.symbol)?.book.cancel(orderId, this.now());
    return true;
  }

  place(
    accountId: number,
    vipLevel: number,
    body: PlaceOrderBody,
    options: PlaceOptions = { wallet: "spot", sideEffect: null },
  ): PlaceOutcome {
    const cidKey = body.clientOrderId === undefined ? null : `${accountId}\u0000${body.clientOrderId}`;
    const seen = cidKey === null ? undefined : this.recentCids.get(cidKey);
    if (seen !== undefined) return { kind: "duplicate", orderId: seen };

    const symbol = body.symbol.toUpperCase();
    const spec = this.venue.spec(symbol);
    const units = spec === undefined ? null : pairUnits(spec);
    const vb = spec === undefined ? undefined : this.bookOf(symbol);
    if (spec === undefined || units === null || vb === undefined) {
      throw new AppError(PaperCode.UNKNOWN_SYMBOL, `Unknown symbol ${symbol}`, { status: 200 });
    }
    if ((this.openCount.get(accountId) ?? 0) >= PAPER_MAX_OPEN_ORDERS) {
      throw new AppError(PaperCode.TOO_MANY_OPEN_ORDERS, `At most ${PAPER_MAX_OPEN_ORDERS} open orders`, {
        status: 200,
      });
    }
    const side: 0 | 1 = body.side === "BUY" ? Side.Buy : Side.Sell;
    const tier = vipTier(vipLevel);
    const rates = { makerPpm: tier.makerPpm, takerPpm: tier.takerPpm };
    const last = this.venue.lastTicks(symbol);
    const plan = planOrder(spec, units, vb, side, body, rates, last);
    const tpsl = planTpSl(spec, side, body, plan.lots, body.type === "MARKET" ? null : plan.priceTicks, last);
    const held = holdFor(spec, units, side, plan.holdTicks, plan.lots, rates);
    const holdAsset = side === Side.Buy ? units.quote : units.base;
    const wallet = ledgerWallet(accountId, options.wallet, symbol);
    options.beforeHold?.(holdAsset, held);
    const id = ++this.ids.order;
    const refusal = this.post(holdEntry(accountId, holdAsset, held, wallet), accountId, id);
    if (refusal !== null) {
      this.ids.order--;
      throw new AppError(PaperCode.INSUFFICIENT_BALANCE, `Insufficient ${holdAsset} balance`, {
        status: 200,
        data: {
          asset: holdAsset,
          required: held.toString(),
          available: this.ledger.balance(wallet?.available ?? availableOf(accountId), holdAsset).toString(),
        },
      });
    }
    const now = this.now();
    const row: OrderRow = {
      id,
      accountId,
      wallet: options.wallet,
      sideEffect: options.sideEffect,
      clientOrderId: body.clientOrderId ?? `#${id}`,
      symbol,
      side,
      type: body.type,
      tif: body.type === "LIMIT" || body.type === "STOP_LIMIT" ? (body.timeInForce ?? "GTC") : null,
      priceTicks: plan.priceTicks,
      stopTicks: plan.stopTicks,
      qtyLots: plan.lots,
      quoteQty: body.quoteQty ?? null,
      status: "NEW",
      triggered: false,
      bookSeq: null,
      filledLots: 0,
      takerQuote: 0n,
      makerQuote: 0n,
      fees: 0n,
      held,
      makerPpm: rates.makerPpm,
      takerPpm: rates.takerPpm,
      createdAt: now,
      updatedAt: now,
      ...NO_TPSL,
      ...tpsl,
    };
    const o: LiveOrder = {
      row,
      funds: newOrderFunds({ id, accountId, side, units, ...rates, held, wallet }),
      spec,
      units,
    };
    if (cidKey !== null) this.recentCids.set(cidKey, id);
    this.track(o);
    this.snap(o);
    const collect = { orderId: id, fills: [] as TradeRow[], rejection: null as DomainError | null };
    this.collect = collect;
    try {
      if (plan.stopTicks !== null) this.watchStop(o);
      else this.enter(o, vb);
    } finally {
      this.collect = null;
    }
    return { kind: "placed", order: { ...row }, fills: collect.fills, rejection: collect.rejection };
  }

  /** Sends an order (new, or a stop that fired) into its book. */
  private enter(o: LiveOrder, vb: VenueBook): void {
    const r = o.row;
    r.bookSeq = ++this.ids.bookSeq;
    this.snap(o);
    const ts = this.now();
    const left = r.qtyLots - r.filledLots;
    if (r.type === "MARKET" || r.type === "STOP_MARKET") {
      if (r.side === Side.Sell) vb.book.market(r.id, r.accountId, Side.Sell, left, Stp.ExpireMaker, ts);
      else vb.book.limit(r.id, r.accountId, Side.Buy, r.priceTicks ?? 0, left, Tif.IOC, Stp.ExpireMaker, ts);
      return;
    }
    const tif =
      r.type === "LIMIT_MAKER" ? Tif.GTX : r.tif === "IOC" ? Tif.IOC : r.tif === "FOK" ? Tif.FOK : Tif.GTC;
    vb.book.limit(r.id, r.accountId, r.side, r.priceTicks ?? 0, left, tif, Stp.ExpireMaker, ts);
  }

  /** Fires the symbol's stops the reference price has reached. */
  triggerStops(symbol: string): number {
    const set = this.stops.get(symbol);
    if (set === undefined || set.size === 0) return 0;
    const last = this.venue.lastTicks(symbol);
    const vb = this.bookOf(symbol);
    if (last === 0 || vb === undefined) return 0;
    let fired = 0;
    for (const o of [...set]) {
      // A TP/SL leg may have gone with its partner earlier in this loop.
      if (!set.has(o)) continue;
      const stop = o.row.stopTicks ?? 0;
      if (!triggerReached(firesAbove(o.row), stop, last)) continue;
      set.delete(o);
      o.row.triggered = true;
      fired++;
      this.dropPartner(o, true);
      this.enter(o, vb);
    }
    return fired;
  }

  /** Symbols with stops waiting (the service checks them when prices move). */
  hasStops(symbol: string): boolean {
    return (this.stops.get(symbol)?.size ?? 0) > 0;
  }
}

function hasTpSl(row: OrderRow): boolean {
  return row.tpTriggerTicks !== null || row.slTriggerTicks !== null;
}

function initialAmounts(): { asset: string; amount: bigint }[] {
  return Object.entries(PAPER_INITIAL_BALANCES).map(([asset, text]) => ({
    asset,
    amount: toMinor(asset, text) ?? 0n,
  }));
}
