import type { TpSl } from "./types.ts";

const grow64 = (a: Float64Array, cap: number): Float64Array => {
  const b = new Float64Array(cap);
  b.set(a);
  return b;
};
const grow32 = (a: Int32Array, cap: number): Int32Array => {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
};
const grow8 = (a: Uint8Array, cap: number): Uint8Array => {
  const b = new Uint8Array(cap);
  b.set(a);
  return b;
};

/**
 * Resting orders as parallel typed arrays (struct of arrays) indexed by a slot
 * number; slot 0 is the null slot. A book of hundreds of thousands of orders is
 * then a handful of flat buffers: no object per order for the GC to trace or
 * copy, and slots are recycled through a free list.
 * NOTE: the arrays are replaced when the store grows, which only `alloc` does;
 * code must not hold an array across a call that may allocate.
 */
export class OrderStore {
  id: Float64Array;
  account: Float64Array;
  price: Float64Array;
  /** Remaining lots. */
  qty: Float64Array;
  orig: Float64Array;
  /** Priority counter value when the order joined its level. */
  seq: Float64Array;
  ts: Float64Array;
  next: Int32Array;
  prev: Int32Array;
  level: Int32Array;
  side: Uint8Array;
  tif: Uint8Array;
  stp: Uint8Array;
  /** Attached TP/SL, rare, so an ordinary array. */
  readonly tpsl: Array<TpSl | null> = [null];
  private freeList: Int32Array;
  private freeLen = 0;
  private used = 1;
  private cap: number;

  constructor(capacity = 1024) {
    const cap = Math.max(16, capacity);
    this.cap = cap;
    this.id = new Float64Array(cap);
    this.account = new Float64Array(cap);
    this.price = new Float64Array(cap);
    this.qty = new Float64Array(cap);
    this.orig = new Float64Array(cap);
    this.seq = new Float64Array(cap);
    this.ts = new Float64Array(cap);
    this.next = new Int32Array(cap);
    this.prev = new Int32Array(cap);
    this.level = new Int32Array(cap);
    this.side = new Uint8Array(cap);
    this.tif = new Uint8Array(cap);
    this.stp = new Uint8Array(cap);
    this.freeList = new Int32Array(cap);
  }

  alloc(): number {
    if (this.freeLen > 0) return this.freeList[--this.freeLen] ?? 0;
    if (this.used === this.cap) this.grow();
    const slot = this.used++;
    this.tpsl.push(null);
    return slot;
  }

  release(slot: number): void {
    this.tpsl[slot] = null;
    this.next[slot] = 0;
    this.prev[slot] = 0;
    this.level[slot] = 0;
    this.freeList[this.freeLen++] = slot;
  }

  private grow(): void {
    const cap = this.cap * 2;
    this.cap = cap;
    this.id = grow64(this.id, cap);
    this.account = grow64(this.account, cap);
    this.price = grow64(this.price, cap);
    this.qty = grow64(this.qty, cap);
    this.orig = grow64(this.orig, cap);
    this.seq = grow64(this.seq, cap);
    this.ts = grow64(this.ts, cap);
    this.next = grow32(this.next, cap);
    this.prev = grow32(this.prev, cap);
    this.level = grow32(this.level, cap);
    this.side = grow8(this.side, cap);
    this.tif = grow8(this.tif, cap);
    this.stp = grow8(this.stp, cap);
    this.freeList = grow32(this.freeList, cap);
  }
}
