import { DomainCode, type DomainError, domainError } from "../errors.ts";
import type { InstrumentSpec } from "../instrument.ts";
import { lotsToQty, ticksToPrice } from "../instrument.ts";
import { type Lots, MAX_SAFE, type Ticks } from "../units.ts";
import { BookSide } from "./book-side.ts";
import { firesAt, firesOnRise, legFiresOnRise, legTriggerValid } from "./conditional-order.ts";
import { IntTable } from "./id-table.ts";
import { OrderStore } from "./order-store.ts";
import { T_DONE, T_PENDING, T_POPPED, TriggerBook, TriggerOrder } from "./trigger-book.ts";
import {
  type BookListener,
  type BookSnapshot,
  CancelReason,
  ExpireReason,
  type OrderSnapshot,
  type PlaceOrder,
  Side,
  Stp,
  Tif,
  type TpSl,
  type TpSlLeg,
} from "./types.ts";

const E_DUPLICATE = domainError(DomainCode.DUPLICATE_ORDER_ID, "id");
const E_NOT_FOUND = domainError(DomainCode.ORDER_NOT_FOUND, "id");
const E_POST_ONLY = domainError(DomainCode.POST_ONLY_WOULD_TAKE, "price");
const E_OVERFLOW = domainError(DomainCode.LEVEL_OVERFLOW, "qty");
const E_STOP_NOW = domainError(DomainCode.STOP_WOULD_TRIGGER, "stopPrice");

export interface OrderBookOptions {
  /** Applied when an order names none. Binance's default is expire maker. */
  readonly defaultStp?: Stp;
  /** Initial capacity in orders (the store grows by doubling). */
  readonly capacity?: number;
}

interface Spawn {
  readonly tpsl: TpSl;
  readonly account: number;
  readonly side: Side;
  readonly filled: number;
  readonly stp: Stp;
}

/**
 * A price-time priority order book for one instrument. Deterministic: time and
 * ids come from the caller, events go to the listener in a fixed order, and the
 * same command sequence always yields the same events.
 *
 * Prices are integer ticks and quantities integer lots, `Ticks` and `Lots` in every
 * signature (the caller brands them where it converts: `priceToTicks`, `qtyToLots`);
 * inside, the typed arrays hold plain integers, cast back to the brands where they
 * leave in events, depth and snapshots (types only: nothing runs for it). `limit`,
 * `market` and `place` check them against the instrument spec (so every sum the engine
 * keeps stays a safe integer) and report failures as `rejected` events carrying a
 * `DomainError`. Nothing here throws for bad input.
 */
export class OrderBook {
  readonly spec: InstrumentSpec;
  /** Last trade price (0 before the first trade). */
  lastPrice = 0 as Ticks;
  private readonly store: OrderStore;
  private readonly bids: BookSide;
  private readonly asks: BookSide;
  private readonly listener: BookListener;
  private readonly defaultStp: Stp;
  /** Resting orders: id -> store slot. */
  private readonly ids: IntTable;
  private readonly held = new Map<number, TriggerOrder>();
  private readonly triggers = new TriggerBook();
  private seq = 0;
  private prio = 0;
  private now = 0;
  private stpHit = false;
  private sweep = new Float64Array(64);
  private sweepLen = 0;
  private readonly queue: TriggerOrder[] = [];
  private qHead = 0;
  private readonly spawns: Spawn[] = [];
  private readonly fired: TriggerOrder[] = [];

  constructor(spec: InstrumentSpec, listener: BookListener, options: OrderBookOptions = {}) {
    this.spec = spec;
    this.listener = listener;
    this.defaultStp = options.defaultStp ?? Stp.ExpireMaker;
    this.store = new OrderStore(options.capacity ?? 1024);
    this.ids = new IntTable(options.capacity ?? 1024);
    this.bids = new BookSide(Side.Buy, this.store);
    this.asks = new BookSide(Side.Sell, this.store);
  }

  /** Number of live orders (resting plus trigger). */
  get size(): number {
    return this.ids.size + this.held.size;
  }

  /** The last event sequence issued. */
  get sequence(): number {
    return this.seq;
  }

  has(id: number): boolean {
    return this.ids.get(id) !== 0 || this.held.has(id);
  }

