import { PAPER_TOPUP_CAP, PaperCode } from "@meridian/contracts";
import { availableOf, burnEntry, EntryKind, heldOf, mintEntry, toMinor } from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import { initialAmounts } from "../ledger/index.ts";
import type { SpotState } from "./state.ts";

// A paper account's spot money from outside trading: top-ups, a reset (the initial
// balances are minted by the ledger writer when it opens the account).

export function topUp(s: SpotState, accountId: number, asset: string, amountText: string): void {
  const cap = Object.hasOwn(PAPER_TOPUP_CAP, asset) ? PAPER_TOPUP_CAP[asset] : undefined;
  const amount = toMinor(asset, amountText);
  const capMinor = cap === undefined ? null : toMinor(asset, cap);
  if (amount === null || amount <= 0n || capMinor === null) {
    throw new AppError(
      PaperCode.TOPUP_LIMIT,
      `Top-ups exist for ${Object.keys(PAPER_TOPUP_CAP).join(", ")}`,
      {
        status: 200,
        data: { asset, max: cap ?? "0" },
      },
    );
  }
  const total = s.ledger.balance(availableOf(accountId), asset) + s.ledger.balance(heldOf(accountId), asset);
  if (total + amount > capMinor) {
    throw new AppError(PaperCode.TOPUP_LIMIT, `A top-up may bring ${asset} to at most ${cap}`, {
      status: 200,
      data: { asset, max: cap },
    });
  }
  s.mustPost(mintEntry(EntryKind.TopUp, accountId, [{ asset, amount }]), accountId, null);
}

/** Returns every available balance to the treasury and mints the initial set again (open orders cancelled first). */
export function refill(s: SpotState, accountId: number): void {
  s.mustPost(burnEntry(accountId, s.ledger.balancesOf(availableOf(accountId))), accountId, null);
  s.mustPost(mintEntry(EntryKind.Reset, accountId, initialAmounts()), accountId, null);
}
