import type { Queryable } from "../../platform/db/types.ts";

/** What one margin loan still owes: principal plus interest, in minor units of its asset. */
export interface MarginDebt {
  accountId: number;
  asset: string;
  owed: bigint;
}

/**
 * The committed margin debts, one per loan with principal or interest left. VIP levels
 * subtract them from a balance (the root passes this read on).
 */
export async function marginDebts(db: Queryable): Promise<MarginDebt[]> {
  const rows = await db.all<{
    account_id: number | string;
    asset: string;
    principal: string;
    interest: string;
  }>(
    `SELECT account_id, asset, CAST(principal AS TEXT) AS principal, CAST(interest AS TEXT) AS interest
     FROM margin_loans WHERE principal <> 0 OR interest <> 0`,
  );
  return rows.map((r) => ({
    accountId: Number(r.account_id),
    asset: r.asset,
    owed: BigInt(r.principal) + BigInt(r.interest),
  }));
}
