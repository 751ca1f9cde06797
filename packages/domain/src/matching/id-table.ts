/**
 * An open-addressing hash table from safe-integer keys to positive int32 slots,
 * for the engine's id -> order and price -> level indexes. Linear probing with
 * backward-shift deletion leaves no tombstones, so a steady stream of inserts and
 * deletes never rehashes or allocates (a Map compacts its backing store from time
 * to time, which costs GC work and latency spikes). 0 means "absent".
 */
export class IntTable {
  private keys: Float64Array;
  private vals: Int32Array;
  private mask: number;
  private shift: number;
  private count = 0;

  constructor(capacity = 1024) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.keys = new Float64Array(cap);
    this.vals = new Int32Array(cap);
    this.mask = cap - 1;
    this.shift = 32 - Math.log2(cap);
  }

  get size(): number {
    return this.count;
  }

  /** The value for `key`, or 0. */
  get(key: number): number {
    const keys = this.keys;
    const vals = this.vals;
    const mask = this.mask;
    for (let i = this.home(key); ; i = (i + 1) & mask) {
      const v = vals[i] ?? 0;
      if (v === 0 || keys[i] === key) return v;
    }
  }

  /** Inserts or replaces; `value` must be positive. */
  set(key: number, value: number): void {
    if ((this.count + 1) * 2 > this.vals.length) this.grow();
    const keys = this.keys;
    const vals = this.vals;
    const mask = this.mask;
    for (let i = this.home(key); ; i = (i + 1) & mask) {
      const v = vals[i] ?? 0;
      if (v === 0) {
        keys[i] = key;
        vals[i] = value;
        this.count++;
        return;
      }
      if (keys[i] === key) {
        vals[i] = value;
        return;
      }
    }
  }

  delete(key: number): boolean {
    const keys = this.keys;
    const vals = this.vals;
    const mask = this.mask;
    let i = this.home(key);
    for (;;) {
      if ((vals[i] ?? 0) === 0) return false;
      if (keys[i] === key) break;
      i = (i + 1) & mask;
    }
    vals[i] = 0;
    this.count--;
    // Backward shift: pull later entries of the probe run into the hole unless
    // their home slot lies cyclically within (hole, j].
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const v = vals[j] ?? 0;
      if (v === 0) return true;
      const k = this.home(keys[j] ?? 0);
      const stays = i <= j ? i < k && k <= j : i < k || k <= j;
      if (!stays) {
        keys[i] = keys[j] ?? 0;
        vals[i] = v;
        vals[j] = 0;
        i = j;
      }
    }
  }

  private home(key: number): number {
    // Fold the high bits of a 53-bit key into the low ones, then Fibonacci-hash.
    const h = (key | 0) ^ ((key / 4294967296) | 0);
    return Math.imul(h, 0x9e3779b1) >>> this.shift;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldVals = this.vals;
    const cap = oldVals.length * 2;
    this.keys = new Float64Array(cap);
    this.vals = new Int32Array(cap);
    this.mask = cap - 1;
    this.shift = 32 - Math.log2(cap);
    this.count = 0;
    for (let i = 0; i < oldVals.length; i++) {
      const v = oldVals[i] ?? 0;
      if (v !== 0) this.set(oldKeys[i] ?? 0, v);
    }
  }
}
