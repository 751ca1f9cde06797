import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Every transfer into or out of a futures wallet (from or to spot, or a margin wallet
 * through spot), so each has a real id to answer and to list (docs/bot-api.md,
 * `transferRecords`); written by the futures batch writer in the transfer's commit.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE futures_transfers (
      id ${t.bigint} PRIMARY KEY,
      account_id ${t.bigint} NOT NULL,
      direction TEXT NOT NULL,
      wallet TEXT NOT NULL,
      symbol TEXT,
      amount ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX futures_transfers_account_idx ON futures_transfers (account_id, id)",
  ];
}
