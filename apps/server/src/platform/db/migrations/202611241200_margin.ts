import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Margin trading on paper. Money moves in the paper journal (cross account
 * `user:<id>:margin`, isolated `user:<id>:margin:<PAIR>`, open-order holds beside them
 * with `:held`; the lending pool `system:lending`). Margin orders and fills are paper
 * orders and trades with `wallet` = 'cross' or 'isolated' (spot ones keep 'spot'); the
 * loans, records and the interest clock live here, written in the same group commit.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    "ALTER TABLE paper_orders ADD COLUMN wallet TEXT NOT NULL DEFAULT 'spot'",
    "ALTER TABLE paper_orders ADD COLUMN side_effect TEXT",
    "ALTER TABLE paper_trades ADD COLUMN wallet TEXT NOT NULL DEFAULT 'spot'",
    "CREATE INDEX paper_orders_wallet_idx ON paper_orders (account_id, wallet, id)",
    "CREATE INDEX paper_trades_wallet_idx ON paper_trades (account_id, wallet, id)",
    `CREATE TABLE margin_loans (
      account_id ${t.bigint} NOT NULL,
      symbol TEXT NOT NULL,
      asset TEXT NOT NULL,
      principal ${t.bigint} NOT NULL,
      interest ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      PRIMARY KEY (account_id, symbol, asset)
    )`,
    `CREATE TABLE margin_isolated (
      account_id ${t.bigint} NOT NULL,
      symbol TEXT NOT NULL,
      created_at ${t.bigint} NOT NULL,
      PRIMARY KEY (account_id, symbol)
    )`,
    `CREATE TABLE margin_records (
      id ${t.bigint} PRIMARY KEY,
      account_id ${t.bigint} NOT NULL,
      type TEXT NOT NULL,
      mode TEXT NOT NULL,
      symbol TEXT,
      asset TEXT NOT NULL,
      amount ${t.bigint} NOT NULL,
      interest ${t.bigint},
      principal ${t.bigint},
      created_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX margin_records_account_idx ON margin_records (account_id, id)",
    `CREATE TABLE margin_clock (
      name TEXT PRIMARY KEY,
      at ${t.bigint} NOT NULL
    )`,
  ];
}