  /** Best bid and ask (0 when that side is empty). */
  top(): { bid: Ticks; ask: Ticks } {
    return {
      bid: (this.bids.best === 0 ? 0 : (this.bids.lvPrice[this.bids.best] ?? 0)) as Ticks,
      ask: (this.asks.best === 0 ? 0 : (this.asks.lvPrice[this.asks.best] ?? 0)) as Ticks,
    };
  }

  /** A limit order (GTC, IOC, FOK or GTX post-only) on the allocation-free fast path. */
  limit(
    id: number,
    account: number,
    side: Side,
    price: Ticks,
    qty: Lots,
    tif: Tif,
    stp: Stp,
    ts: number,
  ): void {
    this.now = ts;
    const error = this.isTaken(id)
      ? E_DUPLICATE
      : (this.checkPrice(price, "price") ?? this.checkQty(qty, price));
    if (error !== null) {
      this.listener.onRejected(++this.seq, id, error, ts);
      return;
    }
    this.runLimit(id, account, side, price, qty, tif, stp, null, true);
    if (this.qHead < this.queue.length || this.spawns.length > 0) this.drain();
  }

  /** A market order for `qty` lots; what the book cannot fill expires. */
  market(id: number, account: number, side: Side, qty: Lots, stp: Stp, ts: number): void {
    this.now = ts;
    const error = this.isTaken(id) ? E_DUPLICATE : this.checkQty(qty, 0);
    if (error !== null) {
      this.listener.onRejected(++this.seq, id, error, ts);
      return;
    }
    this.runMarket(id, account, side, qty, stp, null, true);
    if (this.qHead < this.queue.length || this.spawns.length > 0) this.drain();
  }

  /** Any order type, including trigger orders and attached TP/SL. */
  place(cmd: PlaceOrder): void {
    const ts = cmd.ts;
    this.now = ts;
    const error = this.validate(cmd);
    if (error !== null) {
      this.listener.onRejected(++this.seq, cmd.id, error, ts);
      return;
    }
    const stp = cmd.stp ?? this.defaultStp;
    const tif = cmd.tif ?? Tif.GTC;
    const tpsl = cmd.tpsl ?? null;
    if (cmd.type === "limit") {
      this.runLimit(cmd.id, cmd.account, cmd.side, cmd.price ?? 0, cmd.qty, tif, stp, tpsl, true);
    } else if (cmd.type === "market") {
      this.runMarket(cmd.id, cmd.account, cmd.side, cmd.qty, stp, tpsl, true);
    } else {
      const t = new TriggerOrder();
      t.id = cmd.id;
      t.account = cmd.account;
      t.side = cmd.side;
      t.isLimit = cmd.type === "stop-limit";
      t.price = cmd.price ?? 0;
      t.stop = cmd.stopPrice ?? 0;
      t.above = firesOnRise(cmd.side === Side.Buy, false);
      t.qty = cmd.qty;
      t.tif = tif;
      t.stp = stp;
      t.ts = ts;
      t.tpsl = tpsl;
      if (this.wouldFire(t)) {
        this.listener.onRejected(++this.seq, t.id, E_STOP_NOW, ts);
        return;
      }
      this.listener.onAccepted(++this.seq, t.id, ts);
      this.hold(t);
    }
    if (this.qHead < this.queue.length || this.spawns.length > 0) this.drain();
  }

  /** Cancels a resting or trigger order by id in O(1) (an OCO partner goes with it). */
  cancel(id: number, ts: number): void {
    this.now = ts;
    const o = this.ids.get(id);
    if (o !== 0) {
      const st = this.store;
      const side = st.side(o);
      const book = side === Side.Buy ? this.bids : this.asks;
      const price = st.price(o);
      const left = st.qty(o);
      const lvl = st.level(o);
      const count = book.unlink(o);
      this.ids.delete(id);
      this.listener.onDelta(
        ++this.seq,
        side,
        price as Ticks,
        (count === 0 ? 0 : (book.lvTotal[lvl] ?? 0)) as Lots,
      );
      this.listener.onCancelled(++this.seq, id, left as Lots, CancelReason.User, ts);
      const tpsl = st.tpsl(o);
      const orig = st.orig(o);
      if (tpsl !== null && orig > left) this.spawnLater(tpsl, st.account(o), side, orig - left, st.stp(o));
      st.release(o);
    } else {
      const t = this.held.get(id);
      if (t === undefined) {
        this.listener.onRejected(++this.seq, id, E_NOT_FOUND, ts);
        return;
      }
      this.triggers.remove(t);
      this.killTrigger(t, CancelReason.User);
      const partner = t.oco;
      if (partner !== null) this.cancelPartner(partner);
    }
    if (this.qHead < this.queue.length || this.spawns.length > 0) this.drain();
  }

