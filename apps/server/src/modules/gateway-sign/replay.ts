/** Remembers ids (trace ids, login ciphertext keys) for a time so a second use is refused. */
export interface ReplayStore {
  /** Records `id`; true when it was already recorded within its time to live. */
  seen(id: string, ttlMs: number): Promise<boolean>;
}

/**
 * One process's memory, swept as it grows: once it holds 100,000 ids, and from then on
 * each time it has grown by an eighth since the last sweep, so a sweep's walk is spread
 * over the records that led to it.
 *
 * NOTE: it once walked every id on each record past 100,000. Ids live 2 minutes, so at
 * 1,000 signed orders/s the map holds 120,000 live ids and every order walked them all:
 * about 2 ms of CPU per order after the first 100 s (measured), where a record costs
 * 2-3 us.
 */
export class MemoryReplayStore implements ReplayStore {
  readonly #until = new Map<string, number>();
  #sweepAt = SWEEP_FROM;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async seen(id: string, ttlMs: number): Promise<boolean> {
    const now = this.#now();
    const until = this.#until.get(id);
    if (until !== undefined && until > now) return true;
    if (this.#until.size >= this.#sweepAt) {
      for (const [key, t] of this.#until) if (t <= now) this.#until.delete(key);
      this.#sweepAt = Math.max(SWEEP_FROM, Math.ceil(this.#until.size * 1.125));
    }
    this.#until.set(id, now + ttlMs);
    return false;
  }
}

/** The memory store's first sweep. */
const SWEEP_FROM = 100_000;

/** The subset of ioredis this store uses. */
export interface RedisLike {
  set(key: string, value: string, px: "PX", ttl: number, nx: "NX"): Promise<string | null>;
}

/** Shared across server processes: SET NX with an expiry. */
export class RedisReplayStore implements ReplayStore {
  readonly #redis: RedisLike;
  readonly #prefix: string;

  constructor(redis: RedisLike, prefix = "gw:replay:") {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async seen(id: string, ttlMs: number): Promise<boolean> {
    const res = await this.#redis.set(`${this.#prefix}${id}`, "1", "PX", ttlMs, "NX");
    return res === null;
  }
}
