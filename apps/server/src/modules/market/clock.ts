/** The market's time source and timer: the server runs on the system clock, tests on a manual one. */
export interface MarketClock {
  now(): number;
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Runs `fn` after the I/O already waiting (the next loop turn); the manual clock runs it at once. */
  soon(fn: () => void): void;
}

/** Wall-clock time; timers are unref'd so the market never keeps a process alive. */
export const systemClock: MarketClock = {
  now: () => Date.now(),
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
  soon(fn) {
    setImmediate(fn);
  },
};

interface Timer {
  readonly ms: number;
  due: number;
  readonly fn: () => void;
  live: boolean;
}

/** A paused clock for tests: time moves only through `advance`, which fires due timers in order. */
export class ManualClock implements MarketClock {
  private time: number;
  private readonly timers: Timer[] = [];

  constructor(start: number) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  every(ms: number, fn: () => void): () => void {
    const timer: Timer = { ms, due: this.time + ms, fn, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
      const i = this.timers.indexOf(timer);
      if (i >= 0) this.timers.splice(i, 1);
    };
  }

  soon(fn: () => void): void {
    fn();
  }

  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      let next: Timer | undefined;
      for (const t of this.timers)
        if (t.live && t.due <= target && (next === undefined || t.due < next.due)) next = t;
      if (next === undefined) break;
      this.time = next.due;
      next.due += next.ms;
      next.fn();
    }
    this.time = target;
  }
}