  /**
   * Up to `n` levels from the best outwards as [price, qty] pairs (ticks, lots). With
   * `exceptAccount`, what a taker of that account fills against under self-trade
   * prevention that expires makers: each level less that account's own orders, and a
   * level of only its orders left out.
   */
  depth(side: Side, n: number, exceptAccount?: number): Array<[Ticks, Lots]> {
    const out: Array<[Ticks, Lots]> = [];
    if (n <= 0) return out;
    const book = side === Side.Buy ? this.bids : this.asks;
    const st = this.store;
    book.walk((lvl) => {
      let qty = book.lvTotal[lvl] ?? 0;
      if (exceptAccount !== undefined)
        for (let o = book.lvHead[lvl] ?? 0; o !== 0; o = st.next(o))
          if (st.account(o) === exceptAccount) qty -= st.qty(o);
      if (qty > 0) out.push([(book.lvPrice[lvl] ?? 0) as Ticks, qty as Lots]);
      return out.length < n;
    });
    return out;
  }

  /** Open orders and trigger orders in priority order, enough to rebuild the book. */
  snapshot(): BookSnapshot {
    const orders: OrderSnapshot[] = [];
    const st = this.store;
    for (const book of [this.bids, this.asks]) {
      book.walk((lvl) => {
        for (let o = book.lvHead[lvl] ?? 0; o !== 0; o = st.next(o)) {
          orders.push({
            id: st.id(o),
            account: st.account(o),
            side: st.side(o),
            type: "limit",
            price: st.price(o) as Ticks,
            stopPrice: 0 as Ticks,
            triggerAbove: false,
            qty: st.qty(o) as Lots,
            origQty: st.orig(o) as Lots,
            tif: st.tif(o),
            stp: st.stp(o),
            seq: st.seq(o),
            ts: st.ts(o),
            ocoId: null,
            tpsl: st.tpsl(o),
          });
        }
        return true;
      });
    }
    for (const t of this.held.values()) {
      orders.push({
        id: t.id,
        account: t.account,
        side: t.side,
        type: t.isLimit ? "stop-limit" : "stop-market",
        price: t.price as Ticks,
        stopPrice: t.stop as Ticks,
        triggerAbove: t.above,
        qty: t.qty as Lots,
        origQty: t.qty as Lots,
        tif: t.tif,
        stp: t.stp,
        seq: t.seq,
        ts: t.ts,
        ocoId: t.oco === null ? null : t.oco.id,
        tpsl: t.tpsl,
      });
    }
    orders.sort((a, b) => a.seq - b.seq);
    return {
      symbol: this.spec.symbol,
      seq: this.seq,
      lastPrice: this.lastPrice,
      priority: this.prio,
      orders,
    };
  }

  /** Rebuilds a book from a snapshot without emitting events. */
  static restore(
    spec: InstrumentSpec,
    snap: BookSnapshot,
    listener: BookListener,
    options: OrderBookOptions = {},
  ): OrderBook {
    const book = new OrderBook(spec, listener, { capacity: snap.orders.length + 16, ...options });
    book.seq = snap.seq;
    book.lastPrice = snap.lastPrice;
    book.prio = snap.priority;
    const pairs: Array<[TriggerOrder, number]> = [];
    const sorted = [...snap.orders].sort((a, b) => a.seq - b.seq);
    for (const s of sorted) {
      if (s.type === "limit") {
        const st = book.store;
        const o = st.alloc();
        st.init(o, s.id, s.account, s.side, s.price, s.qty, s.origQty, s.tif, s.stp, s.seq, s.ts, s.tpsl);
        const side = s.side === Side.Buy ? book.bids : book.asks;
        side.append(side.levelFor(s.price), o);
        book.ids.set(s.id, o);
      } else {
        const t = new TriggerOrder();
        t.id = s.id;
        t.account = s.account;
        t.side = s.side;
        t.isLimit = s.type === "stop-limit";
        t.price = s.price;
        t.stop = s.stopPrice;
        t.above = s.triggerAbove;
        t.qty = s.qty;
        t.tif = s.tif;
        t.stp = s.stp;
        t.seq = s.seq;
        t.ts = s.ts;
        t.tpsl = s.tpsl;
        book.held.set(t.id, t);
        book.triggers.add(t);
        if (s.ocoId !== null) pairs.push([t, s.ocoId]);
      }
    }
    for (const [t, partnerId] of pairs) t.oco = book.held.get(partnerId) ?? null;
    return book;
  }

