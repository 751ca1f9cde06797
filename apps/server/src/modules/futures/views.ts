import {
  type FuturesAccount,
  FuturesCode,
  type FuturesMark,
  type FuturesPosition,
  type FuturesSettings,
  type InsuranceFund,
  type MarginAdjustType,
  type PositionMarginInfo,
  type PositionSideValue,
} from "@meridian/contracts";
import {
  ALL_PERP_CONTRACTS,
  adjustIsolatedMargin,
  anyPerpContract,
  COIN_MARGIN_ASSETS,
  DerivativesAccount,
  formatScaled,
  fromMinor,
  nextFundingTime,
  type PerpFamily,
  requireAnyPerp,
  toMinor,
  USDT,
} from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import type { LedgerWriter } from "../ledger/index.ts";
import type { FuturesEngine } from "./engine.ts";
import type { MarkBoard } from "./marks.ts";
import { presentAccount, presentMarginInfo, presentMarks, presentOrder, presentPosition } from "./present.ts";

/** A perpetual of either family by symbol, or the UNKNOWN_SYMBOL refusal ("Unknown perpetual"). */
export function perpContractOf(symbol: string) {
  const c = anyPerpContract(symbol);
  if (c === undefined) throw new AppError(FuturesCode.UNKNOWN_SYMBOL, "Unknown perpetual", { status: 200 });
  return c;
}

export interface FuturesViewsOptions {
  engine: FuturesEngine;
  marks: MarkBoard;
  ledger: LedgerWriter;
  now: () => number;
  fundingIntervalMs: number;
}

/**
 * What the engine's memory shows: an account's settings, wallet and positions with
 * their TP/SL, the adjust-margin dialog's figures, the marks and the next funding, and
 * the insurance fund. The service's answers and its stream after each commit use them.
 */
export class FuturesViews {
  private readonly engine: FuturesEngine;
  private readonly marks: MarkBoard;
  private readonly ledger: LedgerWriter;
  private readonly now: () => number;
  private readonly fundingIntervalMs: number;

  constructor(o: FuturesViewsOptions) {
    this.engine = o.engine;
    this.marks = o.marks;
    this.ledger = o.ledger;
    this.now = o.now;
    this.fundingIntervalMs = o.fundingIntervalMs;
  }

  settings(accountId: number, symbol: string): FuturesSettings {
    const c = perpContractOf(symbol);
    const s = this.engine.settingOf(accountId, c.symbol);
    return {
      symbol: c.symbol,
      leverage: s.leverage,
      maxLeverage: c.maxLeverage,
      marginMode: s.marginMode,
      dualSidePosition: this.engine.isDual(accountId),
      ...this.engine.feeRates(accountId),
    };
  }

  /** The account's settings on every perpetual (one call: the bot API presents orders of any symbol). */
  settingsAll(accountId: number): FuturesSettings[] {
    return ALL_PERP_CONTRACTS.map((c) => this.settings(accountId, c.symbol));
  }

  /** One futures wallet: the USDT-M one, or a coin's coin-M one. */
  account(accountId: number, asset: string = USDT): FuturesAccount {
    return presentAccount({
      asset,
      wallet: this.engine.wallet(accountId, asset),
      positions: this.engine.positionsOf(accountId, asset),
      marks: this.marks.marks(),
      available: this.engine.available(accountId, asset),
      dual: this.engine.isDual(accountId),
    });
  }

  /** Every futures wallet of the account (USDT-M first, then one per coin), or one family's. */
  wallets(accountId: number, family?: PerpFamily): FuturesAccount[] {
    const assets = [...(family === "coin" ? [] : [USDT]), ...(family === "usdt" ? [] : COIN_MARGIN_ASSETS)];
    return assets.map((asset) => this.account(accountId, asset));
  }

