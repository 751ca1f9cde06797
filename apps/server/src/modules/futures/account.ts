import { FuturesCode, type PositionSideValue } from "@meridian/contracts";
import {
  adjustIsolatedMargin,
  availableOf,
  crossSummary,
  entryTicks,
  fromMinor,
  futuresWalletOf,
  type MarginMode,
  maxRemovableMargin,
  minBig,
  type PerpPosition,
  requireAnyPerp,
  subTransferEntry,
  USDT,
  walletTransferEntry,
} from "@meridian/domain";
import type { StoredPosition } from "./repo.ts";
import { contractOf, type EngineState, fail, refusalCode } from "./state.ts";

/**
 * What moves an account's futures money outside trading, and its settings: transfers
 * in and out of the futures wallet (and between a master and its sub-account), an
 * isolated position's margin, leverage, margin mode and position mode (locked while the
 * account has a position or an open order on them).
 */
export class FuturesAccount {
  private readonly state: EngineState;

  constructor(state: EngineState) {
    this.state = state;
  }

  /**
   * Moves `amount` of `asset` between a futures wallet (USDT: the USDT-M one; a coin: its
   * coin-M one) and spot; `other` names the wallet the money comes from or goes to through
   * spot (margin's transfers). Answers the transfer's id.
   */
  transfer(
    accountId: number,
    direction: "IN" | "OUT",
    amount: bigint,
    other: { wallet: string; symbol?: string | undefined } = { wallet: "SPOT" },
    asset: string = USDT,
  ): number {
    const state = this.state;
    if (direction === "OUT") {
      const max = state.available(accountId, asset);
      if (amount > max || amount > state.wallet(accountId, asset))
        throw fail(FuturesCode.TRANSFER_EXCEEDS, "Transfer exceeds what the futures wallet can spare", {
          max: max.toString(),
          asset,
        });
    }
    const spot = availableOf(accountId);
    const fut = futuresWalletOf(accountId);
    const entry =
      direction === "IN"
        ? walletTransferEntry(spot, fut, asset, amount)
        : walletTransferEntry(fut, spot, asset, amount);
    const r = state.post(entry, accountId, null);
    if (r !== null) throw fail(FuturesCode.TRANSFER_EXCEEDS, "Not enough balance to transfer", { asset });
    state.syncWallet(accountId);
    // The asset tells the coin-M wallets from the USDT-M one.
    const [from, to] = direction === "IN" ? [other.wallet, "FUTURES"] : ["FUTURES", other.wallet];
    return state.saveTransfer({ accountId, from, to, symbol: other.symbol ?? null, asset, amount });
  }

  /**
   * Futures wallet to futures wallet of the same margin asset (a master and its
   * sub-account: USDT-M to USDT-M, or one coin's coin-M to the same coin's), within what
   * the source can spare.
   */
  subTransfer(from: number, to: number, amount: bigint, asset: string = USDT): void {
    const state = this.state;
    const max = minBig(state.available(from, asset), state.wallet(from, asset));
    if (amount > max)
      // A decimal of the asset, as the sub-account transfer's other wallets answer it.
      throw fail(FuturesCode.TRANSFER_EXCEEDS, "Transfer exceeds what the futures wallet can spare", {
        max: fromMinor(asset, max > 0n ? max : 0n),
        asset,
      });
    const r = state.post(
      subTransferEntry(futuresWalletOf(from), futuresWalletOf(to), asset, amount),
      from,
      null,
    );
    if (r !== null) throw fail(FuturesCode.TRANSFER_EXCEEDS, "Not enough balance to transfer", { asset });
    state.syncWallet(from);
    state.syncWallet(to);
  }

