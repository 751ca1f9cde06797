import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Sub-accounts and moving VIP levels. A sub-account is a `users` row whose `parent_id`
 * names its master (the column exists since the accounts migration); it gets a label.
 * A session made by switching into a sub remembers the master it came from, so the way
 * back needs no password. Transfers between a master and its subs are ledger entries
 * (kind `sub-transfer`); `sub_transfers` is their readable history. `vip_status` keeps
 * what the daily VIP job measured for each master (the level itself is `users.vip_level`).
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    "ALTER TABLE users ADD COLUMN sub_label TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX users_parent_idx ON users (parent_id)",
    "ALTER TABLE sessions ADD COLUMN switched_from TEXT",
    `CREATE TABLE sub_transfers (
      id ${t.id},
      master_user_id TEXT NOT NULL,
      sub_user_id TEXT NOT NULL,
      direction TEXT NOT NULL,
      wallet TEXT NOT NULL,
      symbol TEXT,
      asset TEXT NOT NULL,
      amount ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX sub_transfers_master_idx ON sub_transfers (master_user_id, id)",
    `CREATE TABLE vip_status (
      user_id TEXT PRIMARY KEY,
      level INTEGER NOT NULL,
      volume_30d ${t.bigint} NOT NULL,
      balance ${t.bigint} NOT NULL,
      computed_at ${t.bigint} NOT NULL
    )`,
  ];
}