  /**
   * The coin-M wallets the account uses: money in it, or a position or open order on its
   * coin's contracts (what `/v1/ws/futures` pushes beside the USDT-M wallet).
   */
  coinWalletsInUse(accountId: number): FuturesAccount[] {
    const held = new Set<string>();
    for (const p of this.engine.positionsOf(accountId))
      if (p.position.lots !== 0) held.add(requireAnyPerp(p.position.symbol).marginAsset);
    for (const o of this.engine.openOrdersOf(accountId)) held.add(requireAnyPerp(o.symbol).marginAsset);
    return COIN_MARGIN_ASSETS.filter((a) => held.has(a) || this.engine.wallet(accountId, a) !== 0n).map((a) =>
      this.account(accountId, a),
    );
  }

  positions(accountId: number, family?: PerpFamily): FuturesPosition[] {
    const all = this.engine.positionsOf(accountId);
    const marks = this.marks.marks();
    const orders = this.engine.openOrdersOf(accountId);
    return all
      .filter(
        (p) =>
          p.position.lots !== 0 &&
          (family === undefined || requireAnyPerp(p.position.symbol).family === family),
      )
      .map((p) => {
        const wallet = this.engine.wallet(accountId, requireAnyPerp(p.position.symbol).marginAsset);
        const mine = orders.filter(
          (o) =>
            o.symbol === p.position.symbol && o.positionSide === p.position.positionSide && o.closePosition,
        );
        const tp = mine.find((o) => o.type === "TAKE_PROFIT_MARKET");
        const sl = mine.find((o) => o.type === "STOP_MARKET");
        return presentPosition(p, wallet, all, marks, {
          takeProfit: tp === undefined ? null : presentOrder(tp).stopPrice,
          stopLoss: sl === undefined ? null : presentOrder(sl).stopPrice,
        });
      });
  }

  /** The adjust-margin dialog's figures; with a type and amount, the position as it would be after. */
  marginInfo(
    accountId: number,
    q: {
      symbol: string;
      positionSide: PositionSideValue;
      type?: MarginAdjustType | undefined;
      amount?: string | undefined;
    },
  ): PositionMarginInfo {
    const b = this.engine.marginBounds(accountId, q.symbol, q.positionSide);
    let after = null;
    const asset = requireAnyPerp(b.position.symbol).marginAsset;
    const minor = q.amount === undefined ? null : toMinor(asset, q.amount);
    if (q.type !== undefined && minor !== null && minor > 0n) {
      const within = q.type === "ADD" ? minor <= b.maxAdd : minor <= b.maxRemove;
      const r = adjustIsolatedMargin(
        perpContractOf(b.position.symbol),
        b.position,
        q.type === "ADD" ? "add" : "reduce",
        minor,
        b.mark,
      );
      if (within && r.ok) after = r.value.position;
    }
    return presentMarginInfo(b.position, b.mark, b.maxAdd, b.maxRemove, after);
  }

  nextFunding(): number {
    return nextFundingTime(this.now(), this.fundingIntervalMs);
  }

  marksList(family?: PerpFamily): FuturesMark[] {
    return presentMarks(
      (c) => this.marks.markOf(c),
      (c) => this.marks.indexOf(c),
      (c) => this.marks.rateOf(c, this.fundingIntervalMs),
      this.nextFunding(),
      family,
    );
  }

  /**
   * Open interest: the size held in open positions on the perpetual, over every paper
   * account and both sides (the other side of a paper position is the venue's book).
   */
  openInterest(symbol: string): { symbol: string; size: string; time: number } {
    const c = perpContractOf(symbol);
    const lots = this.engine.openLots(c.symbol);
    return {
      symbol: c.symbol,
      size: formatScaled(lots * c.instrument.lotUnits, c.instrument.qtyDecimals),
      time: this.now(),
    };
  }

  /** The insurance fund of one margin asset (USDT, or a coin: each coin-M coin has its own). */
  insuranceFund(asset: string = USDT): InsuranceFund {
    return {
      asset,
      balance: fromMinor(asset, this.ledger.ledgerBalance(DerivativesAccount.Insurance, asset)),
      time: this.now(),
    };
  }
}
