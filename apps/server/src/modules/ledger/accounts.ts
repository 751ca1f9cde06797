import { PAPER_INITIAL_BALANCES } from "@meridian/contracts";
import { type Amount, EntryKind, type JournalEntry, mintEntry, toMinor } from "@meridian/domain";

/** A paper account as stored (`paper_accounts`): every module's balances hang off its id. */
export interface AccountRow {
  id: number;
  userId: string;
  createdAt: number;
}

/** The balances a new account starts with (and a reset mints again). */
export function initialAmounts(): Amount[] {
  return Object.entries(PAPER_INITIAL_BALANCES).map(([asset, text]) => ({
    asset,
    amount: toMinor(asset, text) ?? 0n,
  }));
}

/** The activation entry of a new account: the initial balances minted into its spot wallet. */
export const activationEntry = (accountId: number): JournalEntry =>
  mintEntry(EntryKind.Activate, accountId, initialAmounts());
