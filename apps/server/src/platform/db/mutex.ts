/** A FIFO async mutex: one holder at a time, waiters served in arrival order. */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #locked = false;

  get locked(): boolean {
    return this.#locked;
  }

  /** Runs `fn` once every earlier holder has released; releases even when `fn` throws. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.#tail;
    let release = () => {};
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.#locked = true;
    try {
      return await fn();
    } finally {
      this.#locked = false;
      release();
    }
  }

  /** Resolves once everything queued so far has finished. */
  async idle(): Promise<void> {
    await this.run(async () => {});
  }
}

/**
 * One `Mutex` per key, made on first use and dropped once nothing holds or waits for it:
 * work under the same key runs one at a time, other keys do not wait.
 */
export class KeyedMutex {
  readonly #held = new Map<string, { mutex: Mutex; users: number }>();

  /** Runs `fn` once every earlier holder of `key` has released. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let slot = this.#held.get(key);
    if (slot === undefined) {
      slot = { mutex: new Mutex(), users: 0 };
      this.#held.set(key, slot);
    }
    slot.users++;
    try {
      return await slot.mutex.run(fn);
    } finally {
      slot.users--;
      if (slot.users === 0) this.#held.delete(key);
    }
  }

  /** How many keys are held or waited for (tests: nothing is left behind). */
  get size(): number {
    return this.#held.size;
  }
}
