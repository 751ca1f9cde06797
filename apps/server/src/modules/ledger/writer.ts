import { type JournalEntry, Ledger, type LedgerRefusal } from "@meridian/domain";
import type { Db, Queryable } from "../../platform/db/types.ts";
import { type AccountRow, activationEntry } from "./accounts.ts";
import { type ClientOrderRef, GroupCommit, type Placement, type StoredOrders } from "./group-commit.ts";
import { Journal, type JournalBatch } from "./journal.ts";
import { type LedgerBatch, LedgerRepo } from "./repo.ts";

/**
 * What a command running in the ledger writer may do to the shared ledger: `post` puts
 * an entry in the ledger and journal (a refusal changes nothing), `write` adds rows to
 * the same group commit.
 */
export interface LedgerTx {
  readonly ledger: Ledger;
  post(entry: JournalEntry, accountId: number | null, refId?: number | null): LedgerRefusal | null;
  write(write: (tx: Queryable) => Promise<void>): void;
}

/**
 * A module's rows in the group commit (spot's orders and trades, say). The ledger
 * writer takes each registered writer's batch at the end of a group, writes them in the
 * commit's transaction in registration order (after the accounts it opened, before the
 * journal), and tells each writer once the commit is durable.
 */
export interface BatchWriter<B> {
  /** Names the writer (one registration per name). */
  readonly name: string;
  /** Hands over what changed since the last call. */
  take(): B;
  isEmpty(batch: B): boolean;
  /** Writes the batch inside the commit's transaction. */
  write(tx: Queryable, batch: B): Promise<void>;
  /** After each command, still inside it (spot fires the stops the command made due). */
  afterCommand?(): void;
  /** Set when the module's memory can no longer be trusted (a refused settlement): rebuild. */
  broken?(): string | null;
  /** After a durable commit, once its callers are answered, with what the journal committed. */
  committed?(batch: B, journal: JournalBatch): void;
  /** Before a rebuild: drop what memory holds. */
  clear?(): void;
  /** After a failed commit, once the ledger is loaded again: load memory from the database. */
  reload?(): Promise<void>;
}

/**
 * The batch writer of a module whose commands each leave a set of rows: `push` queues a
 * command's rows with its time, and the commit writes the queue in order with `write`.
 * Register `writer` with the ledger.
 */
export function queuedBatchWriter<W>(
  name: string,
  write: (tx: Queryable, writes: W, now: number) => Promise<void>,
): { push(writes: W, now: number): void; writer: BatchWriter<Array<{ writes: W; now: number }>> } {
  let queue: Array<{ writes: W; now: number }> = [];
  return {
    push: (writes, now) => {
      queue.push({ writes, now });
    },
    writer: {
      name,
      take: () => {
        const batch = queue;
        queue = [];
        return batch;
      },
      isEmpty: (batch) => batch.length === 0,
      write: async (tx, batch) => {
        for (const b of batch) await write(tx, b.writes, b.now);
      },
    },
  };
}

/** A registered writer with its batch type closed over. */
interface Part {
  readonly name: string;
  take(): { empty: boolean; write(tx: Queryable): Promise<void>; committed(journal: JournalBatch): void };
  afterCommand(): void;
  broken(): string | null;
  clear(): void;
  reload(): Promise<void>;
}

interface Batch extends LedgerBatch {
  parts: ReturnType<Part["take"]>[];
}

export interface LedgerWriterDeps {
  db: Db;
  /** Runs first in every commit transaction (several instances: the writer lease's epoch check). */
  fence: ((tx: Queryable) => Promise<void>) | null;
  now?: () => number;
  onError?: (error: unknown, msg: string) => void;
}

/** The ledger writer on `db` (see `LedgerService`). */
export function createLedgerWriter(deps: LedgerWriterDeps): LedgerService {
  return new LedgerService(deps);
}

/**
 * The ledger writer: one ledger (balances and holds as postings in one journal), the
 * paper accounts they belong to, and one group commit that spot, margin and futures
 * commands go through (`transact`). Each commit writes, in one transaction, the accounts
 * opened, every registered module's batch (`register`), the journal and the rows the
 * commands added; a failed commit reloads the ledger and every registered module from
 * the database.
 */
