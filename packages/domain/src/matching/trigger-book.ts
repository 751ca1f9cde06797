import type { Side, Stp, Tif, TpSl } from "./types.ts";

/** Trigger-order life: waiting in the trigger book, popped by a sweep, or done. */
export const T_PENDING = 0;
export const T_POPPED = 1;
export const T_DONE = 2;

/** A stop order (or a TP/SL leg) waiting off-book for the last trade price to cross `stop`. */
export class TriggerOrder {
  id = 0;
  account = 0;
  side: Side = 0;
  /** True: a stop-limit (runs as a limit at `price`); false: a stop-market. */
  isLimit = false;
  price = 0;
  stop = 0;
  /** True: fires when last >= stop; false: when last <= stop. */
  above = false;
  qty = 0;
  tif: Tif = 0;
  stp: Stp = 0;
  /** Placement priority (shared counter with resting orders). */
  seq = 0;
  ts = 0;
  state = T_PENDING;
  oco: TriggerOrder | null = null;
  tpsl: TpSl | null = null;
}

/**
 * Trigger (stop) orders held off-book. Each direction is a sorted array whose
 * last element is the next to fire, so firing is a pop. Ties on the stop price
 * keep placement order (`seq`, the priority counter).
 */
export class TriggerBook {
  /** Fire when last >= stop: sorted by stop desc, then seq desc. */
  private readonly up: TriggerOrder[] = [];
  /** Fire when last <= stop: sorted by stop asc, then seq desc. */
  private readonly down: TriggerOrder[] = [];
  private readonly popped: TriggerOrder[] = [];
  private readonly idx: number[] = [];

  get size(): number {
    return this.up.length + this.down.length;
  }

  add(o: TriggerOrder): void {
    const list = o.above ? this.up : this.down;
    list.splice(this.position(list, o), 0, o);
  }

  remove(o: TriggerOrder): boolean {
    const list = o.above ? this.up : this.down;
    const at = this.position(list, o);
    if (list[at] !== o) return false;
    list.splice(at, 1);
    return true;
  }

  /** Every held order (any order; the caller sorts). */
  all(): TriggerOrder[] {
    return [...this.up, ...this.down];
  }

  /**
   * Pops the orders fired by one sweep's trade prices (`prices[0..n)`, in trade
   * order and monotone, as a single taker's fills are) and appends them to `out`
   * ordered by the trade that fired them, then by placement.
   */
  collect(prices: Float64Array, n: number, out: TriggerOrder[]): void {
    if (n === 0) return;
    const first = prices[0] ?? 0;
    const last = prices[n - 1] ?? 0;
    const hi = Math.max(first, last);
    const lo = Math.min(first, last);
    const popped = this.popped;
    const idx = this.idx;
    popped.length = 0;
    idx.length = 0;
    const up = this.up;
    for (let top = up[up.length - 1]; top !== undefined && top.stop <= hi; top = up[up.length - 1]) {
      up.pop();
      let i = 0;
      while (i < n - 1 && (prices[i] ?? 0) < top.stop) i++;
      popped.push(top);
      idx.push(i);
    }
    const down = this.down;
    for (let top = down[down.length - 1]; top !== undefined && top.stop >= lo; top = down[down.length - 1]) {
      down.pop();
      let i = 0;
      while (i < n - 1 && (prices[i] ?? 0) > top.stop) i++;
      popped.push(top);
      idx.push(i);
    }
    if (popped.length === 0) return;
    const order = popped.map((_, k) => k);
    order.sort((a, b) => (idx[a] ?? 0) - (idx[b] ?? 0) || (popped[a]?.seq ?? 0) - (popped[b]?.seq ?? 0));
    for (const k of order) {
      const o = popped[k];
      if (o !== undefined) out.push(o);
    }
  }

  private position(list: TriggerOrder[], o: TriggerOrder): number {
    const sign = o.above ? -1 : 1;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = list[mid];
      if (m === undefined) break;
      // "m sorts before o" in the list's order.
      const before = sign * m.stop < sign * o.stop || (m.stop === o.stop && m.seq > o.seq);
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
