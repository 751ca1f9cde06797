import type { JournalEntry, Ledger, LedgerRefusal } from "@meridian/domain";
import type { Queryable } from "../../platform/db/types.ts";

export { type ClientOrderRef, GroupCommit, type GroupCommitTarget, type Placement } from "./group-commit.ts";
export { type EntryRow, emptyJournalBatch, Journal, type JournalBatch } from "./journal.ts";
export { InsertInto, RowBuffer, writeJournal } from "./store.ts";

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
 * The ledger writer as spot, margin and futures use it: one ledger (balances and holds
 * as postings in one journal) and one group commit, on the elected writer only.
 * `transact` runs a module's command there and settles once its commit is durable.
 */
export interface LedgerWriter {
  transact<T>(fn: (tx: LedgerTx) => T): Promise<T>;
  /** Commits what is pending. */
  flush(): Promise<void>;
  /** Balance of a ledger account as the writer holds it (committed or about to be). */
  ledgerBalance(account: string, asset: string): bigint;
  /** Every balance of a ledger account as the writer holds it. */
  ledgerBalances(account: string): ReadonlyMap<string, bigint>;
  /** Heard when a failed commit made the ledger reload from the database (drop derived state). */
  onRebuilt(listener: () => void): () => void;
  /** Sends messages to the user's `/v1/ws/user` sockets after a commit (user events). */
  push(accountId: number, messages: readonly object[]): void;
}
