import { anyPerpContract, settleFunding as settle } from "@meridian/domain";
import type { FundingRow } from "./repo.ts";
import type { EngineState } from "./state.ts";

/**
 * Settles one funding interval for every open position of `symbol` at `rateE8`: one
 * entry for all of them (nothing moves when the ledger refuses it), then each payer's
 * and receiver's position, realised PnL and funding row.
 */
export function settleFunding(state: EngineState, symbol: string, markTicks: number, rateE8: bigint): void {
  const c = anyPerpContract(symbol);
  if (c === undefined) return;
  const list = [...state.allPositions()].filter((p) => p.position.symbol === symbol && p.position.lots !== 0);
  if (list.length === 0) return;
  const tx = state.ledger();
  const out = settle(
    c,
    list.map((p) => p.position),
    markTicks,
    rateE8,
    (p) => (p.marginMode === "isolated" ? p.isolatedMargin : state.wallet(p.accountId, c.marginAsset)),
  );
  if (out.entry !== null && tx.post(out.entry, null, null) !== null) return;
  list.forEach((p, i) => {
    const paid = out.paid[i] ?? 0n;
    const position = out.positions[i] ?? p.position;
    if (paid === 0n) return;
    state.savePosition({ position, realisedPnl: p.realisedPnl - paid });
    state.syncWallet(position.accountId);
    const row: FundingRow = {
      id: state.nextFundingId(),
      accountId: position.accountId,
      symbol,
      positionSide: position.positionSide,
      rateE8,
      markTicks,
      amount: -paid,
      createdAt: state.now(),
    };
    state.saveFunding(row);
  });
}