  setLeverage(accountId: number, symbol: string, leverage: number): void {
    const c = contractOf(symbol);
    const asset = c.marginAsset;
    if (leverage > c.maxLeverage)
      throw fail(FuturesCode.LEVERAGE_TOO_HIGH, "Leverage above the contract's maximum", {
        leverage,
        max: c.maxLeverage,
      });
    const state = this.state;
    const s = state.settingOf(accountId, symbol);
    const held = state
      .positionsOf(accountId)
      .filter((p) => p.position.symbol === c.symbol && p.position.lots !== 0);
    // Orders that set margin aside were sized at the old leverage, and an isolated
    // position's margin is its own: those keep the setting locked (Bitget's code for it).
    const reserving = [...state.open.values()].some(
      (o) =>
        o.accountId === accountId &&
        o.symbol === c.symbol &&
        o.type === "LIMIT" &&
        !o.reduceOnly &&
        !o.closePosition,
    );
    if (reserving || held.some((p) => p.position.marginMode !== "cross"))
      throw fail(FuturesCode.SETTING_LOCKED, "Close the isolated position and cancel open orders first");
    if (held.length > 0) {
      // Cross positions take the new leverage at once: their initial margin follows it, and
      // a change that leaves the account short of margin (available below zero, and lower
      // than before) is refused.
      const moved = held.map((p) => ({ ...p, position: { ...p.position, leverage } }));
      const others = state
        .positionsOf(accountId, asset)
        .filter((p) => !held.includes(p))
        .map((p) => p.position);
      const marks = state.marks.marks();
      const reserve = state.orderReserve(accountId, undefined, asset);
      const wallet = state.wallet(accountId, asset);
      const cross = (list: readonly StoredPosition[]) =>
        crossSummary(wallet, [...others, ...list.map((p) => p.position)], marks).available - reserve;
      const before = cross(held);
      const after = cross(moved);
      if (after < 0n && after < before)
        throw fail(FuturesCode.MARGIN_INSUFFICIENT, "Not enough available margin for that leverage", {
          leverage,
        });
      for (const p of moved) state.savePosition(p);
    }
    state.writeSetting(accountId, symbol, leverage, s.marginMode);
  }

  setMarginMode(accountId: number, symbol: string, marginMode: MarginMode): void {
    contractOf(symbol);
    if (this.state.locked(accountId, symbol))
      throw fail(FuturesCode.SETTING_LOCKED, "Close the position and cancel orders first");
    this.state.writeSetting(accountId, symbol, this.state.settingOf(accountId, symbol).leverage, marginMode);
  }

  setPositionMode(accountId: number, dual: boolean): void {
    if (this.state.locked(accountId))
      throw fail(FuturesCode.SETTING_LOCKED, "Close every position and cancel orders first");
    this.state.setDual(accountId, dual);
  }

  /** An open isolated position, its mark (entry when none yet) and how far its margin may move each way. */
  marginBounds(
    accountId: number,
    symbol: string,
    side: PositionSideValue,
  ): { position: PerpPosition; mark: number; maxAdd: bigint; maxRemove: bigint } {
    const state = this.state;
    const c = contractOf(symbol);
    const position = state.stored(accountId, c.symbol, side).position;
    if (position.marginMode !== "isolated" || position.lots === 0)
      throw fail(FuturesCode.NOT_ISOLATED, "No open isolated position on that side");
    const mark = state.marks.markOf(c) ?? Math.max(1, entryTicks(c, position));
    const spare = minBig(state.available(accountId, c.marginAsset), state.wallet(accountId, c.marginAsset));
    return {
      position,
      mark,
      maxAdd: spare > 0n ? spare : 0n,
      maxRemove: maxRemovableMargin(c, position, mark),
    };
  }

  /**
   * Binance's "Adjust Margin": moves USDT between the futures wallet and an isolated
   * position's margin. Adding takes at most the wallet's available margin (after open-order
   * reserves); reducing leaves at least the initial margin at the mark after any loss.
   */
  adjustMargin(
    accountId: number,
    symbol: string,
    side: PositionSideValue,
    direction: "ADD" | "REDUCE",
    amount: bigint,
  ): StoredPosition {
    const state = this.state;
    const b = this.marginBounds(accountId, symbol, side);
    const c = requireAnyPerp(b.position.symbol);
    if (direction === "ADD" && amount > b.maxAdd)
      throw fail(FuturesCode.MARGIN_INSUFFICIENT, "Not enough available margin to add", {
        max: fromMinor(c.marginAsset, b.maxAdd),
        asset: c.marginAsset,
      });
    const r = adjustIsolatedMargin(c, b.position, direction === "ADD" ? "add" : "reduce", amount, b.mark);
    if (!r.ok) {
      const max = r.error.params.max;
      throw fail(
        refusalCode[r.error.code] ?? FuturesCode.ORDER_INVALID,
        `Margin change refused: ${r.error.code}`,
        max === undefined ? undefined : { max: fromMinor(c.marginAsset, BigInt(max)) },
      );
    }
    const refused = state.post(r.value.entry, accountId, null);
    if (refused !== null)
      throw fail(FuturesCode.MARGIN_INSUFFICIENT, "Not enough balance for the margin change");
    const before = state.stored(accountId, c.symbol, side);
    const next = { position: r.value.position, realisedPnl: before.realisedPnl };
    state.savePosition(next);
    state.syncWallet(accountId);
    return next;
  }
}