export class LedgerService {
  readonly repo: LedgerRepo;
  private readonly now: () => number;
  private readonly onError: (error: unknown, msg: string) => void;
  private readonly journal: Journal;
  private readonly commit: GroupCommit<Batch>;
  private readonly parts: Part[] = [];
  private running = false;
  private brokenReason: string | null = null;
  private lastAccountId = 0;
  private newAccounts: AccountRow[] = [];
  /** Account ids by user id, once known. */
  private readonly accounts = new Map<string, number>();
  /** Accounts opened in the current group commit, by user id. */
  private readonly activating = new Map<string, AccountRow>();
  private readonly rebuiltListeners = new Set<() => void>();
  private readonly pushListeners = new Set<(accountId: number, messages: readonly object[]) => void>();
  /** The shared ledger as a command sees it; outside a command its changes ask for a commit. */
  readonly tx: LedgerTx;

  constructor(deps: LedgerWriterDeps) {
    this.repo = new LedgerRepo(deps.db, deps.fence);
    this.now = deps.now ?? Date.now;
    this.onError = deps.onError ?? (() => {});
    this.journal = new Journal(this.now);
    const journal = this.journal;
    this.tx = {
      get ledger() {
        return journal.ledger;
      },
      post: (entry, accountId, refId) => {
        const refusal = journal.post(entry, accountId, refId ?? null);
        if (refusal === null) this.changed();
        return refusal;
      },
      write: (w) => {
        journal.write(w);
        this.changed();
      },
    };
    this.commit = new GroupCommit<Batch>({
      run: (fn) => this.run(fn),
      takeBatch: () => this.takeBatch(),
      isEmpty: (b) =>
        b.accounts.length === 0 &&
        b.journal.entries.length === 0 &&
        b.journal.writes.length === 0 &&
        b.parts.every((t) => t.empty),
      broken: () => this.brokenReason ?? this.parts.map((p) => p.broken()).find((r) => r !== null) ?? null,
      persist: (b) => this.repo.persist(b),
      rebuild: () => this.rebuild(),
      committed: (b) => {
        for (const t of b.parts) t.committed(b.journal);
      },
      onError: (error, msg) => this.onError(error, msg),
    });
  }

  /**
   * Adds a module's rows to every group commit (see `BatchWriter`). Register before the
   * first command: a batch taken before registration is not the writer's.
   */
  register<B>(writer: BatchWriter<B>): void {
    if (this.parts.some((p) => p.name === writer.name))
      throw new Error(`batch writer ${writer.name} is registered already`);
    this.parts.push({
      name: writer.name,
      take: () => {
        const batch = writer.take();
        return {
          empty: writer.isEmpty(batch),
          write: (tx) => writer.write(tx, batch),
          committed: (journal) => writer.committed?.(batch, journal),
        };
      },
      afterCommand: () => writer.afterCommand?.(),
      broken: () => writer.broken?.() ?? null,
      clear: () => writer.clear?.(),
      reload: async () => {
        await writer.reload?.();
      },
    });
  }

  /** Loads the ledger (balances, ids) from the database; the modules load their own state after it. */
  async start(): Promise<void> {
    await this.load();
  }

  /** Refuses new commands, then commits what is pending. */
  close(): Promise<void> {
    return this.commit.close();
  }

  /** Runs a command in the writer; it settles once the commit holding it is durable. */
  transact<T>(fn: (tx: LedgerTx) => T): Promise<T> {
    return this.commit.submit(() => fn(this.tx));
  }

  /**
   * Runs a placement in the writer, unless `cid` names an order `stored` holds: then it
   * resolves with that order and `fn` never runs (see `GroupCommit.submitPlacement`).
   */
  transactPlacement<T, Stored>(
    stored: StoredOrders<Stored>,
    cid: ClientOrderRef | null,
    fn: (tx: LedgerTx) => T,
  ): Promise<Placement<T, Stored>> {
    return this.commit.submitPlacement(stored, cid, () => fn(this.tx));
  }

  /** True while a command runs (its changes join the group being run). */
  get inCommand(): boolean {
    return this.running;
  }

  /** Something changed outside a command (fills between commands): commit it soon. */
  changed(): void {
    if (!this.running) this.commit.markDirty();
  }

  /** Commits what is pending (changes between commands included). */
  flush(): Promise<void> {
    return this.commit.flush();
  }

  /** Balance of a ledger account as the writer holds it (committed or about to be). */
  ledgerBalance(account: string, asset: string): bigint {
    return this.journal.ledger.balance(account, asset);
  }

  /** Every balance of a ledger account as the writer holds it. */
  ledgerBalances(account: string): ReadonlyMap<string, bigint> {
    return this.journal.ledger.balancesOf(account);
  }

  /** Heard when a failed commit made the ledger reload from the database (drop derived state). */
  onRebuilt(listener: () => void): () => void {
    this.rebuiltListeners.add(listener);
    return () => this.rebuiltListeners.delete(listener);
  }

