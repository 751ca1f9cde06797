import {
  asLots,
  asTicks,
  type BookListener,
  type DomainError,
  type FeeSchedule,
  type InstrumentSpec,
  type JournalEntry,
  type Ledger,
  type LedgerRefusal,
  newOrderFunds,
  type OrderFunds,
  type PairUnits,
  pairUnits,
  QueuedOrder,
  Side,
  Stp,
  shownAt,
  Tif,
} from "@meridian/domain";
import type { LedgerService } from "../ledger/index.ts";
import {
  emptyOrderBatch,
  type LoadedState,
  ledgerWallet,
  type OrderBatch,
  type OrderRow,
  type TradeRow,
} from "./rows.ts";
import type { PaperVenue, VenueBook } from "./venue.ts";

/** An open order as the engine holds it: its row, its funds (hold and fills so far) and its pair. */
export interface LiveOrder {
  readonly row: OrderRow;
  readonly funds: OrderFunds;
  readonly spec: InstrumentSpec;
  readonly units: PairUnits;
}

/** A resting order on a mirrored symbol: out of the book, waiting in the exchange's queue. */
export interface Queued {
  readonly order: LiveOrder;
  readonly queue: QueuedOrder;
  /** When it joined the queue: trades the exchange printed before are not its own. */
  readonly since: number;
  /**
   * Queued while the exchange's book was unknown (an order reloaded on start): it queues
   * again, behind what shows, once the book is known (`requeueBlind`).
   */
  readonly blind: boolean;
}

/** What the order being placed came to within its command: its fills, and a rejection by the book. */
export interface Collected {
  orderId: number;
  fills: TradeRow[];
  rejection: DomainError | null;
}

/** What the spot engine uses of the ledger writer: its ledger, whether a command runs, and `changed`. */
export type SpotLedger = Pick<LedgerService, "tx" | "inCommand" | "changed">;

/**
 * The spot engine's memory and bookkeeping, shared by its parts: the open orders with
 * their holds (`live`), untriggered stops per symbol, open-order counts, the client order
 * ids of this commit, the ids, the venue's books it listens to, and the ledger writer
 * (`modules/ledger`). Every change lands in the current `OrderBatch` (`snap`) or the
 * ledger's journal (`post`), which the ledger writer commits as one transaction.
 */
export class SpotState {
  /** Set when a settlement was refused: the service must rebuild from the database. */
  broken: string | null = null;
  readonly venue: PaperVenue;
  readonly now: () => number;
  readonly live = new Map<number, LiveOrder>();
  readonly stops = new Map<string, Set<LiveOrder>>();
  readonly openCount = new Map<number, number>();
  /**
   * Mirrored symbols' resting limit orders by symbol, then id, in the order they rested.
   * They are not in the book, so a mirrored book moving through them does not fill them:
   * the exchange's printed trades do (`exchangeTrades` in fills.ts).
   */
  readonly queued = new Map<string, Map<number, Queued>>();
  /** Client order ids placed since the last commit (account \u0000 id -> order id). */
  readonly recentCids = new Map<string, number>();
  /** The ledger writer whose journal the engine posts to (`modules/ledger`). */
  readonly books: SpotLedger;
  /** The rates an order pays, by its user's VIP level. */
  readonly fees: FeeSchedule;
  batch: OrderBatch = emptyOrderBatch();
  ids = { order: 0, trade: 0, bookSeq: 0 };
  /** Book events are ignored while set (`clear` takes the orders out of the books). */
  muted = false;
  /** The order `place` is running, whose fills and rejection its answer reports. */
  collect: Collected | null = null;
  /**
   * Called for each fill of a margin order once it is settled (the margin module's
   * AUTO_REPAY and account pushes); it may post entries and add writes.
   */
  onMarginFill: ((order: OrderRow, trade: TradeRow) => void) | null = null;
  private readonly listen: (symbol: string) => BookListener;
  private readonly subscribed = new Map<string, () => void>();

  /** `listen`: the engine's listener on a symbol's book (fills, cancels, expiries), subscribed on first use. */
  constructor(
    venue: PaperVenue,
    now: () => number,
    books: SpotLedger,
    fees: FeeSchedule,
    listen: (symbol: string) => BookListener,
  ) {
    this.venue = venue;
    this.now = now;
    this.books = books;
    this.fees = fees;
    this.listen = listen;
  }

  /** The ledger (the authority for every balance check), held by the ledger writer. */
  get ledger(): Ledger {
    return this.books.tx.ledger;
  }

  /** True while a command runs in the ledger writer. */
  get inCommand(): boolean {
    return this.books.inCommand;
  }

