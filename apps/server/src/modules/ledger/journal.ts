import { type JournalEntry, Ledger, type LedgerRefusal, type Posting } from "@meridian/domain";
import type { Queryable } from "../../platform/db/types.ts";

/** One journal entry as the commit writes it (`paper_journal` with its `paper_postings`). */
export interface EntryRow {
  id: number;
  kind: string;
  accountId: number | null;
  orderId: number | null;
  createdAt: number;
  postings: readonly Posting[];
}

/** What the journal hands to one group commit. */
export interface JournalBatch {
  entries: EntryRow[];
  /** Balance changes per account, then asset. */
  balances: Map<string, Map<string, bigint>>;
  /** Paper accounts whose balances changed. */
  touched: Set<number>;
  /** Rows of the other modules (futures, margin) written in the same transaction. */
  writes: Array<(tx: Queryable) => Promise<void>>;
}

export const emptyJournalBatch = (): JournalBatch => ({
  entries: [],
  balances: new Map(),
  touched: new Set(),
  writes: [],
});

/**
 * The ledger writer's books: the ledger (the authority for every balance check) and
 * what was posted to it since the last commit: the journal entries, the balance change
 * of each ledger account, the paper accounts touched, and the rows other modules add to
 * the same commit. An entry the ledger refuses changes nothing.
 */
export class Journal {
  private current = new Ledger();
  private lastEntryId = 0;
  private batch: JournalBatch = emptyJournalBatch();
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  get ledger(): Ledger {
    return this.current;
  }

  /** Puts `entry` in the ledger and the journal; a refusal changes nothing. */
  post(entry: JournalEntry, accountId: number | null, orderId: number | null): LedgerRefusal | null {
    const refusal = this.current.apply(entry);
    if (refusal !== null) return refusal;
    const b = this.batch;
    b.entries.push({
      id: ++this.lastEntryId,
      kind: entry.kind,
      accountId,
      orderId,
      createdAt: this.now(),
      postings: entry.postings,
    });
    for (const p of entry.postings) {
      let assets = b.balances.get(p.account);
      if (assets === undefined) {
        assets = new Map();
        b.balances.set(p.account, assets);
        const user = userAccountId(p.account);
        if (user !== null) b.touched.add(user);
      }
      assets.set(p.asset, (assets.get(p.asset) ?? 0n) + p.amount);
    }
    return null;
  }

  /** Adds rows to the current group commit. */
  write(write: (tx: Queryable) => Promise<void>): void {
    this.batch.writes.push(write);
  }

  /** Hands over what was posted and written since the last call. */
  take(): JournalBatch {
    const b = this.batch;
    this.batch = emptyJournalBatch();
    return b;
  }

  /** Drops the ledger and what is pending (before a reload); entry ids go on. */
  clear(): void {
    this.batch = emptyJournalBatch();
    this.current = new Ledger();
  }

  /** The ledger from stored balances, entry ids after `lastEntryId`. */
  load(balances: readonly Posting[], lastEntryId: number): void {
    const ledger = Ledger.fromBalances(balances);
    if (ledger === null) throw new Error("paper balances do not sum to zero per asset");
    this.current = ledger;
    this.lastEntryId = lastEntryId;
  }
}

/** The paper account id in a `user:<id>:...` ledger account, or null (system accounts). */
function userAccountId(account: string): number | null {
  if (!account.startsWith("user:")) return null;
  let id = 0;
  let i = 5;
  for (; i < account.length; i++) {
    const digit = account.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) break;
    id = id * 10 + digit;
  }
  return i > 5 && account.charCodeAt(i) === 58 ? id : null;
}
