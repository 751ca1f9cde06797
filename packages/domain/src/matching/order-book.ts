import { DomainCode, type DomainError, domainError } from "../errors.ts";
import type { InstrumentSpec } from "../instrument.ts";
import { lotsToQty, ticksToPrice } from "../instrument.ts";
import { MAX_SAFE } from "../units.ts";
import { BookSide, type Level, Order } from "./book-side.ts";
import { TriggerBook } from "./trigger-book.ts";
import {
  type BookListener,
  type BookSnapshot,
  CancelReason,
  ExpireReason,
  type OrderSnapshot,
  type OrderType,
  type PlaceOrder,
  Side,
  Stp,
  Tif,
  type TpSl,
  type TpSlLeg,
} from "./types.ts";

const KIND_LIMIT = 0;
const _KIND_MARKET = 1;
const KIND_STOP_LIMIT = 2;
const KIND_STOP_MARKET = 3;
const KIND_NAMES: readonly OrderType[] = ["limit", "market", "stop-limit", "stop-market"];

/** Trigger-order life: waiting in the trigger book, popped by a sweep, fired, or cancelled. */
const T_PENDING = 0;
const T_POPPED = 1;
const T_DONE = 2;

const E_DUPLICATE = domainError(DomainCode.DUPLICATE_ORDER_ID, "id");
const E_NOT_FOUND = domainError(DomainCode.ORDER_NOT_FOUND, "id");
const E_POST_ONLY = domainError(DomainCode.POST_ONLY_WOULD_TAKE, "price");
const E_OVERFLOW = domainError(DomainCode.LEVEL_OVERFLOW, "qty");
const E_STOP_NOW = domainError(DomainCode.STOP_WOULD_TRIGGER, "stopPrice");

export interface OrderBookOptions {
  /** Applied when an order names none. Binance's default is expire maker. */
  readonly defaultStp?: Stp;
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
 * Prices are integer ticks and quantities integer lots; `limit`, `market` and
 * `place` check them against the instrument spec (so every value the engine sums
 * stays a safe integer), and report failures as `rejected` events carrying a
 * `DomainError`. Nothing here throws for bad input.
 */
export class OrderBook {
  readonly spec: InstrumentSpec;
  readonly bids = new BookSide(Side.Buy);
  readonly asks = new BookSide(Side.Sell);
  /** Last trade price in ticks (0 before the first trade). */
  lastPrice = 0;
  private readonly listener: BookListener;
  private readonly defaultStp: Stp;
  private readonly orders = new Map<number, Order>();
  private readonly pool: Order[] = [];
  private readonly triggers = new TriggerBook();
  private seq = 0;
  private prio = 0;
  private now = 0;
  private stpHit = false;
  private sweep = new Float64Array(64);
  private sweepLen = 0;
  private readonly queue: Order[] = [];
  private qHead = 0;
  private readonly spawns: Spawn[] = [];
  private readonly fired: Order[] = [];

  constructor(spec: InstrumentSpec, listener: BookListener, options: OrderBookOptions = {}) {
    this.spec = spec;
    this.listener = listener;
    this.defaultStp = options.defaultStp ?? Stp.ExpireMaker;
  }

  /** Number of live orders (resting plus trigger). */
  get size(): number {
    return this.orders.size;
  }

  /** The last event sequence issued. */
  get sequence(): number {
    return this.seq;
  }

  has(id: number): boolean {
    return this.orders.has(id);
  }

