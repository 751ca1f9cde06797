import {
  FUTURES_MARGIN_COINS,
  type MarginAccountModeValue,
  MarginCode,
  type WalletTransferBody,
  type WalletTransferResult,
  type WalletValue,
} from "@meridian/contracts";
import { availableOf, maxTransferOut, subTransferEntry, walletTransferEntry } from "@meridian/domain";
import type { FuturesService, RecordTransfer, WalletTransferIds } from "../futures/index.ts";
import type { LedgerTx } from "../ledger/index.ts";
import { fail, type MarginAccounts, type Scope, walletOf } from "./accounts.ts";
import { maxAmount } from "./present.ts";

/**
 * Moves between wallets: spot, futures, cross margin and isolated margin of one
 * account, and margin to margin between a master and its sub-account. What leaves a
 * margin account is bounded by the margin level it leaves behind. FUTURES with USDT is
 * the USDT-M wallet, with a coin-M margin coin (BTC) that coin's coin-M wallet.
 */
export class MarginTransfers {
  private readonly accounts: MarginAccounts;
  /** For FUTURES transfers (absent: FUTURES is refused). */
  private readonly futures: FuturesService | undefined;
  /** Transfers with a client id run once (the futures service's: one per process for both). */
  private readonly transferIds: WalletTransferIds;

  constructor(accounts: MarginAccounts, futures: FuturesService | undefined, transferIds: WalletTransferIds) {
    this.accounts = accounts;
    this.futures = futures;
    this.transferIds = transferIds;
  }

  /** With `clientTransferId`, made once however often it is sent (`WalletTransferIds`). */
  async transfer(accountId: number, body: WalletTransferBody): Promise<WalletTransferResult> {
    return this.transferIds.once(
      accountId,
      body.clientTransferId,
      (record) => this.transferNow(accountId, body, record),
      (stored) => ({ tranId: stored.tranId }),
    );
  }

