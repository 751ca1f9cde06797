import type { Queryable, SqlValue } from "../../platform/db/types.ts";
import type { JournalBatch } from "./journal.ts";

/** Rows per multi-row statement (well under both databases' parameter limits). */
const CHUNK = 400;

/** Statement texts are kept for batches up to this many rows (a group commit is usually a few). */
const KEPT_TEXTS = 64;

/**
 * One multi-row INSERT. Its text for each row count is built once: a group commit runs
 * five of them, and building (then hashing, as the prepared-statement cache key) a fresh
 * text of up to a few KB for each was a good part of what a commit allocated.
 */
export class InsertInto {
  readonly #head: string;
  readonly #tuple: string;
  readonly #tail: string;
  readonly #texts: string[] = [];

  constructor(head: string, width: number, tail = "") {
    this.#head = head;
    this.#tuple = `(${Array.from({ length: width }, () => "?").join(", ")})`;
    this.#tail = tail;
  }

  sql(rows: number): string {
    let text = this.#texts[rows];
    if (text === undefined) {
      text = `${this.#head} VALUES ${Array.from({ length: rows }, () => this.#tuple).join(", ")}${this.#tail}`;
      if (rows <= KEPT_TEXTS) this.#texts[rows] = text;
    }
    return text;
  }
}

/** Rows of one table gathered into statements of at most CHUNK rows. */
export class RowBuffer {
  params: SqlValue[] = [];
  rows = 0;
  readonly #tx: Queryable;
  readonly #into: InsertInto;

  constructor(tx: Queryable, into: InsertInto) {
    this.#tx = tx;
    this.#into = into;
  }

  /** True when `n` more rows would not fit the statement being gathered. */
  full(n = 1): boolean {
    return this.rows > 0 && this.rows + n > CHUNK;
  }

  async flush(): Promise<void> {
    if (this.rows === 0) return;
    await this.#tx.run(this.#into.sql(this.rows), this.params);
    this.params = [];
    this.rows = 0;
  }
}

const INSERT_JOURNAL = new InsertInto(
  "INSERT INTO paper_journal (id, kind, account_id, order_id, created_at)",
  5,
);
const INSERT_POSTINGS = new InsertInto("INSERT INTO paper_postings (entry_id, account, asset, amount)", 4);
const ADD_BALANCES = new InsertInto(
  "INSERT INTO paper_balances (account, asset, amount)",
  3,
  " ON CONFLICT (account, asset) DO UPDATE SET amount = paper_balances.amount + excluded.amount",
);

/**
 * Writes what the journal gathered for one group commit, inside its transaction: the
 * entries and their postings, each ledger account's balance change, then the rows the
 * other modules added (`LedgerTx.write`).
 */
export async function writeJournal(tx: Queryable, b: JournalBatch): Promise<void> {
  if (b.entries.length > 0) {
    const journal = new RowBuffer(tx, INSERT_JOURNAL);
    for (const e of b.entries) {
      if (journal.full()) await journal.flush();
      journal.params.push(e.id, e.kind, e.accountId, e.orderId, e.createdAt);
      journal.rows++;
    }
    await journal.flush();
    const postings = new RowBuffer(tx, INSERT_POSTINGS);
    for (const e of b.entries) {
      for (const p of e.postings) {
        if (postings.full()) await postings.flush();
        postings.params.push(e.id, p.account, p.asset, p.amount);
        postings.rows++;
      }
    }
    await postings.flush();
  }
  const balances = new RowBuffer(tx, ADD_BALANCES);
  for (const [account, assets] of b.balances) {
    for (const [asset, amount] of assets) {
      if (amount === 0n) continue;
      if (balances.full()) await balances.flush();
      balances.params.push(account, asset, amount);
      balances.rows++;
    }
  }
  await balances.flush();
  for (const write of b.writes) await write(tx);
}