  // ---- matching -------------------------------------------------------------

  private runLimit(
    id: number,
    account: number,
    side: Side,
    price: number,
    qty: number,
    tif: Tif,
    stp: Stp,
    tpsl: TpSl | null,
    announce: boolean,
  ): void {
    const ts = this.now;
    const listener = this.listener;
    const own = side === Side.Buy ? this.bids : this.asks;
    const opp = side === Side.Buy ? this.asks : this.bids;
    const best = opp.best;
    const bestPrice = opp.lvPrice[best] ?? 0;
    const crosses = best !== 0 && (side === Side.Buy ? bestPrice <= price : bestPrice >= price);
    if (tif === Tif.GTX && crosses) {
      listener.onRejected(++this.seq, id, E_POST_ONLY, ts);
      return;
    }
    if (own.total + qty > MAX_SAFE) {
      listener.onRejected(++this.seq, id, E_OVERFLOW, ts);
      return;
    }
    if (announce) listener.onAccepted(++this.seq, id, ts);
    if (tif === Tif.FOK && !this.canFill(side, price, qty, account, stp)) {
      listener.onExpired(++this.seq, id, qty as Lots, ExpireReason.Fok, ts);
      return;
    }
    this.stpHit = false;
    const left = crosses ? this.match(id, account, side, price, qty, stp) : qty;
    let rested = false;
    if (left > 0) {
      if (this.stpHit) listener.onExpired(++this.seq, id, left as Lots, ExpireReason.StpTaker, ts);
      else if (tif === Tif.IOC || tif === Tif.FOK)
        listener.onExpired(++this.seq, id, left as Lots, ExpireReason.Ioc, ts);
      else {
        const st = this.store;
        const o = st.alloc();
        st.init(o, id, account, side, price, left, qty, tif, stp, ++this.prio, ts, tpsl);
        const lvl = own.levelFor(price);
        own.append(lvl, o);
        this.ids.set(id, o);
        listener.onDelta(++this.seq, side, price as Ticks, (own.lvTotal[lvl] ?? 0) as Lots);
        rested = true;
      }
    }
    if (tpsl !== null && !rested && qty > left) this.spawnLater(tpsl, account, side, qty - left, stp);
    if (this.sweepLen > 0) this.afterSweep();
  }

  private runMarket(
    id: number,
    account: number,
    side: Side,
    qty: number,
    stp: Stp,
    tpsl: TpSl | null,
    announce: boolean,
  ): void {
    const ts = this.now;
    if (announce) this.listener.onAccepted(++this.seq, id, ts);
    const left = this.match(id, account, side, side === Side.Buy ? Infinity : -Infinity, qty, stp);
    if (left > 0) {
      const reason = this.stpHit ? ExpireReason.StpTaker : ExpireReason.Market;
      this.listener.onExpired(++this.seq, id, left as Lots, reason, ts);
    }
    if (tpsl !== null && qty > left) this.spawnLater(tpsl, account, side, qty - left, stp);
    if (this.sweepLen > 0) this.afterSweep();
  }

