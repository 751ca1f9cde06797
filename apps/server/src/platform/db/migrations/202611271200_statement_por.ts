import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * The user statement (/transac) reads the journal by posting account, so postings get an
 * index on it. Proof of reserves keeps each snapshot's summary and every leaf (account,
 * position, nonce, balances): the tree is rebuilt from them after a restart, and the
 * same leaves give the same root.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    "CREATE INDEX paper_postings_account_idx ON paper_postings (account, entry_id)",
    `CREATE TABLE por_snapshots (
      id ${t.id},
      created_at ${t.bigint} NOT NULL,
      trigger_kind TEXT NOT NULL,
      root_hash TEXT NOT NULL,
      height INTEGER NOT NULL,
      leaf_count INTEGER NOT NULL,
      assets TEXT NOT NULL,
      reserves TEXT NOT NULL
    )`,
    `CREATE TABLE por_leaves (
      snapshot_id ${t.bigint} NOT NULL,
      leaf_index INTEGER NOT NULL,
      account_id ${t.bigint} NOT NULL,
      nonce TEXT NOT NULL,
      balances TEXT NOT NULL,
      PRIMARY KEY (snapshot_id, leaf_index)
    )`,
    "CREATE INDEX por_leaves_account_idx ON por_leaves (account_id, snapshot_id)",
  ];
}
