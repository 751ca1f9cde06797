import type { Queryable } from "../../platform/db/types.ts";

/** Traded size of one futures account in one contract: the sum of price ticks times lots. */
export interface FuturesVolume {
  accountId: number;
  symbol: string;
  ticksLots: bigint;
}

const big = (v: unknown): bigint =>
  v === null || v === undefined ? 0n : BigInt(String(v).split(".")[0] ?? "0");

/**
 * The futures fills since `since` summed per account and contract (VIP levels read it;
 * the root passes it on); `accountIds` limits it to those accounts.
 */
export async function futuresVolumes(
  db: Queryable,
  since: number,
  accountIds?: readonly number[],
): Promise<FuturesVolume[]> {
  if (accountIds !== undefined && accountIds.length === 0) return [];
  const inIds =
    accountIds === undefined ? "" : ` AND account_id IN (${accountIds.map(() => "?").join(", ")})`;
  const rows = await db.all<{ account_id: number | string; symbol: string; n: unknown }>(
    `SELECT account_id, symbol, SUM(price_ticks * qty_lots) AS n FROM futures_trades WHERE created_at >= ?${inIds} GROUP BY account_id, symbol`,
    [since, ...(accountIds ?? [])],
  );
  return rows.map((r) => ({ accountId: Number(r.account_id), symbol: r.symbol, ticksLots: big(r.n) }));
}