  /** Sends messages to the user's `/v1/ws/user` sockets after a commit (user events). */
  push(accountId: number, messages: readonly object[]): void {
    for (const l of this.pushListeners) l(accountId, messages);
  }

  onPush(listener: (accountId: number, messages: readonly object[]) => void): () => void {
    this.pushListeners.add(listener);
    return () => this.pushListeners.delete(listener);
  }

  // ---- accounts ---------------------------------------------------------------------

  /**
   * The user's paper account, created with the initial balances on first use (`empty`:
   * without them; sub-accounts open this way when made, funded by their master).
   */
  async accountFor(userId: string, empty = false): Promise<{ id: number; created: boolean }> {
    const known = this.accounts.get(userId);
    if (known !== undefined) return { id: known, created: false };
    const stored = await this.repo.accountOf(userId);
    if (stored !== undefined) {
      this.accounts.set(userId, stored.id);
      return { id: stored.id, created: false };
    }
    const made = await this.creator(userId, empty);
    this.accounts.set(userId, made.id);
    return made;
  }

  /**
   * Who creates accounts: this writer, or (several instances, on a follower) the writer
   * through the command bus (set by the module's composition).
   */
  creator: (userId: string, empty: boolean) => Promise<{ id: number; created: boolean }> = (userId, empty) =>
    this.createAccount(userId, empty);

  /** In the writer: opens the account unless another request did since. */
  async createAccount(userId: string, empty = false): Promise<{ id: number; created: boolean }> {
    const stored = this.accounts.get(userId) ?? (await this.repo.accountOf(userId))?.id;
    if (stored !== undefined) return { id: stored, created: false };
    // Another request may have created it since (still in this group commit:
    // `activating`; in an earlier one: `accounts`, set before `activating` is cleared).
    const made = await this.commit.submit(() => {
      const id = this.accounts.get(userId) ?? this.activating.get(userId)?.id;
      if (id !== undefined) return { id, created: false };
      const row = this.activate(userId, empty);
      this.activating.set(userId, row);
      return { id: row.id, created: true };
    });
    this.accounts.set(userId, made.id);
    this.activating.delete(userId);
    return made;
  }

  /** The consistency check the crash test runs: journal replay equals balances, every asset sums to zero. */
  async audit(): Promise<{ replayEqualsBalances: boolean; assetSums: Record<string, string> }> {
    const rows = await this.repo.balanceRows();
    const balances = Ledger.fromBalances(rows);
    const replay = Ledger.fromBalances(await this.repo.journalSums());
    const assetSums: Record<string, string> = {};
    for (const p of rows) assetSums[p.asset] = (BigInt(assetSums[p.asset] ?? "0") + p.amount).toString();
    return {
      replayEqualsBalances: balances !== null && replay !== null && balances.equals(replay),
      assetSums,
    };
  }

  // ---- the group commit's target ---------------------------------------------------------

  /** Opens a paper account with the initial balances (`empty`: none, a sub-account's, funded by its master). */
  private activate(userId: string, empty: boolean): AccountRow {
    const account: AccountRow = { id: ++this.lastAccountId, userId, createdAt: this.now() };
    this.newAccounts.push(account);
    if (!empty) {
      const refusal = this.journal.post(activationEntry(account.id), account.id, null);
      if (refusal !== null)
        this.brokenReason ??= `activation refused: ${refusal.code} ${refusal.account} ${refusal.asset}`;
    }
    return account;
  }

  private run<T>(fn: () => T): T {
    this.running = true;
    try {
      const out = fn();
      for (const p of this.parts) p.afterCommand();
      return out;
    } finally {
      this.running = false;
    }
  }

  private takeBatch(): Batch {
    const parts = this.parts.map((p) => p.take());
    const accounts = this.newAccounts;
    this.newAccounts = [];
    return { accounts, parts, journal: this.journal.take() };
  }

  private async load(): Promise<void> {
    const loaded = await this.repo.load();
    this.journal.load(loaded.balances, loaded.lastEntryId);
    this.lastAccountId = loaded.lastAccountId;
  }

  private async rebuild(): Promise<void> {
    for (const p of this.parts) p.clear();
    this.journal.clear();
    this.brokenReason = null;
    this.newAccounts = [];
    this.accounts.clear();
    this.activating.clear();
    try {
      await this.load();
      for (const p of this.parts) await p.reload();
    } catch (error) {
      this.onError(error, "paper rebuild failed");
    }
    for (const l of this.rebuiltListeners) l();
  }
}
