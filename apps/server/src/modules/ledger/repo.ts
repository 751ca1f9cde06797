import type { Posting } from "@meridian/domain";
import type { Db, Queryable } from "../../platform/db/types.ts";
import type { AccountRow } from "./accounts.ts";
import type { JournalBatch } from "./journal.ts";
import { InsertInto, RowBuffer, writeJournal } from "./store.ts";

const INSERT_ACCOUNTS = new InsertInto("INSERT INTO paper_accounts (id, user_id, created_at)", 3);

/** What one group commit writes: accounts opened, each batch writer's rows, the journal. */
export interface LedgerBatch {
  accounts: AccountRow[];
  /** Each registered batch writer's rows, in registration order. */
  parts: ReadonlyArray<{ write(tx: Queryable): Promise<void> }>;
  journal: JournalBatch;
}

/** What the ledger holds on start: balances, and the last ids it gave out. */
export interface LoadedLedger {
  balances: Posting[];
  lastEntryId: number;
  lastAccountId: number;
}

type PostingRecord = { account: string; asset: string; amount: string };
const toPosting = (r: PostingRecord): Posting => ({
  account: r.account,
  asset: r.asset,
  amount: BigInt(r.amount),
});

/**
 * SQL of the ledger's tables (`paper_accounts`, `paper_journal`, `paper_postings`,
 * `paper_balances`); one text for SQLite and PostgreSQL. The read methods are the
 * ledger's read interface (`LedgerReader`) for other modules (VIP, statements).
 */
export class LedgerRepo {
  readonly #db: Db;
  /**
   * Runs first in every commit transaction (several instances: refuses the commit of a
   * writer that was replaced, see modules/writer).
   */
  readonly #fence: ((tx: Queryable) => Promise<void>) | null;

  constructor(db: Db, fence: ((tx: Queryable) => Promise<void>) | null = null) {
    this.#db = db;
    this.#fence = fence;
  }

  /**
   * Writes one group commit: everything in it lands, or nothing does. Accounts first and
   * the batch writers' rows before the journal (orders reference accounts), then the
   * journal, then the rows commands added with `LedgerTx.write`.
   */
  async persist(b: LedgerBatch): Promise<void> {
    await this.#db.transaction(async (tx) => {
      if (this.#fence !== null) await this.#fence(tx);
      if (b.accounts.length > 0) {
        const rows = new RowBuffer(tx, INSERT_ACCOUNTS);
        for (const a of b.accounts) {
          if (rows.full()) await rows.flush();
          rows.params.push(a.id, a.userId, a.createdAt);
          rows.rows++;
        }
        await rows.flush();
      }
      for (const part of b.parts) await part.write(tx);
      await writeJournal(tx, b.journal);
    });
  }

  async load(): Promise<LoadedLedger> {
    const max = await this.#db.get<Record<string, number | null>>(
      "SELECT (SELECT MAX(id) FROM paper_journal) AS e, (SELECT MAX(id) FROM paper_accounts) AS a",
    );
    return {
      balances: await this.balanceRows(),
      lastEntryId: Number(max?.e ?? 0),
      lastAccountId: Number(max?.a ?? 0),
    };
  }

  /** Every committed balance. */
  async balanceRows(): Promise<Posting[]> {
    const rows = await this.#db.all<PostingRecord>(
      "SELECT account, asset, CAST(amount AS TEXT) AS amount FROM paper_balances",
    );
    return rows.map(toPosting);
  }

  /** Committed balances of the users' ledger accounts (`user:<id>:...`). */
  async userBalanceRows(): Promise<Posting[]> {
    const rows = await this.#db.all<PostingRecord>(
      "SELECT account, asset, CAST(amount AS TEXT) AS amount FROM paper_balances WHERE account LIKE 'user:%'",
    );
    return rows.map(toPosting);
  }

  /** Per users' ledger account and asset, the sum of the postings of entries of these kinds. */
  async userPostingSums(kinds: readonly string[]): Promise<Posting[]> {
    if (kinds.length === 0) return [];
    const rows = await this.#db.all<PostingRecord>(
      `SELECT pp.account, pp.asset, CAST(SUM(pp.amount) AS TEXT) AS amount
       FROM paper_postings pp JOIN paper_journal j ON j.id = pp.entry_id
       WHERE j.kind IN (${kinds.map(() => "?").join(", ")}) AND pp.account LIKE 'user:%'
       GROUP BY pp.account, pp.asset`,
      [...kinds],
    );
    return rows.map(toPosting);
  }

  /** Per account and asset, the sum of every posting in the journal. */
  async journalSums(): Promise<Posting[]> {
    const rows = await this.#db.all<PostingRecord>(
      "SELECT account, asset, CAST(SUM(amount) AS TEXT) AS amount FROM paper_postings GROUP BY account, asset",
    );
    return rows.map(toPosting);
  }

  async accountOf(userId: string): Promise<AccountRow | undefined> {
    const r = await this.#db.get<{ id: number; user_id: string; created_at: number }>(
      "SELECT id, user_id, created_at FROM paper_accounts WHERE user_id = ?",
      [userId],
    );
    return r === undefined
      ? undefined
      : { id: Number(r.id), userId: r.user_id, createdAt: Number(r.created_at) };
  }

  /** The paper accounts of these users (every account when `userIds` is undefined). */
  async accountsOf(userIds?: readonly string[]): Promise<AccountRow[]> {
    if (userIds !== undefined && userIds.length === 0) return [];
    const rows = await this.#db.all<{ id: number; user_id: string; created_at: number }>(
      userIds === undefined
        ? "SELECT id, user_id, created_at FROM paper_accounts"
        : `SELECT id, user_id, created_at FROM paper_accounts WHERE user_id IN (${userIds.map(() => "?").join(", ")})`,
      userIds === undefined ? [] : [...userIds],
    );
    return rows.map((r) => ({ id: Number(r.id), userId: r.user_id, createdAt: Number(r.created_at) }));
  }

  /** The committed spot balances of an account: its available and held ledger accounts. */
  async accountBalances(accountId: number): Promise<Posting[]> {
    const rows = await this.#db.all<PostingRecord>(
      "SELECT account, asset, CAST(amount AS TEXT) AS amount FROM paper_balances WHERE account IN (?, ?)",
      [`user:${accountId}:available`, `user:${accountId}:held`],
    );
    return rows.map(toPosting);
  }
}