  /** Takes liquidity from the opposite side up to `limit`; returns the lots left. */
  private match(takerId: number, account: number, side: Side, limit: number, qty: number, stp: Stp): number {
    const listener = this.listener;
    const ts = this.now;
    const book = side === Side.Buy ? this.asks : this.bids;
    const makerSide: Side = side === Side.Buy ? Side.Sell : Side.Buy;
    const st = this.store;
    const isBuy = side === Side.Buy;
    let left = qty;
    this.stpHit = false;
    this.sweepLen = 0;
    while (left > 0) {
      const lvl = book.best;
      if (lvl === 0) break;
      const px = book.lvPrice[lvl] ?? 0;
      if (isBuy ? px > limit : px < limit) break;
      let traded = false;
      let touched = false;
      let o = book.lvHead[lvl] ?? 0;
      while (o !== 0) {
        const next = st.next(o);
        if (st.account(o) === account) {
          if (stp !== Stp.ExpireTaker) {
            touched = true;
            this.expireMaker(book, lvl, o);
          }
          if (stp !== Stp.ExpireMaker) {
            this.stpHit = true;
            break;
          }
          o = next;
          continue;
        }
        const have = st.qty(o);
        const q = Math.min(have, left);
        const rest = have - q;
        st.setQty(o, rest);
        left -= q;
        book.lvTotal[lvl] = (book.lvTotal[lvl] ?? 0) - q;
        book.total -= q;
        traded = true;
        const makerId = st.id(o);
        listener.onTrade(
          ++this.seq,
          makerId,
          takerId,
          px as Ticks,
          q as Lots,
          makerSide,
          rest as Lots,
          left as Lots,
          ts,
        );
        if (rest === 0) {
          this.dropHead(book, lvl, o);
          this.ids.delete(makerId);
          const tpsl = st.tpsl(o);
          if (tpsl !== null) this.spawnLater(tpsl, st.account(o), makerSide, st.orig(o), st.stp(o));
          st.release(o);
        }
        if (left === 0) break;
        o = next;
      }
      if (traded) {
        this.lastPrice = px as Ticks;
        this.recordSweep(px);
      }
      const count = book.lvCount[lvl] ?? 0;
      if (traded || touched)
        listener.onDelta(
          ++this.seq,
          makerSide,
          px as Ticks,
          (count === 0 ? 0 : (book.lvTotal[lvl] ?? 0)) as Lots,
        );
      if (count === 0) book.emptied(lvl);
      if (this.stpHit) break;
    }
    return left;
  }

  /** Self-trade prevention removed a maker (always the head of the level being swept). */
  private expireMaker(book: BookSide, lvl: number, o: number): void {
    const st = this.store;
    const left = st.qty(o);
    const id = st.id(o);
    book.lvTotal[lvl] = (book.lvTotal[lvl] ?? 0) - left;
    book.total -= left;
    this.dropHead(book, lvl, o);
    this.ids.delete(id);
    this.listener.onExpired(++this.seq, id, left as Lots, ExpireReason.StpMaker, this.now);
    const tpsl = st.tpsl(o);
    const orig = st.orig(o);
    if (tpsl !== null && orig > left) this.spawnLater(tpsl, st.account(o), book.side, orig - left, st.stp(o));
    st.release(o);
  }

  /** Unlinks the head order of a level being swept; the caller settles the totals and the empty level. */
  private dropHead(book: BookSide, lvl: number, o: number): void {
    const st = this.store;
    const next = st.next(o);
    book.lvHead[lvl] = next;
    if (next === 0) book.lvTail[lvl] = 0;
    else st.setPrev(next, 0);
    book.lvCount[lvl] = (book.lvCount[lvl] ?? 0) - 1;
  }

  /** FOK dry run: would `qty` fill within `limit`, honouring the taker's STP mode? */
  private canFill(side: Side, limit: number, qty: number, account: number, stp: Stp): boolean {
    const book = side === Side.Buy ? this.asks : this.bids;
    const st = this.store;
    let need = qty;
    let blocked = false;
    book.walk((lvl) => {
      const px = book.lvPrice[lvl] ?? 0;
      if (side === Side.Buy ? px > limit : px < limit) return false;
      for (let o = book.lvHead[lvl] ?? 0; o !== 0; o = st.next(o)) {
        if (st.account(o) === account) {
          if (stp === Stp.ExpireMaker) continue;
          blocked = true;
          return false;
        }
        need -= st.qty(o);
        if (need <= 0) return false;
      }
      return true;
    });
    return need <= 0 && !blocked;
  }

  private recordSweep(px: number): void {
    if (this.sweepLen === this.sweep.length) {
      const grown = new Float64Array(this.sweepLen * 2);
      grown.set(this.sweep);
      this.sweep = grown;
    }
    this.sweep[this.sweepLen++] = px;
  }

  private isTaken(id: number): boolean {
    return this.ids.get(id) !== 0 || (this.held.size > 0 && this.held.has(id));
  }

  // ---- triggers and attached TP/SL -------------------------------------------

  private afterSweep(): void {
    if (this.triggers.size > 0) {
      const fired = this.fired;
      fired.length = 0;
      this.triggers.collect(this.sweep, this.sweepLen, fired);
      for (const t of fired) t.state = T_POPPED;
      for (const t of fired) if (t.state === T_POPPED) this.fire(t);
      fired.length = 0;
    }
    this.sweepLen = 0;
  }

