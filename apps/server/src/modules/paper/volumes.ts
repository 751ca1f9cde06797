import type { Queryable } from "../../platform/db/types.ts";

/** Quote turnover of one paper account in one spot symbol (minor units of the quote asset). */
export interface SpotVolume {
  accountId: number;
  symbol: string;
  quote: bigint;
}

const big = (v: unknown): bigint =>
  v === null || v === undefined ? 0n : BigInt(String(v).split(".")[0] ?? "0");

/**
 * The spot and margin fills since `since` summed per account and symbol (VIP levels read
 * it; the root passes it on); `accountIds` limits it to those accounts.
 */
export async function spotVolumes(
  db: Queryable,
  since: number,
  accountIds?: readonly number[],
): Promise<SpotVolume[]> {
  if (accountIds !== undefined && accountIds.length === 0) return [];
  const inIds =
    accountIds === undefined ? "" : ` AND account_id IN (${accountIds.map(() => "?").join(", ")})`;
  const rows = await db.all<{ account_id: number | string; symbol: string; q: unknown }>(
    `SELECT account_id, symbol, SUM(quote) AS q FROM paper_trades WHERE created_at >= ?${inIds} GROUP BY account_id, symbol`,
    [since, ...(accountIds ?? [])],
  );
  return rows.map((r) => ({ accountId: Number(r.account_id), symbol: r.symbol, quote: big(r.q) }));
}
