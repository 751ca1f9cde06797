/** How long a remembered session and user may be served without reading the database again. */
export const AUTH_CACHE_MS = 5_000;
/** Sessions remembered at most (the oldest go first). */
export const AUTH_CACHE_MAX = 10_000;

interface Entry<S, U> {
  readonly session: S;
  readonly user: U;
  readonly userId: string;
  readonly at: number;
}

/**
 * The session and user row behind a session token, remembered so an authenticated
 * request does not read two rows each time (the order path: ~0.15 ms of ~0.6 ms).
 *
 * Correct revocation: every repository write to a session or a user drops that
 * token's or that user's entries (`dropToken`, `dropUser`) before and after it runs,
 * and a lookup that raced with any drop is not remembered (`epoch`). So within this
 * process a logout, kick, freeze or role change is seen by the very next request.
 *
 * NOTE: only a process that is the database's only writer may use it (SQLite: one
 * process per data dir). With PostgreSQL several instances may share the database
 * and one instance's revocation would not drop another's entries, so the repository
 * reads through there.
 */
export class AuthCache<S, U> {
  readonly #entries = new Map<string, Entry<S, U>>();
  readonly #byUser = new Map<string, Set<string>>();
  readonly #ttlMs: number;
  readonly #max: number;
  #epoch = 0;

  constructor(ttlMs = AUTH_CACHE_MS, max = AUTH_CACHE_MAX) {
    this.#ttlMs = ttlMs;
    this.#max = max;
  }

  /** Changes on every drop: a lookup remembers its rows only if this did not move while it read them. */
  get epoch(): number {
    return this.#epoch;
  }

  get(tokenHash: string, now: number): { session: S; user: U } | undefined {
    const e = this.#entries.get(tokenHash);
    if (e === undefined) return undefined;
    if (now - e.at >= this.#ttlMs || now < e.at) {
      this.#remove(tokenHash, e.userId);
      return undefined;
    }
    return e;
  }

  set(tokenHash: string, userId: string, session: S, user: U, now: number, epoch: number): void {
    if (epoch !== this.#epoch) return;
    const old = this.#entries.get(tokenHash);
    if (old !== undefined) this.#remove(tokenHash, old.userId);
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.entries().next().value;
      if (oldest !== undefined) this.#remove(oldest[0], oldest[1].userId);
    }
    this.#entries.set(tokenHash, { session, user, userId, at: now });
    let tokens = this.#byUser.get(userId);
    if (tokens === undefined) {
      tokens = new Set();
      this.#byUser.set(userId, tokens);
    }
    tokens.add(tokenHash);
  }

  dropToken(tokenHash: string): void {
    this.#epoch++;
    const e = this.#entries.get(tokenHash);
    if (e !== undefined) this.#remove(tokenHash, e.userId);
  }

  dropUser(userId: string): void {
    this.#epoch++;
    const tokens = this.#byUser.get(userId);
    if (tokens === undefined) return;
    for (const t of [...tokens]) this.#remove(t, userId);
  }

  get size(): number {
    return this.#entries.size;
  }

  #remove(tokenHash: string, userId: string): void {
    this.#entries.delete(tokenHash);
    const tokens = this.#byUser.get(userId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.#byUser.delete(userId);
  }
}
