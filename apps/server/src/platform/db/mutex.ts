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
