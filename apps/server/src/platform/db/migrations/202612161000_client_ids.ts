import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Client ids that make a retried command run once (docs/trading.md, "Retries"):
 * - futures orders carry the client's order id (`#<id>` when placed without one, as paper
 *   orders do), unique per account, so a placement sent again answers the stored order;
 * - `wallet_transfer_ids` remembers each wallet transfer made with a client id (spot,
 *   futures, cross and isolated margin; written in the transfer's own commit);
 * - sub-account transfers carry theirs, unique per master.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    "ALTER TABLE futures_orders ADD COLUMN client_order_id TEXT",
    "UPDATE futures_orders SET client_order_id = '#' || id",
    "CREATE UNIQUE INDEX futures_orders_client_idx ON futures_orders (account_id, client_order_id)",
    `CREATE TABLE wallet_transfer_ids (
      account_id ${t.bigint} NOT NULL,
      client_transfer_id TEXT NOT NULL,
      tran_id ${t.bigint} NOT NULL,
      from_wallet TEXT NOT NULL,
      to_wallet TEXT NOT NULL,
      asset TEXT NOT NULL,
      amount ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL,
      PRIMARY KEY (account_id, client_transfer_id)
    )`,
    "ALTER TABLE sub_transfers ADD COLUMN client_transfer_id TEXT",
    "CREATE UNIQUE INDEX sub_transfers_client_idx ON sub_transfers (master_user_id, client_transfer_id)",
  ];
}