  private async transferNow(
    accountId: number,
    body: WalletTransferBody,
    record: RecordTransfer | null,
  ): Promise<WalletTransferResult> {
    const accounts = this.accounts;
    const from = body.from as WalletValue;
    const to = body.to as WalletValue;
    const asset = body.asset;
    if (from === to) throw fail(MarginCode.TRANSFER_INVALID, "From and to are the same wallet", { from, to });
    if ((from === "FUTURES" || to === "FUTURES") && !isFuturesAsset(asset))
      throw fail(
        MarginCode.TRANSFER_INVALID,
        `The futures wallets carry ${FUTURES_MARGIN_COINS.join(", ")} only`,
        { asset },
      );
    if ((from === "FUTURES" || to === "FUTURES") && this.futures === undefined)
      throw fail(MarginCode.TRANSFER_INVALID, "Futures trading is not available", { from, to });
    const scopeOf = (wallet: WalletValue): Scope | null => {
      if (wallet === "CROSS_MARGIN") return accounts.scope(accountId, "cross");
      if (wallet === "ISOLATED_MARGIN") return accounts.scope(accountId, "isolated", body.symbol);
      return null;
    };
    const src = scopeOf(from);
    const dst = scopeOf(to);
    if (src !== null) accounts.checkAsset(src, asset);
    if (dst !== null) accounts.checkAsset(dst, asset);
    if (src === null && dst === null) {
      // SPOT <-> FUTURES is the futures module's own transfer; allowed here too for one wallet screen.
      if (from !== "FUTURES" && to !== "FUTURES")
        throw fail(MarginCode.TRANSFER_INVALID, "Not a transfer between wallets", { from, to });
    }
    const amount = accounts.amountOf(asset, body.amount);
    const spot = availableOf(accountId);
    const futures = this.futures;
    const tranId = await accounts.exec((tx, w) => {
      // Check the source before anything is posted (a throw after a post would still commit it).
      if (from === "SPOT") {
        const have = tx.ledger.balance(spot, asset);
        if (amount > have)
          throw fail(MarginCode.TRANSFER_EXCEEDS, "More than the spot balance", {
            max: maxAmount(asset, have).amount,
          });
      } else if (from === "FUTURES" && futures !== undefined) {
        const free = futures.engine.available(accountId, asset);
        const wallet = futures.engine.wallet(accountId, asset);
        let max = free;
        if (wallet < max) max = wallet;
        if (amount > max)
          throw fail(MarginCode.TRANSFER_EXCEEDS, "More than the futures wallet can spare", {
            max: maxAmount(asset, max > 0n ? max : 0n).amount,
          });
      } else if (src !== null) {
        const max = maxTransferOut(accounts.accountOf(src, tx.ledger), asset, accounts.prices());
        if (amount > max)
          throw fail(
            MarginCode.TRANSFER_EXCEEDS,
            "Moving that much out would take the margin level below 2",
            {
              max: maxAmount(asset, max).amount,
            },
          );
      }
      // Source -> spot (FUTURES through its own module, so its risk state follows). The
      // futures module keeps every wallet transfer's row: its id is the transfer's.
      const symbol = from === "ISOLATED_MARGIN" || to === "ISOLATED_MARGIN" ? (body.symbol ?? null) : null;
      let id: number | null = null;
      if (from === "FUTURES" && futures !== undefined)
        id = futures.transferIn(
          tx,
          accountId,
          "OUT",
          amount,
          { wallet: to, symbol: symbol ?? undefined },
          asset,
        );
      else if (src !== null)
        accounts.post(tx, walletTransferEntry(walletOf(src).available, spot, asset, amount), accountId);
      // Spot -> destination.
      if (to === "FUTURES" && futures !== undefined)
        id = futures.transferIn(
          tx,
          accountId,
          "IN",
          amount,
          { wallet: from, symbol: symbol ?? undefined },
          asset,
        );
      else if (dst !== null)
        accounts.post(tx, walletTransferEntry(spot, walletOf(dst).available, asset, amount), accountId);
      let recordId = 0;
      if (src !== null) recordId = accounts.record(w, src, "TRANSFER_OUT", asset, amount);
      if (dst !== null) {
        recordId = accounts.record(w, dst, "TRANSFER_IN", asset, amount);
        accounts.openIsolated(dst, w);
      }
      // Without futures (a margin-only server) the margin record's id stands in.
      if (id === null)
        id =
          futures === undefined
            ? recordId
            : futures.recordTransfer(tx, { accountId, from, to, symbol, asset, amount });
      record?.(tx, { tranId: id, from, to, asset, amount });
      return id;
    });
    return { tranId };
  }

  /**
   * Margin account to margin account of the same kind (cross, or the same isolated pair)
   * between a master and its sub-account, within what the source may move out at its
   * margin level; `record` adds the caller's rows to the same commit.
   */
  async subTransfer(
    from: number,
    to: number,
    m: { mode: MarginAccountModeValue; symbol?: string; asset: string; amount: string },
    record: (tx: LedgerTx) => void,
  ): Promise<bigint> {
    const accounts = this.accounts;
    const src = accounts.scope(from, m.mode, m.symbol);
    const dst = accounts.scope(to, m.mode, m.symbol);
    accounts.checkAsset(src, m.asset);
    const amount = accounts.amountOf(m.asset, m.amount);
    await accounts.exec((tx, w) => {
      const max = maxTransferOut(accounts.accountOf(src, tx.ledger), m.asset, accounts.prices());
      if (amount > max)
        throw fail(MarginCode.TRANSFER_EXCEEDS, "Moving that much out would take the margin level below 2", {
          max: maxAmount(m.asset, max > 0n ? max : 0n).amount,
        });
      accounts.post(
        tx,
        subTransferEntry(walletOf(src).available, walletOf(dst).available, m.asset, amount),
        from,
      );
      accounts.record(w, src, "TRANSFER_OUT", m.asset, amount);
      accounts.record(w, dst, "TRANSFER_IN", m.asset, amount);
      accounts.openIsolated(dst, w);
      record(tx);
    });
    return amount;
  }
}

/** USDT (the USDT-M wallet) or a coin-M margin coin (its coin-M wallet). */
function isFuturesAsset(asset: string): boolean {
  return (FUTURES_MARGIN_COINS as readonly string[]).includes(asset);
}
