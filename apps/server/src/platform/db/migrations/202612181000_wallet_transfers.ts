import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Every wallet transfer of an account (spot, futures, cross and isolated margin) with the
 * id it answers, for the transfer records (docs/bot-api.md, `transferRecords`); written by
 * the futures batch writer in the transfer's commit (futures owns the wallet transfers'
 * bookkeeping, as it does `wallet_transfer_ids`).
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE wallet_transfers (
      id ${t.bigint} PRIMARY KEY,
      account_id ${t.bigint} NOT NULL,
      from_wallet TEXT NOT NULL,
      to_wallet TEXT NOT NULL,
      symbol TEXT,
      asset TEXT NOT NULL,
      amount ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX wallet_transfers_account_idx ON wallet_transfers (account_id, id)",
  ];
}
