import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Paper trading: accounts, orders, trades and the double-entry journal with its
 * balances. Ids are chosen by the order service (its single writer allocates them in
 * sequence), so they are plain BIGINT keys. Money is BIGINT minor units per asset
 * (ASSET_DECIMALS in @meridian/domain); prices and quantities are engine ticks and lots.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE paper_accounts (
      id ${t.bigint} PRIMARY KEY,
      user_id TEXT NOT NULL UNIQUE,
      created_at ${t.bigint} NOT NULL
    )`,
    `CREATE TABLE paper_orders (
      id ${t.bigint} PRIMARY KEY,
      account_id ${t.bigint} NOT NULL REFERENCES paper_accounts(id),
      client_order_id TEXT NOT NULL,
      symbol TEXT NOT NULL,
      side INTEGER NOT NULL,
      type TEXT NOT NULL,
      tif TEXT,
      price_ticks ${t.bigint},
      stop_ticks ${t.bigint},
      qty_lots ${t.bigint} NOT NULL,
      quote_qty TEXT,
      status TEXT NOT NULL,
      triggered ${t.bool} NOT NULL DEFAULT 0,
      book_seq ${t.bigint},
      filled_lots ${t.bigint} NOT NULL DEFAULT 0,
      taker_quote ${t.bigint} NOT NULL DEFAULT 0,
      maker_quote ${t.bigint} NOT NULL DEFAULT 0,
      fees ${t.bigint} NOT NULL DEFAULT 0,
      held ${t.bigint} NOT NULL DEFAULT 0,
      maker_ppm INTEGER NOT NULL,
      taker_ppm INTEGER NOT NULL,
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      UNIQUE (account_id, client_order_id)
    )`,
    "CREATE INDEX paper_orders_open_idx ON paper_orders (status, book_seq)",
    "CREATE INDEX paper_orders_account_idx ON paper_orders (account_id, id)",
    `CREATE TABLE paper_trades (
      id ${t.bigint} PRIMARY KEY,
      order_id ${t.bigint} NOT NULL,
      account_id ${t.bigint} NOT NULL,
      symbol TEXT NOT NULL,
      side INTEGER NOT NULL,
      price_ticks ${t.bigint} NOT NULL,
      qty_lots ${t.bigint} NOT NULL,
      quote ${t.bigint} NOT NULL,
      fee ${t.bigint} NOT NULL,
      is_maker ${t.bool} NOT NULL,
      counter_order_id ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX paper_trades_account_idx ON paper_trades (account_id, id)",
    "CREATE INDEX paper_trades_order_idx ON paper_trades (order_id)",
    `CREATE TABLE paper_journal (
      id ${t.bigint} PRIMARY KEY,
      kind TEXT NOT NULL,
      account_id ${t.bigint},
      order_id ${t.bigint},
      created_at ${t.bigint} NOT NULL
    )`,
    `CREATE TABLE paper_postings (
      entry_id ${t.bigint} NOT NULL REFERENCES paper_journal(id),
      account TEXT NOT NULL,
      asset TEXT NOT NULL,
      amount ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX paper_postings_entry_idx ON paper_postings (entry_id)",
    `CREATE TABLE paper_balances (
      account TEXT NOT NULL,
      asset TEXT NOT NULL,
      amount ${t.bigint} NOT NULL,
      PRIMARY KEY (account, asset)
    )`,
  ];
}
