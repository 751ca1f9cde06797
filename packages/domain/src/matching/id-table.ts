/**
 * An open-addressing hash table from safe-integer keys to positive int32 values,
 * for the engine's id -> order slot and price -> level slot indexes. Key and value
 * sit side by side in one Float64Array (one cache miss per probe). Linear probing
 * with backward-shift deletion leaves no tombstones, so a steady stream of inserts
 * and deletes never rehashes or allocates (a Map compacts its backing store from
 * time to time: GC work and latency spikes). A value of 0 means "absent".
 */
export class IntTable {
  /** [key, value] pairs. */
  private slots: Float64Array;
  private mask: number;
  private shift: number;
  private count = 0;

  constructor(capacity = 1024) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.slots = new Float64Array(cap * 2);
    this.mask = cap - 1;
    this.shift = 32 - Math.log2(cap);
  }

  get size(): number {
    return this.count;
  }

  /** The value for `key`, or 0. */
  get(key: number): number {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = this.home(key); ; i = (i + 1) & mask) {
      const v = slots[2 * i + 1] ?? 0;
      if (v === 0 || slots[2 * i] === key) return v;
    }
  }

  /** Inserts or replaces; `value` must be positive. */
  set(key: number, value: number): void {
    if ((this.count + 1) * 4 > this.slots.length) this.grow();
    const slots = this.slots;
    const mask = this.mask;
    for (let i = this.home(key); ; i = (i + 1) & mask) {
      const v = slots[2 * i + 1] ?? 0;
      if (v === 0) {
        slots[2 * i] = key;
        slots[2 * i + 1] = value;
        this.count++;
        return;
      }
      if (slots[2 * i] === key) {
        slots[2 * i + 1] = value;
        return;
      }
    }
  }

  delete(key: number): boolean {
    const slots = this.slots;
    const mask = this.mask;
    let i = this.home(key);
    for (;;) {
      if ((slots[2 * i + 1] ?? 0) === 0) return false;
      if (slots[2 * i] === key) break;
      i = (i + 1) & mask;
    }
    slots[2 * i + 1] = 0;
    this.count--;
    // Backward shift: pull later entries of the probe run into the hole unless
    // their home slot lies cyclically within (hole, j].
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const v = slots[2 * j + 1] ?? 0;
      if (v === 0) return true;
      const kj = slots[2 * j] ?? 0;
      const k = this.home(kj);
      const stays = i <= j ? i < k && k <= j : i < k || k <= j;
      if (!stays) {
        slots[2 * i] = kj;
        slots[2 * i + 1] = v;
        slots[2 * j + 1] = 0;
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
    const old = this.slots;
    const cap = old.length;
    this.slots = new Float64Array(cap * 2);
    this.mask = cap - 1;
    this.shift = 32 - Math.log2(cap);
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) {
      const v = old[i + 1] ?? 0;
      if (v !== 0) this.set(old[i] ?? 0, v);
    }
  }
}
