import type { Side, TpSl } from "./types.ts";

/**
 * One live order (resting or waiting for a trigger). Instances are pooled and
 * every field is initialised in the constructor so V8 keeps a single shape.
 */
export class Order {
  id = 0;
  account = 0;
  side: Side = 0;
  /** 0 limit, 1 market, 2 stop-limit, 3 stop-market. */
  kind = 0;
  price = 0;
  stop = 0;
  above = false;
  qty = 0;
  orig = 0;
  tif = 0;
  stp = 0;
  /** Trigger orders only: pending, popped by a sweep, or done. */
  state = 0;
  /** Priority: resting orders and trigger orders share one increasing counter. */
  seq = 0;
  ts = 0;
  prev: Order | null = null;
  next: Order | null = null;
  level: Level | null = null;
  oco: Order | null = null;
  tpsl: TpSl | null = null;
}

/** A price level: an intrusive doubly linked FIFO of orders, O(1) append and unlink. */
export class Level {
  price = 0;
  total = 0;
  count = 0;
  head: Order | null = null;
  tail: Order | null = null;
}

const COMPACT_MIN = 64;

/**
 * One side of a book. Level prices live in a sorted Float64Array keyed so the best
 * price is always the last element (bids: +price, asks: -price), so taking the best
 * and dropping an exhausted best level are O(1); a Map finds a level by price.
 * Levels that empty away from the top stay in place (lazily) and are reused if an
 * order arrives at that price again; they are compacted when they dominate. This
 * keeps crowded books (few hot levels) and sparse books (10k+ levels) both cheap:
 * the only O(levels) step is creating a brand new level (a memmove).
 */
export class BookSide {
  readonly side: Side;
  private readonly sign: number;
  private keys = new Float64Array(256);
  private len = 0;
  private empties = 0;
  private readonly byPrice = new Map<number, Level>();
  private readonly pool: Level[] = [];
  /** The best non-empty level, or null when the side is empty. */
  best: Level | null = null;
  /** Sum of resting lots on this side; bounds every level total below 2^53. */
  total = 0;

  constructor(side: Side) {
    this.side = side;
    this.sign = side === 0 ? 1 : -1;
  }

  /** Number of non-empty levels. */
  get depth(): number {
    return this.len - this.empties;
  }

  level(price: number): Level | undefined {
    return this.byPrice.get(price);
  }

  /** The level at `price`, created (empty) if absent. Call `append` right after. */
  levelFor(price: number): Level {
    const found = this.byPrice.get(price);
    if (found !== undefined) return found;
    const lvl = this.pool.pop() ?? new Level();
    lvl.price = price;
    this.byPrice.set(price, lvl);
    this.insertKey(this.sign * price);
    this.empties++;
    return lvl;
  }

  append(lvl: Level, o: Order): void {
    if (lvl.count === 0) {
      this.empties--;
      const best = this.best;
      if (best === null || this.sign * lvl.price > this.sign * best.price) this.best = lvl;
    }
    o.level = lvl;
    o.next = null;
    o.prev = lvl.tail;
    if (lvl.tail === null) lvl.head = o;
    else lvl.tail.next = o;
    lvl.tail = o;
    lvl.count++;
    lvl.total += o.qty;
    this.total += o.qty;
  }

  /** Unlinks an order; its remaining `qty` is taken off the level total. */
  unlink(o: Order): void {
    const lvl = o.level;
    if (lvl === null) return;
    const prev = o.prev;
    const next = o.next;
    if (prev === null) lvl.head = next;
    else prev.next = next;
    if (next === null) lvl.tail = prev;
    else next.prev = prev;
    o.prev = null;
    o.next = null;
    o.level = null;
    lvl.total -= o.qty;
    this.total -= o.qty;
    lvl.count--;
    if (lvl.count === 0) this.emptied(lvl);
  }

  /** Called when a level's last order left. */
  emptied(lvl: Level): void {
    if (lvl === this.best) {
      this.dropEmptyTop();
      return;
    }
    this.empties++;
    if (this.empties > COMPACT_MIN && this.empties * 2 > this.len) this.compact();
  }

  /** Visits non-empty levels from the best outwards until `visit` returns false. */
  walk(visit: (lvl: Level) => boolean): void {
    const sign = this.sign;
    for (let i = this.len - 1; i >= 0; i--) {
      const lvl = this.byPrice.get(sign * (this.keys[i] ?? 0));
      if (lvl === undefined || lvl.count === 0) continue;
      if (!visit(lvl)) return;
    }
  }

  private dropEmptyTop(): void {
    const sign = this.sign;
    let len = this.len;
    while (len > 0) {
      const price = sign * (this.keys[len - 1] ?? 0);
      const lvl = this.byPrice.get(price);
      if (lvl !== undefined && lvl.count > 0) {
        this.best = lvl;
        this.len = len;
        return;
      }
      len--;
      this.byPrice.delete(price);
      if (lvl !== undefined) this.release(lvl);
      // The first level dropped is the old best, which was never counted as empty.
      if (len !== this.len - 1) this.empties--;
    }
    this.len = 0;
    this.best = null;
  }

  private release(lvl: Level): void {
    lvl.head = null;
    lvl.tail = null;
    lvl.total = 0;
    lvl.count = 0;
    this.pool.push(lvl);
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
      if (lvl !== undefined && lvl.count > 0) {
        keys[w++] = key;
      } else {
        this.byPrice.delete(sign * key);
        if (lvl !== undefined) this.release(lvl);
      }
    }
    this.len = w;
    this.empties = 0;
  }
}
