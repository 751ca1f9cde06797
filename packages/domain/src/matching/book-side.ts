import { IntTable } from "./id-table.ts";
import type { OrderStore } from "./order-store.ts";
import type { Side } from "./types.ts";

const COMPACT_MIN = 64;

/**
 * One side of a book. Levels are slots in parallel typed arrays (slot 0 = none),
 * each an intrusive doubly linked FIFO of order slots: O(1) append and unlink.
 *
 * Level prices live in a sorted Float64Array keyed so the best price is always
 * the last element (bids: +price, asks: -price): reading the best, and dropping an
 * exhausted best, are O(1); a hash table finds a level by price. Levels that
 * empty away from the top stay in place (lazily) and are reused when an order
 * arrives at that price again; they are compacted once they are the majority.
 * So crowded books (a few deep levels) and sparse books (10k+ levels) are both
 * cheap: the only O(levels) step is creating a brand new level (one memmove).
 */
export class BookSide {
  readonly side: Side;
  private readonly sign: number;
  private readonly store: OrderStore;
  private keys = new Float64Array(256);
  private len = 0;
  private empties = 0;
  private readonly byPrice = new IntTable(256);
  /** The best non-empty level slot, or 0 when the side is empty. */
  best = 0;
  /** Sum of resting lots on this side; bounds every level total below 2^53. */
  total = 0;
  lvPrice = new Float64Array(256);
  lvTotal = new Float64Array(256);
  lvCount = new Int32Array(256);
  lvHead = new Int32Array(256);
  lvTail = new Int32Array(256);
  private lvFree = new Int32Array(256);
  private lvFreeLen = 0;
  private lvUsed = 1;

  constructor(side: Side, store: OrderStore) {
    this.side = side;
    this.sign = side === 0 ? 1 : -1;
    this.store = store;
  }

  /** Number of non-empty levels. */
  get depth(): number {
    return this.len - this.empties;
  }

  /** The level slot at `price`, or 0. */
  level(price: number): number {
    return this.byPrice.get(price);
  }

  /** The level slot at `price`, created (empty) if absent. Call `append` right after. */
  levelFor(price: number): number {
    const found = this.byPrice.get(price);
    if (found !== 0) return found;
    const lvl = this.allocLevel();
    this.lvPrice[lvl] = price;
    this.byPrice.set(price, lvl);
    this.insertKey(this.sign * price);
    this.empties++;
    return lvl;
  }

  append(lvl: number, o: number): void {
    const st = this.store;
    const count = this.lvCount[lvl] ?? 0;
    if (count === 0) {
      this.empties--;
      const best = this.best;
      if (best === 0 || this.sign * (this.lvPrice[lvl] ?? 0) > this.sign * (this.lvPrice[best] ?? 0))
        this.best = lvl;
    }
    const tail = this.lvTail[lvl] ?? 0;
    st.setLevel(o, lvl);
    st.setNext(o, 0);
    st.setPrev(o, tail);
    if (tail === 0) this.lvHead[lvl] = o;
    else st.setNext(tail, o);
    this.lvTail[lvl] = o;
    this.lvCount[lvl] = count + 1;
    const q = st.qty(o);
    this.lvTotal[lvl] = (this.lvTotal[lvl] ?? 0) + q;
    this.total += q;
  }

  /** Unlinks an order; its remaining qty leaves the level total. Returns the level's new count. */
  unlink(o: number): number {
    const st = this.store;
    const lvl = st.level(o);
    const prev = st.prev(o);
    const next = st.next(o);
    if (prev === 0) this.lvHead[lvl] = next;
    else st.setNext(prev, next);
    if (next === 0) this.lvTail[lvl] = prev;
    else st.setPrev(next, prev);
    st.setPrev(o, 0);
    st.setNext(o, 0);
    st.setLevel(o, 0);
    const q = st.qty(o);
    this.lvTotal[lvl] = (this.lvTotal[lvl] ?? 0) - q;
    this.total -= q;
    const count = (this.lvCount[lvl] ?? 0) - 1;
    this.lvCount[lvl] = count;
    if (count === 0) this.emptied(lvl);
    return count;
  }

  /** Called when a level's last order left. */
  emptied(lvl: number): void {
    this.lvTotal[lvl] = 0;
    if (lvl === this.best) {
      this.dropEmptyTop();
      return;
    }
    this.empties++;
    if (this.empties > COMPACT_MIN && this.empties * 2 > this.len) this.compact();
  }

  /** Visits non-empty level slots from the best outwards until `visit` returns false. */
  walk(visit: (lvl: number) => boolean): void {
    const sign = this.sign;
    for (let i = this.len - 1; i >= 0; i--) {
      const lvl = this.byPrice.get(sign * (this.keys[i] ?? 0));
      if (lvl === 0 || this.lvCount[lvl] === 0) continue;
      if (!visit(lvl)) return;
    }
  }

  private dropEmptyTop(): void {
    const sign = this.sign;
    let len = this.len;
    while (len > 0) {
      const price = sign * (this.keys[len - 1] ?? 0);
      const lvl = this.byPrice.get(price);
      if (lvl !== 0 && (this.lvCount[lvl] ?? 0) > 0) {
        this.best = lvl;
        this.len = len;
        return;
      }
      len--;
      this.byPrice.delete(price);
      if (lvl !== 0) this.freeLevel(lvl);
      // The first level dropped is the old best, which was never counted as empty.
      if (len !== this.len - 1) this.empties--;
    }
    this.len = 0;
    this.best = 0;
  }

  private allocLevel(): number {
    if (this.lvFreeLen > 0) return this.lvFree[--this.lvFreeLen] ?? 0;
    if (this.lvUsed === this.lvPrice.length) this.growLevels();
    return this.lvUsed++;
  }

  private freeLevel(lvl: number): void {
    this.lvHead[lvl] = 0;
    this.lvTail[lvl] = 0;
    this.lvTotal[lvl] = 0;
    this.lvCount[lvl] = 0;
    this.lvFree[this.lvFreeLen++] = lvl;
  }

  private growLevels(): void {
    const cap = this.lvPrice.length * 2;
    const g64 = (a: Float64Array) => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    const g32 = (a: Int32Array) => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    this.lvPrice = g64(this.lvPrice);
    this.lvTotal = g64(this.lvTotal);
    this.lvCount = g32(this.lvCount);
    this.lvHead = g32(this.lvHead);
    this.lvTail = g32(this.lvTail);
    this.lvFree = g32(this.lvFree);
  }

  private insertKey(key: number): void {
    const len = this.len;
    if (len === this.keys.length) {
      const grown = new Float64Array(len * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    const keys = this.keys;
    // Fast path: a new best (common when the market drifts) appends.
    if (len === 0 || (keys[len - 1] ?? 0) < key) {
      keys[len] = key;
      this.len = len + 1;
      return;
    }
    let lo = 0;
    let hi = len;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] ?? 0) < key) lo = mid + 1;
      else hi = mid;
    }
    keys.copyWithin(lo + 1, lo, len);
    keys[lo] = key;
    this.len = len + 1;
  }

  private compact(): void {
    const keys = this.keys;
    const sign = this.sign;
    let w = 0;
    for (let r = 0; r < this.len; r++) {
      const key = keys[r] ?? 0;
      const lvl = this.byPrice.get(sign * key);
      if (lvl !== 0 && (this.lvCount[lvl] ?? 0) > 0) {
        keys[w++] = key;
      } else {
        this.byPrice.delete(sign * key);
        if (lvl !== 0) this.freeLevel(lvl);
      }
    }
    this.len = w;
    this.empties = 0;
  }
}
