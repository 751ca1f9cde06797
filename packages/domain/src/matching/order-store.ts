import type { Side, Stp, Tif, TpSl } from "./types.ts";

/** Doubles per order: id, account, price, qty (left), orig, seq, ts, spare — one 64-byte cache line. */
const F = 8;
const F_ID = 0;
const F_ACCOUNT = 1;
const F_PRICE = 2;
const F_QTY = 3;
const F_ORIG = 4;
const F_SEQ = 5;
const F_TS = 6;
/** Int32s per order: next, prev, level, flags. */
const L = 4;
const L_NEXT = 0;
const L_PREV = 1;
const L_LEVEL = 2;
const L_FLAGS = 3;
/** Flag bits: side (1 = sell), tif (2 bits), stp (2 bits), has TP/SL. */
const FLAG_SELL = 1;
const TIF_SHIFT = 1;
const STP_SHIFT = 3;
const FLAG_TPSL = 1 << 5;

/**
 * Resting orders in flat typed arrays, one record per slot (slot 0 = none): the
 * numbers of an order share one cache line and its links a quarter of another,
 * so touching a random old order (a cancel deep in a 300k-order book) costs two
 * cache misses rather than one per field, and there is no object per order for
 * the GC to trace or copy. Slots are recycled through a free list.
 * NOTE: the arrays are replaced when the store grows, which only `alloc` does.
 */
export class OrderStore {
  private f: Float64Array;
  private l: Int32Array;
  /** Attached TP/SL by slot; only read when the slot's flag says there is one. */
  private readonly tpsls: Array<TpSl | null> = [null];
  private freeList: Int32Array;
  private freeLen = 0;
  private used = 1;
  private cap: number;

  constructor(capacity = 1024) {
    const cap = Math.max(16, capacity);
    this.cap = cap;
    this.f = new Float64Array(cap * F);
    this.l = new Int32Array(cap * L);
    this.freeList = new Int32Array(cap);
  }

  alloc(): number {
    if (this.freeLen > 0) return this.freeList[--this.freeLen] ?? 0;
    if (this.used === this.cap) this.grow();
    this.tpsls.push(null);
    return this.used++;
  }

  release(o: number): void {
    const b = o * L;
    if (((this.l[b + L_FLAGS] ?? 0) & FLAG_TPSL) !== 0) this.tpsls[o] = null;
    this.l[b + L_NEXT] = 0;
    this.l[b + L_PREV] = 0;
    this.l[b + L_LEVEL] = 0;
    this.l[b + L_FLAGS] = 0;
    this.freeList[this.freeLen++] = o;
  }

  init(
    o: number,
    id: number,
    account: number,
    side: Side,
    price: number,
    qty: number,
    orig: number,
    tif: Tif,
    stp: Stp,
    seq: number,
    ts: number,
    tpsl: TpSl | null,
  ): void {
    const f = this.f;
    const b = o * F;
    f[b + F_ID] = id;
    f[b + F_ACCOUNT] = account;
    f[b + F_PRICE] = price;
    f[b + F_QTY] = qty;
    f[b + F_ORIG] = orig;
    f[b + F_SEQ] = seq;
    f[b + F_TS] = ts;
    let flags = side | (tif << TIF_SHIFT) | (stp << STP_SHIFT);
    if (tpsl !== null) {
      flags |= FLAG_TPSL;
      this.tpsls[o] = tpsl;
    }
    this.l[o * L + L_FLAGS] = flags;
  }

  id(o: number): number {
    return this.f[o * F + F_ID] ?? 0;
  }
  account(o: number): number {
    return this.f[o * F + F_ACCOUNT] ?? 0;
  }
  price(o: number): number {
    return this.f[o * F + F_PRICE] ?? 0;
  }
  qty(o: number): number {
    return this.f[o * F + F_QTY] ?? 0;
  }
  setQty(o: number, qty: number): void {
    this.f[o * F + F_QTY] = qty;
  }
  orig(o: number): number {
    return this.f[o * F + F_ORIG] ?? 0;
  }
  seq(o: number): number {
    return this.f[o * F + F_SEQ] ?? 0;
  }
  ts(o: number): number {
    return this.f[o * F + F_TS] ?? 0;
  }
  next(o: number): number {
    return this.l[o * L + L_NEXT] ?? 0;
  }
  setNext(o: number, v: number): void {
    this.l[o * L + L_NEXT] = v;
  }
  prev(o: number): number {
    return this.l[o * L + L_PREV] ?? 0;
  }
  setPrev(o: number, v: number): void {
    this.l[o * L + L_PREV] = v;
  }
  level(o: number): number {
    return this.l[o * L + L_LEVEL] ?? 0;
  }
  setLevel(o: number, v: number): void {
    this.l[o * L + L_LEVEL] = v;
  }
  side(o: number): Side {
    return ((this.l[o * L + L_FLAGS] ?? 0) & FLAG_SELL) as Side;
  }
  tif(o: number): Tif {
    return (((this.l[o * L + L_FLAGS] ?? 0) >> TIF_SHIFT) & 3) as Tif;
  }
  stp(o: number): Stp {
    return (((this.l[o * L + L_FLAGS] ?? 0) >> STP_SHIFT) & 3) as Stp;
  }
  tpsl(o: number): TpSl | null {
    return ((this.l[o * L + L_FLAGS] ?? 0) & FLAG_TPSL) === 0 ? null : (this.tpsls[o] ?? null);
  }

  private grow(): void {
    const cap = this.cap * 2;
    this.cap = cap;
    const f = new Float64Array(cap * F);
    f.set(this.f);
    this.f = f;
    const l = new Int32Array(cap * L);
    l.set(this.l);
    this.l = l;
    const free = new Int32Array(cap);
    free.set(this.freeList);
    this.freeList = free;
  }
}