  private wouldFire(t: TriggerOrder): boolean {
    return firesAt(t.above, t.stop, this.lastPrice);
  }

  private hold(t: TriggerOrder): void {
    t.seq = ++this.prio;
    t.state = T_PENDING;
    this.held.set(t.id, t);
    this.triggers.add(t);
  }

  /** A trigger order fires: its OCO partner is cancelled, and it queues to run. */
  private fire(t: TriggerOrder): void {
    t.state = T_DONE;
    this.listener.onTriggered(++this.seq, t.id, this.now);
    const partner = t.oco;
    t.oco = null;
    if (partner !== null) this.cancelPartner(partner);
    this.queue.push(t);
  }

  private cancelPartner(partner: TriggerOrder): void {
    partner.oco = null;
    if (partner.state === T_DONE) return;
    if (partner.state === T_PENDING) this.triggers.remove(partner);
    this.killTrigger(partner, CancelReason.Oco);
  }

  private killTrigger(t: TriggerOrder, reason: CancelReason): void {
    t.state = T_DONE;
    this.held.delete(t.id);
    this.listener.onCancelled(++this.seq, t.id, t.qty as Lots, reason, this.now);
  }

  private spawnLater(tpsl: TpSl, account: number, side: Side, filled: number, stp: Stp): void {
    this.spawns.push({ tpsl, account, side, filled, stp });
  }

  /** Runs fired trigger orders and pending TP/SL placements until nothing is left. */
  private drain(): void {
    const queue = this.queue;
    for (;;) {
      if (this.spawns.length > 0) {
        for (const s of this.spawns.splice(0)) this.spawn(s);
        continue;
      }
      const t = queue[this.qHead];
      if (t === undefined) break;
      this.qHead++;
      this.held.delete(t.id);
      if (t.isLimit) this.runLimit(t.id, t.account, t.side, t.price, t.qty, t.tif, t.stp, t.tpsl, false);
      else this.runMarket(t.id, t.account, t.side, t.qty, t.stp, t.tpsl, false);
    }
    queue.length = 0;
    this.qHead = 0;
  }

  /** Places the TP/SL legs of a filled parent as an OCO pair of trigger orders. */
  private spawn(s: Spawn): void {
    const childSide = s.side === Side.Buy ? Side.Sell : Side.Buy;
    const buy = s.side === Side.Buy;
    const tp =
      s.tpsl.takeProfit === undefined
        ? null
        : this.leg(s, s.tpsl.takeProfit, childSide, legFiresOnRise(buy, true));
    const sl =
      s.tpsl.stopLoss === undefined
        ? null
        : this.leg(s, s.tpsl.stopLoss, childSide, legFiresOnRise(buy, false));
    if (tp !== null && sl !== null) {
      tp.oco = sl;
      sl.oco = tp;
    }
    for (const t of [tp, sl]) {
      if (t === null || t.state === T_DONE) continue;
      if (this.wouldFire(t)) {
        t.seq = ++this.prio;
        this.held.set(t.id, t);
        this.fire(t);
      } else this.hold(t);
    }
  }

  private leg(s: Spawn, leg: TpSlLeg, side: Side, above: boolean): TriggerOrder | null {
    const ts = this.now;
    if (this.isTaken(leg.id)) {
      this.listener.onRejected(++this.seq, leg.id, E_DUPLICATE, ts);
      return null;
    }
    const t = new TriggerOrder();
    t.id = leg.id;
    t.account = s.account;
    t.side = side;
    t.isLimit = leg.price !== undefined;
    t.price = leg.price ?? 0;
    t.stop = leg.triggerPrice;
    t.above = above;
    t.qty = s.filled;
    t.tif = Tif.GTC;
    t.stp = s.stp;
    t.ts = ts;
    this.listener.onAccepted(++this.seq, t.id, ts);
    return t;
  }

  // ---- validation ---------------------------------------------------------------

  private checkPrice(price: number, field: string): DomainError | null {
    const spec = this.spec;
    if (Number.isInteger(price) && price >= spec.minPriceTicks && price <= spec.maxPriceTicks) return null;
    return domainError(DomainCode.PRICE_OUT_OF_RANGE, field, {
      min: ticksToPrice(spec, spec.minPriceTicks),
      max: ticksToPrice(spec, spec.maxPriceTicks),
    });
  }

