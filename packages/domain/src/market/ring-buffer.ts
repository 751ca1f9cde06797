/**
 * A fixed-capacity ring buffer: pushing past capacity drops the oldest item, so
 * whatever streams through it (candles, trades) holds bounded memory.
 */
export class RingBuffer<T> {
  readonly capacity: number;
  private readonly items: (T | undefined)[];
  private head = 0;
  private count = 0;

  constructor(capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RangeError("capacity must be a positive integer");
    this.capacity = capacity;
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    const at = (this.head + this.count) % this.capacity;
    this.items[at] = item;
    if (this.count < this.capacity) this.count++;
    else this.head = (this.head + 1) % this.capacity;
  }

  /** The i-th item from the oldest (0) to the newest (size - 1). */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.count) return undefined;
    return this.items[(this.head + i) % this.capacity];
  }

  /** The newest item. */
  last(): T | undefined {
    return this.at(this.count - 1);
  }

  /** Replaces the newest item (a candle still open). */
  replaceLast(item: T): void {
    if (this.count === 0) throw new RangeError("empty buffer");
    this.items[(this.head + this.count - 1) % this.capacity] = item;
  }

  /** The newest `n` items (or all), oldest first. */
  tail(n: number = this.count): T[] {
    const k = Math.max(0, Math.min(n, this.count));
    const out: T[] = [];
    for (let i = this.count - k; i < this.count; i++) out.push(this.at(i) as T);
    return out;
  }

  clear(): void {
    this.items.fill(undefined);
    this.head = 0;
    this.count = 0;
  }
}