  /** A limit order (GTC, IOC, FOK or GTX post-only) on the allocation-free fast path. */
  limit(
    id: number,
    account: number,
    side: Side,
    price: number,
    qty: number,
    tif: Tif,
    stp: Stp,
    ts: number,
  ): void {
    this.now = ts;
    const error = this.orders.has(id)
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
  market(id: number, account: number, side: Side, qty: number, stp: Stp, ts: number): void {
    this.now = ts;
    const error = this.orders.has(id) ? E_DUPLICATE : this.checkQty(qty, 0);
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
    switch (cmd.type) {
      case "limit":
        this.runLimit(cmd.id, cmd.account, cmd.side, cmd.price ?? 0, cmd.qty, tif, stp, tpsl, true);
        break;
      case "market":
        this.runMarket(cmd.id, cmd.account, cmd.side, cmd.qty, stp, tpsl, true);
        break;
      default: {
        const o = new Order();
        o.id = cmd.id;
        o.account = cmd.account;
        o.side = cmd.side;
        o.kind = cmd.type === "stop-limit" ? KIND_STOP_LIMIT : KIND_STOP_MARKET;
        o.price = cmd.price ?? 0;
        o.stop = cmd.stopPrice ?? 0;
        // A buy stop fires on a rise to the stop, a sell stop on a fall to it.
        o.above = cmd.side === Side.Buy;
        o.qty = cmd.qty;
        o.orig = cmd.qty;
        o.tif = tif;
        o.stp = stp;
        o.ts = ts;
        o.tpsl = tpsl;
        if (this.wouldFire(o)) {
          this.listener.onRejected(++this.seq, o.id, E_STOP_NOW, ts);
          return;
        }
        this.listener.onAccepted(++this.seq, o.id, ts);
        this.hold(o);
      }
    }
    if (this.qHead < this.queue.length || this.spawns.length > 0) this.drain();
  }

  /** Cancels a resting or trigger order by id in O(1) (an OCO partner goes with it). */
  cancel(id: number, ts: number): void {
    this.now = ts;
    const o = this.orders.get(id);
    if (o === undefined) {
      this.listener.onRejected(++this.seq, id, E_NOT_FOUND, ts);
      return;
    }
    if (o.level !== null) {
      const book = o.side === Side.Buy ? this.bids : this.asks;
      const lvl = o.level;
      const price = lvl.price;
      const left = o.qty;
      book.unlink(o);
      this.orders.delete(id);
      this.listener.onDelta(++this.seq, o.side, price, lvl.count === 0 ? 0 : lvl.total);
      this.listener.onCancelled(++this.seq, id, left, CancelReason.User, ts);
      if (o.tpsl !== null && o.orig > left)
        this.spawnLater(o.tpsl, o.account, o.side, o.orig - left, o.stp as Stp);
      this.release(o);
    } else {
      this.triggers.remove(o);
      this.killTrigger(o, CancelReason.User);
      const partner = o.oco;
      if (partner !== null) this.cancelPartner(partner);
    }
    if (this.qHead < this.queue.length || this.spawns.length > 0) this.drain();
  }

  /** Up to `n` levels from the best outwards as [price, qty] pairs (ticks, lots). */
  depth(side: Side, n: number): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    if (n <= 0) return out;
    (side === Side.Buy ? this.bids : this.asks).walk((lvl) => {
      out.push([lvl.price, lvl.total]);
      return out.length < n;
    });
    return out;
  }

