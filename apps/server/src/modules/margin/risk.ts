import { forcedLiquidation, needsForcedLiquidation } from "@meridian/domain";
import type { OrderRow } from "../paper/index.ts";
import { type MarginAccounts, USDT } from "./accounts.ts";

/** Price-driven level pushes: at most one per account per second. */
const LEVEL_PUSH_MS = 1_000;

/**
 * Liquidation: when a price moves, every account with debt is valued again; below 1.1
 * its open margin orders are cancelled and `forcedLiquidation` sells everything to the
 * maker, repays every loan and settles with the insurance fund. The other indebted
 * accounts get their new margin level pushed (throttled).
 */
export class MarginRisk {
  private readonly accounts: MarginAccounts;

  constructor(accounts: MarginAccounts) {
    this.accounts = accounts;
  }

  /** Values every account with debt; liquidates those below 1.1; pushes level changes (throttled). */
  async riskPass(): Promise<number> {
    const accounts = this.accounts;
    const liquidated = await accounts.exec((tx, w) => {
      const prices = accounts.prices();
      let count = 0;
      for (const e of accounts.debtors()) {
        const scope = e.scope;
        let a = accounts.accountOf(scope, tx.ledger);
        if (!needsForcedLiquidation(a, prices)) continue;
        const which = (r: OrderRow) =>
          scope.symbol === null ? r.wallet === "cross" : r.wallet === "isolated" && r.symbol === scope.symbol;
        for (const id of tx.liveOrderIds(scope.accountId, which)) tx.cancelMargin(scope.accountId, id);
        a = accounts.accountOf(scope, tx.ledger);
        const r = forcedLiquidation(a, prices);
        accounts.post(tx, r.entry, scope.accountId);
        accounts.setLoans(scope, r.account.loans, w);
        accounts.record(w, scope, "LIQUIDATION", USDT, r.returned);
        count++;
      }
      return count;
    });
    accounts.pushLevels(LEVEL_PUSH_MS);
    return liquidated;
  }
}
