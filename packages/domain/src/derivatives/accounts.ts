import {
  availableOf,
  EntryKind,
  type JournalEntry,
  type LedgerAccount,
  type Wallet,
} from "../ledger/ledger.ts";

/**
 * Ledger accounts of the futures and margin wallets, in the paper ledger's naming
 * (`user:` accounts never go negative, `system:` accounts may).
 *
 * NOTE: the ledger refuses any entry that would take a `user:` balance below zero, so
 * every rule here that could leave a shortfall (a liquidation past bankruptcy, funding
 * larger than a wallet, a margin account worth less than its debt) moves that shortfall
 * to `system:insurance` instead.
 */
export const DerivativesAccount = {
  /** Pays losses beyond a trader's margin; receives what is left of liquidated margin. */
  Insurance: "system:insurance",
  /** The lending pool of margin borrowing: its balance is minus every outstanding debt. */
  Lending: "system:lending",
  /** Borrow interest income. */
  Interest: "system:interest",
} as const;

export type PositionSide = "BOTH" | "LONG" | "SHORT";

/** USDT-M futures wallet (the cross wallet balance). */
export const futuresWalletOf = (accountId: number): LedgerAccount => `user:${accountId}:futures`;

/** Margin set aside for one isolated position (Binance's "isolated wallet"). */
export const isolatedMarginOf = (accountId: number, symbol: string, side: PositionSide): LedgerAccount =>
  `user:${accountId}:futures:${symbol}:${side}`;

/** Cross margin (spot borrowing) account, all assets. */
export const crossMarginOf = (accountId: number): LedgerAccount => `user:${accountId}:margin`;

/** Isolated margin (spot borrowing) account of one pair, holding its base and quote. */
export const isolatedPairOf = (accountId: number, pair: string): LedgerAccount =>
  `user:${accountId}:margin:${pair}`;

/**
 * A margin account as an order wallet: free funds in the account itself, holds of open
 * margin orders beside it (`user:<id>:margin:held`, `user:<id>:margin:<PAIR>:held`).
 * Held funds still belong to the margin account (they count in its margin level).
 */
export function marginWalletOf(accountId: number, pair?: string): Wallet {
  const available = pair === undefined ? crossMarginOf(accountId) : isolatedPairOf(accountId, pair);
  return { available, held: `${available}:held` };
}

/** Moves `amount` of `asset` between two of a user's wallets (spot available, futures, margin). */
export function walletTransferEntry(
  from: LedgerAccount,
  to: LedgerAccount,
  asset: string,
  amount: bigint,
): JournalEntry {
  if (amount <= 0n) throw new RangeError("transfer amount must be positive");
  return {
    kind: EntryKind.Transfer,
    postings: [
      { account: from, asset, amount: -amount },
      { account: to, asset, amount },
    ],
  };
}

/** Spot available -> futures wallet (or back with `toFutures = false`). */
export function futuresTransferEntry(accountId: number, amount: bigint, toFutures = true): JournalEntry {
  const spot = availableOf(accountId);
  const fut = futuresWalletOf(accountId);
  return toFutures
    ? walletTransferEntry(spot, fut, "USDT", amount)
    : walletTransferEntry(fut, spot, "USDT", amount);
}
