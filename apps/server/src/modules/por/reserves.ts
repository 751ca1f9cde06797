import type { PorReserve } from "@meridian/contracts";
import { DerivativesAccount, formatScaled, fromMinor, SystemAccount } from "@meridian/domain";

/**
 * Paper reserves per asset, read from the platform's ledger accounts (see
 * docs/proof-of-reserves.md for why these three):
 * - treasury: what the paper mint has issued (`-system:mint`) is held in custody 1:1, less
 *   the part ring-fenced as the insurance fund;
 * - insurance fund: `system:insurance`;
 * - lending pool: what margin users owe back (`-system:lending`), backing the borrowed
 *   coins in their balances.
 * reserves = treasury + insurance fund + lending pool; ratio = reserves / liabilities.
 */
export function reservesOf(
  assets: readonly string[],
  liabilities: readonly bigint[],
  system: (account: string, asset: string) => bigint,
): PorReserve[] {
  return assets.map((asset, i) => {
    const owed = liabilities[i] ?? 0n;
    const insurance = system(DerivativesAccount.Insurance, asset);
    const treasury = -system(SystemAccount.Mint, asset) - insurance;
    const lending = -system(DerivativesAccount.Lending, asset);
    const total = treasury + insurance + lending;
    return {
      asset,
      liabilities: fromMinor(asset, owed),
      treasury: fromMinor(asset, treasury),
      insuranceFund: fromMinor(asset, insurance),
      lendingPool: fromMinor(asset, lending),
      reserves: fromMinor(asset, total),
      // Percent with two decimals, truncated: 10000 x reserves / liabilities, scaled by 100.
      ratio: owed === 0n ? null : formatScaled((total * 10_000n) / owed, 2),
    };
  });
}