  /** Hands over what changed since the last call. */
  takeBatch(): OrderBatch {
    const b = this.batch;
    this.batch = emptyOrderBatch();
    // One copy per changed order, not one per change (an order is snapped about three times).
    for (const [id, row] of b.orders) b.orders.set(id, { ...row });
    // The ledger writer looks client order ids up in the database before the next commit's
    // placements run (PaperService.transactPlacement): only this commit's are needed here.
    this.recentCids.clear();
    return b;
  }

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
    this.queued.clear();
    this.openCount.clear();
    this.recentCids.clear();
    this.batch = emptyOrderBatch();
    this.broken = null;
  }

  /**
   * Rebuilds from the database, once the ledger is loaded: resting orders replayed into
   * the books in their original book order (a resting order the market has moved
   * through fills now, settled as usual), stops back on their watch lists.
   */
  load(state: LoadedState): void {
    this.ids = { ...state.maxIds };
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
      else if (this.venue.mirrored?.(row.symbol) === true) {
        // Where it stood in the queue is not stored: it queues again behind what shows now.
        this.bookOf(row.symbol);
        this.enqueue(o);
      } else {
        const vb = this.bookOf(row.symbol);
        const left = asLots(row.qtyLots - row.filledLots);
        vb?.book.limit(
          row.id,
          row.accountId,
          row.side,
          asTicks(row.priceTicks ?? 0),
          left,
          Tif.GTC,
          Stp.ExpireMaker,
          ts,
        );
      }
    }
  }

  /** The venue's book of `symbol`, listened to from its first use on. */
  bookOf(symbol: string): VenueBook | undefined {
    const vb = this.venue.book(symbol);
    if (vb !== undefined && !this.subscribed.has(symbol)) {
      this.subscribed.set(symbol, vb.subscribe(this.listen(symbol)));
    }
    return vb;
  }

  /** Stops listening to the venue's books. */
  detach(): void {
    for (const off of this.subscribed.values()) off();
    this.subscribed.clear();
  }

  track(o: LiveOrder): void {
    this.live.set(o.row.id, o);
    this.openCount.set(o.row.accountId, (this.openCount.get(o.row.accountId) ?? 0) + 1);
  }

  /** Forgets an order that is done (its row is snapped by the caller). */
  untrack(o: LiveOrder): void {
    this.live.delete(o.row.id);
    this.openCount.set(o.row.accountId, (this.openCount.get(o.row.accountId) ?? 1) - 1);
    this.stops.get(o.row.symbol)?.delete(o);
    this.queued.get(o.row.symbol)?.delete(o.row.id);
  }

  watchStop(o: LiveOrder): void {
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

  post(entry: JournalEntry, accountId: number | null, orderId: number | null): LedgerRefusal | null {
    return this.books.tx.post(entry, accountId, orderId);
  }

  /** Settlements follow from holds, so a refusal means a bug: stop and rebuild. */
  mustPost(entry: JournalEntry | null, accountId: number | null, orderId: number | null): void {
    if (entry === null) return;
    const refusal = this.post(entry, accountId, orderId);
    if (refusal !== null)
      this.broken ??= `settlement refused: ${refusal.code} ${refusal.account} ${refusal.asset}`;
  }

  /** Copies the order's funds into its row and puts the row in the batch. */
  snap(o: LiveOrder): void {
    const r = o.row;
    const f = o.funds;
    r.held = f.held;
    r.takerQuote = f.takerQuote;
    r.makerQuote = f.makerQuote;
    r.fees = f.fees;
    r.filledLots = f.filledLots;
    r.updatedAt = this.now();
    this.batch.orders.set(r.id, r);
    this.books.changed();
  }

  /** Sends an order (new, or a stop that fired) into its book. */
  enter(o: LiveOrder, vb: VenueBook): void {
    const r = o.row;
    r.bookSeq = ++this.ids.bookSeq;
    this.snap(o);
    const ts = this.now();
    // The rows keep plain integers; the book takes them as ticks and lots.
    const left = asLots(r.qtyLots - r.filledLots);
    const price = asTicks(r.priceTicks ?? 0);
    if (r.type === "MARKET" || r.type === "STOP_MARKET") {
      if (r.side === Side.Sell) vb.book.market(r.id, r.accountId, Side.Sell, left, Stp.ExpireMaker, ts);
      else vb.book.limit(r.id, r.accountId, Side.Buy, price, left, Tif.IOC, Stp.ExpireMaker, ts);
      return;
    }
    const tif =
      r.type === "LIMIT_MAKER" ? Tif.GTX : r.tif === "IOC" ? Tif.IOC : r.tif === "FOK" ? Tif.FOK : Tif.GTC;
    vb.book.limit(r.id, r.accountId, r.side, price, left, tif, Stp.ExpireMaker, ts);
    // On a mirrored symbol what rests leaves the book for the exchange's queue.
    if (vb.book.has(r.id) && this.venue.mirrored?.(r.symbol) === true) {
      this.muted = true;
      try {
        vb.book.cancel(r.id, ts);
      } finally {
        this.muted = false;
      }
      this.enqueue(o);
    }
  }

  /**
   * Queues a resting order on a mirrored symbol behind the size the exchange displays at
   * its price on its side now (none while the book is unknown).
   */
  private enqueue(o: LiveOrder): void {
    const r = o.row;
    const price = r.priceTicks ?? 0;
    const shown = this.venue.shownBook?.(r.symbol);
    const ahead = shown === undefined ? 0 : shownAt(r.side === Side.Buy ? shown.bids : shown.asks, price);
    let symbolQueue = this.queued.get(r.symbol);
    if (symbolQueue === undefined) {
      symbolQueue = new Map();
      this.queued.set(r.symbol, symbolQueue);
    }
    symbolQueue.set(r.id, {
      order: o,
      queue: new QueuedOrder(r.side, price, r.qtyLots - r.filledLots, ahead),
      since: this.now(),
      blind: shown === undefined,
    });
  }

  /**
   * Orders queued before the exchange's book was known (reloaded on start) queue again
   * behind what it shows, from now on, once it is known. Without this a reloaded order
   * would stand first at its price, and the recent trades a trade channel replays on
   * subscribing would fill it.
   */
  requeueBlind(symbol: string): void {
    const symbolQueue = this.queued.get(symbol);
    if (symbolQueue === undefined || this.venue.shownBook?.(symbol) === undefined) return;
    for (const { order, blind } of [...symbolQueue.values()]) if (blind) this.enqueue(order);
  }
}
