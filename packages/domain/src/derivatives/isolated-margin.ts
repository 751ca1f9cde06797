import { EntryKind, type JournalEntry } from "../ledger/ledger.ts";
import { futuresWalletOf, isolatedMarginOf } from "./accounts.ts";
import type { AnyPerpContract } from "./coin-contracts.ts";
import { initialMargin, notionalAt } from "./contracts.ts";
import {
  DerivativesCode,
  type DerivativesResult,
  type PerpPosition,
  refuse,
  unrealisedPnl,
} from "./position.ts";
import { minBig } from "./scales.ts";

/**
 * Most isolated margin that can leave a position (Binance's "max removable"): what stays
 * must still cover the initial margin at the current leverage, valued at the mark, after
 * any unrealised loss (a profit is not counted: it is not realised yet). Never below zero.
 *
 * Long 0.1 BTC at 50,000, 20x (margin 250), margin raised to 400, mark 49,000: loss 100,
 * initial margin 4,900 / 20 = 245; removable 400 - 100 - 245 = 55.
 */
export function maxRemovableMargin(contract: AnyPerpContract, pos: PerpPosition, markTicks: number): bigint {
  if (pos.marginMode !== "isolated" || pos.lots === 0) return 0n;
  const loss = minZero(unrealisedPnl(contract, pos, markTicks));
  const im = initialMargin(notionalAt(contract, pos.lots, markTicks), pos.leverage);
  const free = pos.isolatedMargin + loss - im;
  return free > 0n ? minBig(free, pos.isolatedMargin) : 0n;
}

const minZero = (v: bigint): bigint => (v < 0n ? v : 0n);

export interface MarginAdjustment {
  readonly position: PerpPosition;
  /** Futures wallet <-> the position's isolated margin account (kind transfer). */
  readonly entry: JournalEntry;
}

/**
 * Adds wallet money to an isolated position's margin, or takes some back (at most
 * `maxRemovableMargin`). Whether the wallet can spare an addition is the account's
 * question (available margin after open-order reserves): the caller checks it, and the
 * ledger refuses the entry if the wallet cannot pay.
 */
export function adjustIsolatedMargin(
  contract: AnyPerpContract,
  pos: PerpPosition,
  direction: "add" | "reduce",
  amount: bigint,
  markTicks: number,
): DerivativesResult<MarginAdjustment> {
  if (pos.marginMode !== "isolated" || pos.lots === 0) return refuse(DerivativesCode.NOT_ISOLATED);
  if (amount <= 0n) return refuse(DerivativesCode.INVALID_FILL);
  if (direction === "reduce") {
    const max = maxRemovableMargin(contract, pos, markTicks);
    if (amount > max) return refuse(DerivativesCode.MARGIN_REDUCE_EXCEEDS, { max: max.toString() });
  }
  const signed = direction === "add" ? amount : -amount;
  return {
    ok: true,
    value: {
      position: { ...pos, isolatedMargin: pos.isolatedMargin + signed },
      entry: {
        kind: EntryKind.Transfer,
        postings: [
          { account: futuresWalletOf(pos.accountId), asset: contract.marginAsset, amount: -signed },
          {
            account: isolatedMarginOf(pos.accountId, pos.symbol, pos.positionSide),
            asset: contract.marginAsset,
            amount: signed,
          },
        ],
      },
    },
  };
}