  /**
   * Lot range, then min notional when a price is known. Market orders (price 0)
   * are checked against the notional by the service, which knows its quote.
   */
  private checkQty(qty: number, price: number): DomainError | null {
    const spec = this.spec;
    if (!(Number.isInteger(qty) && qty >= spec.minQtyLots && qty <= spec.maxQtyLots)) {
      return domainError(DomainCode.QTY_OUT_OF_RANGE, "qty", {
        min: lotsToQty(spec, spec.minQtyLots),
        max: lotsToQty(spec, spec.maxQtyLots),
      });
    }
    // Exact: see `meetsMinNotional` in instrument.ts.
    if (price > 0 && price * qty < spec.minNotionalUnits) {
      return domainError(DomainCode.NOTIONAL_TOO_SMALL, "qty", { minNotional: spec.minNotional });
    }
    return null;
  }

  private validate(cmd: PlaceOrder): DomainError | null {
    if (!Number.isSafeInteger(cmd.id)) return domainError(DomainCode.NOT_SAFE_INTEGER, "id");
    if (!Number.isSafeInteger(cmd.account)) return domainError(DomainCode.NOT_SAFE_INTEGER, "account");
    if (this.isTaken(cmd.id)) return E_DUPLICATE;
    if (cmd.side !== Side.Buy && cmd.side !== Side.Sell) return domainError(DomainCode.INVALID_ORDER, "side");
    const tif = cmd.tif ?? Tif.GTC;
    if (tif !== Tif.GTC && tif !== Tif.IOC && tif !== Tif.FOK && tif !== Tif.GTX) {
      return domainError(DomainCode.INVALID_ORDER, "tif");
    }
    const stp = cmd.stp ?? this.defaultStp;
    if (stp !== Stp.ExpireMaker && stp !== Stp.ExpireTaker && stp !== Stp.ExpireBoth) {
      return domainError(DomainCode.INVALID_ORDER, "stp");
    }
    const hasPrice = cmd.type === "limit" || cmd.type === "stop-limit";
    const hasStop = cmd.type === "stop-limit" || cmd.type === "stop-market";
    if (!hasPrice && cmd.tif !== undefined) return domainError(DomainCode.INVALID_ORDER, "tif");
    if (hasPrice !== (cmd.price !== undefined)) return domainError(DomainCode.INVALID_ORDER, "price");
    if (hasStop !== (cmd.stopPrice !== undefined)) return domainError(DomainCode.INVALID_ORDER, "stopPrice");
    const price = cmd.price ?? 0;
    if (hasPrice) {
      const e = this.checkPrice(price, "price");
      if (e !== null) return e;
    }
    if (hasStop) {
      const e = this.checkPrice(cmd.stopPrice ?? 0, "stopPrice");
      if (e !== null) return e;
    }
    const e = this.checkQty(cmd.qty, price);
    if (e !== null) return e;
    return cmd.tpsl === undefined ? null : this.checkTpSl(cmd.tpsl, cmd.side, cmd.id);
  }

  private checkTpSl(tpsl: TpSl, side: Side, parentId: number): DomainError | null {
    const { takeProfit: tp, stopLoss: sl } = tpsl;
    if (tp === undefined && sl === undefined) return domainError(DomainCode.TPSL_INVALID, "tpsl");
    for (const [leg, field] of [
      [tp, "takeProfit"],
      [sl, "stopLoss"],
    ] as const) {
      if (leg === undefined) continue;
      if (!Number.isSafeInteger(leg.id) || leg.id === parentId || this.isTaken(leg.id)) {
        return domainError(DomainCode.DUPLICATE_ORDER_ID, `${field}.id`);
      }
      const e =
        this.checkPrice(leg.triggerPrice, `${field}.triggerPrice`) ??
        (leg.price === undefined ? null : this.checkPrice(leg.price, `${field}.price`));
      if (e !== null) return e;
    }
    if (tp !== undefined && sl !== undefined) {
      if (tp.id === sl.id) return domainError(DomainCode.DUPLICATE_ORDER_ID, "stopLoss.id");
      if (!legTriggerValid(side === Side.Buy, true, tp.triggerPrice, sl.triggerPrice))
        return domainError(DomainCode.TPSL_INVALID, "takeProfit.triggerPrice");
    }
    return null;
  }
}
