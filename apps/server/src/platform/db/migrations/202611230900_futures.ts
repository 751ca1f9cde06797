import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * USDT-M perpetuals on paper. Money moves in the paper journal (`paper_postings`, the
 * futures wallet is `user:<id>:futures`); these tables hold the positions, orders, fills
 * and funding records written in the same group commit. Ids are allocated by the futures
 * service in memory (one writer per process), like the paper tables.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE futures_accounts (
      account_id ${t.bigint} PRIMARY KEY,
      dual_side ${t.bool} NOT NULL DEFAULT 0
    )`,
    `CREATE TABLE futures_settings (
      account_id ${t.bigint} NOT NULL,
      symbol TEXT NOT NULL,
      leverage INTEGER NOT NULL,
      margin_mode TEXT NOT NULL,
      PRIMARY KEY (account_id, symbol)
    )`,
    `CREATE TABLE futures_positions (
      account_id ${t.bigint} NOT NULL,
      symbol TEXT NOT NULL,
      position_side TEXT NOT NULL,
      margin_mode TEXT NOT NULL,
      leverage INTEGER NOT NULL,
      lots ${t.bigint} NOT NULL,
      cost ${t.bigint} NOT NULL,
      isolated_margin ${t.bigint} NOT NULL,
      realised_pnl ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      PRIMARY KEY (account_id, symbol, position_side)
    )`,
    `CREATE TABLE futures_orders (
      id ${t.bigint} PRIMARY KEY,
      account_id ${t.bigint} NOT NULL,
      symbol TEXT NOT NULL,
      side TEXT NOT NULL,
      position_side TEXT NOT NULL,
      type TEXT NOT NULL,
      price_ticks ${t.bigint},
      stop_ticks ${t.bigint},
      qty_lots ${t.bigint} NOT NULL,
      filled_lots ${t.bigint} NOT NULL,
      filled_notional ${t.bigint} NOT NULL,
      reduce_only ${t.bool} NOT NULL,
      close_position ${t.bool} NOT NULL,
      status TEXT NOT NULL,
      reason TEXT,
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX futures_orders_account_idx ON futures_orders (account_id, id)",
    "CREATE INDEX futures_orders_status_idx ON futures_orders (status)",
    `CREATE TABLE futures_trades (
      id ${t.bigint} PRIMARY KEY,
      order_id ${t.bigint} NOT NULL,
      account_id ${t.bigint} NOT NULL,
      symbol TEXT NOT NULL,
      side TEXT NOT NULL,
      position_side TEXT NOT NULL,
      price_ticks ${t.bigint} NOT NULL,
      qty_lots ${t.bigint} NOT NULL,
      realised_pnl ${t.bigint} NOT NULL,
      fee ${t.bigint} NOT NULL,
      is_maker ${t.bool} NOT NULL,
      liquidation ${t.bool} NOT NULL,
      created_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX futures_trades_account_idx ON futures_trades (account_id, id)",
    `CREATE TABLE futures_funding (
      id ${t.bigint} PRIMARY KEY,
      account_id ${t.bigint} NOT NULL,
      symbol TEXT NOT NULL,
      position_side TEXT NOT NULL,
      rate_e8 ${t.bigint} NOT NULL,
      mark_ticks ${t.bigint} NOT NULL,
      amount ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX futures_funding_account_idx ON futures_funding (account_id, id)",
  ];
}
