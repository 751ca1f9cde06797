/** Remembers ids (trace ids, login ciphertext keys) for a time so a second use is refused. */
export interface ReplayStore {
  /** Records `id`; true when it was already recorded within its time to live. */
  seen(id: string, ttlMs: number): Promise<boolean>;
}

/** One process's memory, swept as it grows. */
export class MemoryReplayStore implements ReplayStore {
  readonly #until = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async seen(id: string, ttlMs: number): Promise<boolean> {
    const now = this.#now();
    const until = this.#until.get(id);
    if (until !== undefined && until > now) return true;
    if (this.#until.size >= 100_000) {
      for (const [key, t] of this.#until) if (t <= now) this.#until.delete(key);
    }
    this.#until.set(id, now + ttlMs);
    return false;
  }
}

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