  /** Open orders and trigger orders in priority order, enough to rebuild the book. */
  snapshot(): BookSnapshot {
    const live: Order[] = [];
    for (const o of this.orders.values()) live.push(o);
    live.sort((a, b) => a.seq - b.seq);
    const orders: OrderSnapshot[] = live.map((o) => ({
      id: o.id,
      account: o.account,
      side: o.side,
      type: KIND_NAMES[o.kind] ?? "limit",
      price: o.price,
      stopPrice: o.kind >= KIND_STOP_LIMIT ? o.stop : 0,
      triggerAbove: o.kind >= KIND_STOP_LIMIT ? o.above : false,
      qty: o.qty,
      origQty: o.orig,
      tif: o.tif as Tif,
      stp: o.stp as Stp,
      seq: o.seq,
      ts: o.ts,
      ocoId: o.oco === null ? null : o.oco.id,
      tpsl: o.tpsl,
    }));
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
    const book = new OrderBook(spec, listener, options);
    book.seq = snap.seq;
    book.lastPrice = snap.lastPrice;
    book.prio = snap.priority;
    const pairs: Array<[Order, number]> = [];
    const sorted = [...snap.orders].sort((a, b) => a.seq - b.seq);
    for (const s of sorted) {
      const o = s.type === "limit" ? book.take() : new Order();
      o.id = s.id;
      o.account = s.account;
      o.side = s.side;
      o.kind = KIND_NAMES.indexOf(s.type);
      o.price = s.price;
      o.stop = s.stopPrice;
      o.above = s.triggerAbove;
      o.qty = s.qty;
      o.orig = s.origQty;
      o.tif = s.tif;
      o.stp = s.stp;
      o.seq = s.seq;
      o.ts = s.ts;
      o.tpsl = s.tpsl;
      book.orders.set(o.id, o);
      if (o.kind === KIND_LIMIT) {
        const side = o.side === Side.Buy ? book.bids : book.asks;
        side.append(side.levelFor(o.price), o);
      } else {
        book.triggers.add(o);
        if (s.ocoId !== null) pairs.push([o, s.ocoId]);
      }
    }
    for (const [o, partnerId] of pairs) o.oco = book.orders.get(partnerId) ?? null;
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
    const crosses = best !== null && (side === Side.Buy ? best.price <= price : best.price >= price);
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
      listener.onExpired(++this.seq, id, qty, ExpireReason.Fok, ts);
      return;
    }
    const left = crosses ? this.match(id, account, side, price, qty, stp) : qty;
    let rested = false;
    if (left > 0) {
      if (this.stpHit) listener.onExpired(++this.seq, id, left, ExpireReason.StpTaker, ts);
      else if (tif === Tif.IOC || tif === Tif.FOK)
        listener.onExpired(++this.seq, id, left, ExpireReason.Ioc, ts);
      else {
        const o = this.take();
        o.id = id;
        o.account = account;
        o.side = side;
        o.kind = KIND_LIMIT;
        o.price = price;
        o.qty = left;
        o.orig = qty;
        o.tif = tif;
        o.stp = stp;
        o.seq = ++this.prio;
        o.ts = ts;
        o.tpsl = tpsl;
        const lvl = own.levelFor(price);
        own.append(lvl, o);
        this.orders.set(id, o);
        listener.onDelta(++this.seq, side, price, lvl.total);
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
      this.listener.onExpired(++this.seq, id, left, reason, ts);
    }
    if (tpsl !== null && qty > left) this.spawnLater(tpsl, account, side, qty - left, stp);
    if (this.sweepLen > 0) this.afterSweep();
  }

  /** Takes liquidity from the opposite side up to `limit`; returns the lots left. */
  private match(takerId: number, account: number, side: Side, limit: number, qty: number, stp: Stp): number {
    const listener = this.listener;
    const ts = this.now;
    const book = side === Side.Buy ? this.asks : this.bids;
    const orders = this.orders;
    const isBuy = side === Side.Buy;
    let left = qty;
    this.stpHit = false;
    this.sweepLen = 0;
    while (left > 0) {
      const lvl = book.best;
      if (lvl === null) break;
      const px = lvl.price;
      if (isBuy ? px > limit : px < limit) break;
      let traded = false;
      let touched = false;
      let o = lvl.head;
      while (o !== null) {
        const next = o.next;
        if (o.account === account) {
          if (stp !== Stp.ExpireTaker) {
            touched = true;
            this.dropHead(lvl, o, book);
            orders.delete(o.id);
            listener.onExpired(++this.seq, o.id, o.qty, ExpireReason.StpMaker, ts);
            if (o.tpsl !== null && o.orig > o.qty)
              this.spawnLater(o.tpsl, o.account, o.side, o.orig - o.qty, o.stp as Stp);
            this.release(o);
          }
          if (stp !== Stp.ExpireMaker) {
            this.stpHit = true;
            break;
          }
          o = next;
          continue;
        }
        const have = o.qty;
        const q = Math.min(have, left);
        o.qty = have - q;
        left -= q;
        lvl.total -= q;
        book.total -= q;
        traded = true;
        listener.onTrade(++this.seq, o.id, takerId, px, q, o.side, o.qty, left, ts);
        if (o.qty === 0) {
          this.dropHead(lvl, o, book);
          orders.delete(o.id);
          if (o.tpsl !== null) this.spawnLater(o.tpsl, o.account, o.side, o.orig, o.stp as Stp);
          this.release(o);
        }
        if (left === 0) break;
        o = next;
      }
      if (traded) {
        this.lastPrice = px;
        this.recordSweep(px);
      }
      const count = lvl.count;
      if (traded || touched) listener.onDelta(++this.seq, book.side, px, count === 0 ? 0 : lvl.total);
      if (count === 0) book.emptied(lvl);
      if (this.stpHit) break;
    }
    return left;
  }

