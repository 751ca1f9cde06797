import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * Each settled funding rate per perpetual, written when funding settles (whether or not a
 * position paid it), for the market's funding rate history (`history-fund-rate`).
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE futures_funding_rates (
      id ${t.bigint} PRIMARY KEY,
      symbol TEXT NOT NULL,
      rate_e8 ${t.bigint} NOT NULL,
      mark_ticks ${t.bigint} NOT NULL,
      funding_time ${t.bigint} NOT NULL
    )`,
    "CREATE INDEX futures_funding_rates_symbol_idx ON futures_funding_rates (symbol, id)",
  ];
}
