import { PaperCode } from "@meridian/contracts";
import { AppError } from "../../platform/errors.ts";

/** A client order id, unique per account across wallets. */
export interface ClientOrderRef {
  accountId: number;
  clientOrderId: string;
}

/** What a placement with a client order id came to: the stored order with that id, or the command's value. */
export type Placement<T, Stored> = { stored: Stored; ran?: undefined } | { stored?: undefined; ran: T };

/** Where the stored orders of a placement's client order ids are looked up (the module that stores them). */
export interface StoredOrders<Stored> {
  /** Stored orders holding any of these client order ids. */
  byClientIds(refs: readonly ClientOrderRef[]): Promise<readonly Stored[]>;
  refOf(stored: Stored): ClientOrderRef;
}

interface Job {
  run(): unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** A placement with a client order id: runs only when no stored order has it. */
  cid: { ref: ClientOrderRef; stored: StoredOrders<unknown> } | null;
}

/** What the group commit drives: the in-memory engine and its storage. */
export interface GroupCommitTarget<Batch> {
  /** Runs one command against memory; what it changes joins the current batch. */
  run<T>(fn: () => T): T;
  /** Hands over what changed since the last call. */
  takeBatch(): Batch;
  isEmpty(batch: Batch): boolean;
  /** Set when memory can no longer be trusted (a refused settlement): rebuild. */
  broken(): string | null;
  /** Writes one batch in one transaction (fenced by the writer lease where there is one). */
  persist(batch: Batch): Promise<void>;
  /** Reloads memory from the database after a failed commit. */
  rebuild(): Promise<void>;
  /** After a durable commit, once its callers are answered: the user events. */
  committed(batch: Batch): void;
  onError(error: unknown, msg: string): void;
}

const cidKey = (accountId: number, clientOrderId: string) => `${accountId}\u0000${clientOrderId}`;

/**
 * The writer's sequencer. Commands queue and run one after another against the
 * in-memory engine, and every command run since the last commit is written in one
 * transaction (group commit) before any of them is answered. So an order is
 * acknowledged only once its row, its hold and any trades and settlements it caused
 * are committed together; a crash before that loses only unanswered work.
 *
 * NOTE: a failed commit leaves memory ahead of the database, so the engine is rebuilt
 * from the database (the same path as a restart) and the waiting callers get an error.
 */
export class GroupCommit<Batch> {
  private queue: Job[] = [];
  private pumping: Promise<void> | null = null;
  private dirty = false;
  private closed = false;
  private readonly target: GroupCommitTarget<Batch>;

  constructor(target: GroupCommitTarget<Batch>) {
    this.target = target;
  }

  /** Queues a command; it settles once the commit holding it is durable. */
  submit<T>(run: () => T): Promise<T> {
    return this.enqueue(run, null);
  }

  /**
   * Runs a placement, unless `cid` names an order already stored: then it resolves with
   * that order and `run` never runs. The lookup is made in the writer, for every
   * placement of the group commit at once, after every earlier commit landed, so it
   * sees each order placed before; placements in the same group that share an id are
   * caught by the engine itself.
   */
  submitPlacement<T, Stored>(
    stored: StoredOrders<Stored>,
    cid: ClientOrderRef | null,
    run: () => T,
  ): Promise<Placement<T, Stored>> {
    return this.enqueue<Placement<T, Stored>>(
      () => ({ ran: run() }),
      cid === null ? null : { ref: cid, stored },
    );
  }

  /** Something changed outside a command (fills between commands): commit it soon. */
  markDirty(): void {
    if (this.dirty) return;
    this.dirty = true;
    queueMicrotask(() => this.pump());
  }

  /** Commits whatever is pending (fills between commands included). */
  async flush(): Promise<void> {
    // Pumps now rather than in markDirty's microtask: otherwise nothing is pumping yet
    // and the wait below ends before the pending changes are committed.
    this.dirty = true;
    this.pump();
    while (this.pumping !== null) await this.pumping;
  }

  /** Refuses new commands, then commits what is pending. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private enqueue<T>(run: () => T, cid: Job["cid"]): Promise<T> {
    if (this.closed)
      return Promise.reject(new AppError(PaperCode.PAPER_ONLY, "Paper trading is stopping", { status: 503 }));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (v: unknown) => void, reject, cid });
      this.pump();
    });
  }

  private pump(): void {
    // The drain starts in the loop's check phase, not at once: every request read in
    // this loop turn joins the same commit, so a backlog (after a GC pause or a busy
    // neighbour) is written with one COMMIT and one INSERT per table, not one per order.
    this.pumping ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .finally(() => {
        this.pumping = null;
        if (this.queue.length > 0 || this.dirty) this.pump();
      });
  }

  /**
   * The stored orders that hold the jobs' client order ids, per store (one query set
   * per store and group commit), by account and id.
   */
  private async storedByClientId(
    jobs: readonly Job[],
  ): Promise<Map<StoredOrders<unknown>, Map<string, unknown>> | Error> {
    const refs = new Map<StoredOrders<unknown>, ClientOrderRef[]>();
    for (const job of jobs) {
      if (job.cid === null) continue;
      const list = refs.get(job.cid.stored);
      if (list === undefined) refs.set(job.cid.stored, [job.cid.ref]);
      else list.push(job.cid.ref);
    }
    try {
      const found = new Map<StoredOrders<unknown>, Map<string, unknown>>();
      for (const [stored, list] of refs) {
        const byKey = new Map<string, unknown>();
        for (const row of await stored.byClientIds(list)) {
          const ref = stored.refOf(row);
          byKey.set(cidKey(ref.accountId, ref.clientOrderId), row);
        }
        found.set(stored, byKey);
      }
      return found;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  private async drain(): Promise<void> {
    const target = this.target;
    while (this.queue.length > 0 || this.dirty) {
      this.dirty = false;
      const jobs = this.queue;
      this.queue = [];
      const results: Array<{ job: Job; ok: boolean; value: unknown }> = [];
      const stored = jobs.some((j) => j.cid !== null) ? await this.storedByClientId(jobs) : null;
      for (const job of jobs) {
        if (job.cid !== null && stored !== null) {
          if (stored instanceof Error) {
            results.push({ job, ok: false, value: stored });
            continue;
          }
          const hit = stored
            .get(job.cid.stored)
            ?.get(cidKey(job.cid.ref.accountId, job.cid.ref.clientOrderId));
          if (hit !== undefined) {
            results.push({ job, ok: true, value: { stored: hit } satisfies Placement<never, unknown> });
            continue;
          }
        }
        try {
          results.push({ job, ok: true, value: target.run(() => job.run()) });
        } catch (error) {
          results.push({ job, ok: false, value: error });
        }
      }
      const batch = target.takeBatch();
      const broken = target.broken();
      let failure: unknown = broken === null ? null : new Error(broken);
      if (failure === null && !target.isEmpty(batch)) {
        try {
          await target.persist(batch);
        } catch (error) {
          failure = error;
        }
      }
      if (failure !== null) {
        target.onError(failure, "paper commit failed; rebuilding from the database");
        await target.rebuild();
        const unavailable = new AppError(PaperCode.PAPER_ONLY, "Paper trading is briefly unavailable", {
          status: 503,
        });
        for (const r of results) r.job.reject(r.ok ? unavailable : r.value);
        continue;
      }
      for (const r of results) (r.ok ? r.job.resolve : r.job.reject)(r.value);
      target.committed(batch);
    }
  }
}