  /** Removes the head order of a level being swept (the sweep always consumes from the head). */
  private dropHead(lvl: Level, o: Order, book: BookSide): void {
    const next = o.next;
    lvl.head = next;
    if (next === null) lvl.tail = null;
    else next.prev = null;
    lvl.count--;
    lvl.total -= o.qty;
    book.total -= o.qty;
    o.level = null;
    o.next = null;
  }

  /** FOK dry run: would `qty` fill within `limit`, honouring the taker's STP mode? */
  private canFill(side: Side, limit: number, qty: number, account: number, stp: Stp): boolean {
    let need = qty;
    let blocked = false;
    (side === Side.Buy ? this.asks : this.bids).walk((lvl) => {
      if (side === Side.Buy ? lvl.price > limit : lvl.price < limit) return false;
      for (let o = lvl.head; o !== null; o = o.next) {
        if (o.account === account) {
          if (stp === Stp.ExpireMaker) continue;
          blocked = true;
          return false;
        }
        need -= o.qty;
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

  // ---- triggers and attached TP/SL -------------------------------------------

  private afterSweep(): void {
    if (this.triggers.size > 0) {
      const fired = this.fired;
      fired.length = 0;
      this.triggers.collect(this.sweep, this.sweepLen, fired);
      for (const o of fired) o.state = T_POPPED;
      for (const o of fired) if (o.state === T_POPPED) this.fire(o);
      fired.length = 0;
    }
    this.sweepLen = 0;
  }

  private wouldFire(o: Order): boolean {
    const last = this.lastPrice;
    return last > 0 && (o.above ? last >= o.stop : last <= o.stop);
  }

  private hold(o: Order): void {
    o.seq = ++this.prio;
    o.state = T_PENDING;
    this.orders.set(o.id, o);
    this.triggers.add(o);
  }

  /** Marks a trigger order fired: its OCO partner is cancelled, and it queues to run. */
  private fire(o: Order): void {
    o.state = T_DONE;
    this.listener.onTriggered(++this.seq, o.id, this.now);
    const partner = o.oco;
    o.oco = null;
    if (partner !== null) this.cancelPartner(partner);
    this.queue.push(o);
  }

  private cancelPartner(partner: Order): void {
    partner.oco = null;
    if (partner.state === T_DONE) return;
    if (partner.state === T_PENDING) this.triggers.remove(partner);
    this.killTrigger(partner, CancelReason.Oco);
  }

  private killTrigger(o: Order, reason: CancelReason): void {
    o.state = T_DONE;
    this.orders.delete(o.id);
    this.listener.onCancelled(++this.seq, o.id, o.qty, reason, this.now);
  }

  private spawnLater(tpsl: TpSl, account: number, side: Side, filled: number, stp: Stp): void {
    this.spawns.push({ tpsl, account, side, filled, stp });
  }

  /** Runs fired trigger orders and pending TP/SL creations until nothing is left. */
  private drain(): void {
    const queue = this.queue;
    for (;;) {
      if (this.spawns.length > 0) {
        const spawns = this.spawns.splice(0);
        for (const s of spawns) this.spawn(s);
        continue;
      }
      const o = queue[this.qHead];
      if (o === undefined) break;
      this.qHead++;
      this.orders.delete(o.id);
      if (o.kind === KIND_STOP_LIMIT)
        this.runLimit(o.id, o.account, o.side, o.price, o.qty, o.tif as Tif, o.stp as Stp, o.tpsl, false);
      else this.runMarket(o.id, o.account, o.side, o.qty, o.stp as Stp, o.tpsl, false);
    }
    queue.length = 0;
    this.qHead = 0;
  }

  /** Places the TP/SL legs of a filled parent as an OCO pair of trigger orders. */
  private spawn(s: Spawn): void {
    const childSide = s.side === Side.Buy ? Side.Sell : Side.Buy;
    // A long profits on a rise: its take-profit fires above, its stop-loss below.
    const long = s.side === Side.Buy;
    const tp = s.tpsl.takeProfit === undefined ? null : this.leg(s, s.tpsl.takeProfit, childSide, long);
    const sl = s.tpsl.stopLoss === undefined ? null : this.leg(s, s.tpsl.stopLoss, childSide, !long);
    if (tp !== null && sl !== null) {
      tp.oco = sl;
      sl.oco = tp;
    }
    for (const o of [tp, sl]) {
      if (o === null || o.state === T_DONE) continue;
      if (this.wouldFire(o)) {
        this.orders.set(o.id, o);
        o.seq = ++this.prio;
        this.fire(o);
      } else this.hold(o);
    }
  }

  private leg(s: Spawn, leg: TpSlLeg, side: Side, above: boolean): Order | null {
    const ts = this.now;
    if (this.orders.has(leg.id)) {
      this.listener.onRejected(++this.seq, leg.id, E_DUPLICATE, ts);
      return null;
    }
    const o = new Order();
    o.id = leg.id;
    o.account = s.account;
    o.side = side;
    o.kind = leg.price === undefined ? KIND_STOP_MARKET : KIND_STOP_LIMIT;
    o.price = leg.price ?? 0;
    o.stop = leg.triggerPrice;
    o.above = above;
    o.qty = s.filled;
    o.orig = s.filled;
    o.tif = Tif.GTC;
    o.stp = s.stp;
    o.ts = ts;
    this.listener.onAccepted(++this.seq, o.id, ts);
    return o;
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

  /** Lot range, then min notional when a price is known (0 = market, checked by the caller's quote). */
  private checkQty(qty: number, price: number): DomainError | null {
    const spec = this.spec;
    if (!(Number.isInteger(qty) && qty >= spec.minQtyLots && qty <= spec.maxQtyLots)) {
      return domainError(DomainCode.QTY_OUT_OF_RANGE, "qty", {
        min: lotsToQty(spec, spec.minQtyLots),
        max: lotsToQty(spec, spec.maxQtyLots),
      });
    }
    if (price > 0 && price * qty < spec.minNotionalUnits) {
      return domainError(DomainCode.NOTIONAL_TOO_SMALL, "qty", { minNotional: spec.minNotional });
    }
    return null;
  }

  private validate(cmd: PlaceOrder): DomainError | null {
    if (!Number.isSafeInteger(cmd.id)) return domainError(DomainCode.NOT_SAFE_INTEGER, "id");
    if (!Number.isSafeInteger(cmd.account)) return domainError(DomainCode.NOT_SAFE_INTEGER, "account");
    if (this.orders.has(cmd.id)) return E_DUPLICATE;
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
      if (!Number.isSafeInteger(leg.id) || leg.id === parentId || this.orders.has(leg.id)) {
        return domainError(DomainCode.DUPLICATE_ORDER_ID, `${field}.id`);
      }
      const e =
        this.checkPrice(leg.triggerPrice, `${field}.triggerPrice`) ??
        (leg.price === undefined ? null : this.checkPrice(leg.price, `${field}.price`));
      if (e !== null) return e;
    }
    if (tp !== undefined && sl !== undefined) {
      if (tp.id === sl.id) return domainError(DomainCode.DUPLICATE_ORDER_ID, "stopLoss.id");
      const ordered =
        side === Side.Buy ? tp.triggerPrice > sl.triggerPrice : tp.triggerPrice < sl.triggerPrice;
      if (!ordered) return domainError(DomainCode.TPSL_INVALID, "takeProfit.triggerPrice");
    }
    return null;
  }

  // ---- pooling -----------------------------------------------------------------

  private take(): Order {
    return this.pool.pop() ?? new Order();
  }

  private release(o: Order): void {
    o.tpsl = null;
    o.oco = null;
    o.prev = null;
    o.next = null;
    o.level = null;
    this.pool.push(o);
  }
}
