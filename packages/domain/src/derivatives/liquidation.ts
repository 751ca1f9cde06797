import {
  EntryKind,
  type JournalEntry,
  mergePostings,
  type Posting,
  SystemAccount,
} from "../ledger/ledger.ts";
import { DerivativesAccount, futuresWalletOf, isolatedMarginOf } from "./accounts.ts";
import { requireAnyPerp } from "./coin-contracts.ts";
import { bankruptcyPrice } from "./liquidation-price.ts";
import { crossSummary, isolatedStatus, type Marks, type PerpPosition, unrealisedPnl } from "./position.ts";
import { USDT } from "./scales.ts";

/** A position closed by the liquidation engine. */
export interface LiquidatedPosition {
  readonly position: PerpPosition;
  /** Where the engine's close filled (the mark at the pass: about the liquidation price). */
  readonly fillTicks: number;
  /** Where the trader's side was closed: margin balance zero (null when none above zero). */
  readonly bankruptcyTicks: number | null;
  /** PnL of the position at the fill price. */
  readonly pnlAtFill: bigint;
}

export interface LiquidationOutcome {
  readonly entry: JournalEntry | null;
  readonly closed: readonly LiquidatedPosition[];
  /**
   * Net to the insurance fund: (fill - bankruptcy) x size x side summed, i.e. the margin
   * balance left at the fill price. Negative when the fill was past bankruptcy and the
   * fund paid the loss beyond the trader's margin.
   */
  readonly insurance: bigint;
}

const pnlAt = (pos: PerpPosition, ticks: number): bigint =>
  unrealisedPnl(requireAnyPerp(pos.symbol), pos, ticks);

/** The asset a position is margined in (USDT, or a coin-M contract's coin). */
const assetOf = (pos: PerpPosition): string => requireAnyPerp(pos.symbol).marginAsset;

/**
 * Liquidates an isolated position: the trader loses exactly the isolated margin (closed
 * at bankruptcy), the engine's close at `fillTicks` settles with `system:maker`, and the
 * insurance fund takes the difference. Postings: isolated margin -M, maker -pnl(fill),
 * insurance M + pnl(fill).
 * Long 1 BTC at 50,000 with 2,500 margin filled at 47,690: pnl -2,310, the insurance fund
 * gets 190 (= (47,690 - 47,500) x 1).
 */
export function liquidateIsolated(pos: PerpPosition, fillTicks: number): LiquidationOutcome {
  const contract = requireAnyPerp(pos.symbol);
  const asset = contract.marginAsset;
  const pnl = pnlAt(pos, fillTicks);
  const margin = pos.isolatedMargin;
  const postings: Posting[] = [
    {
      account: isolatedMarginOf(pos.accountId, pos.symbol, pos.positionSide),
      asset,
      amount: -margin,
    },
    { account: SystemAccount.Maker, asset, amount: -pnl },
    { account: DerivativesAccount.Insurance, asset, amount: margin + pnl },
  ];
  const merged = mergePostings(postings);
  const side: 1 | -1 = pos.lots > 0 ? 1 : -1;
  return {
    entry: merged.length === 0 ? null : { kind: EntryKind.Liquidation, postings: merged },
    closed: [
      {
        position: pos,
        fillTicks,
        pnlAtFill: pnl,
        bankruptcyTicks: bankruptcyPrice({
          contract,
          legs: [{ side, lots: Math.abs(pos.lots), cost: pos.cost }],
          walletBalance: margin,
          markTicks: fillTicks,
        }),
      },
    ],
    insurance: margin + pnl,
  };
}

/**
 * Liquidates every cross position of an account margined in `asset` together (a full
 * liquidation; Binance may first reduce by tiers). That cross wallet `W` goes to zero:
 * postings wallet -W, maker -sum pnl(fill), insurance W + sum pnl(fill), all in `asset`
 * (each coin has its own insurance fund). Isolated positions are untouched.
 */
export function liquidateCross(
  accountId: number,
  wallet: bigint,
  positions: readonly PerpPosition[],
  fills: Marks,
  asset: string = USDT,
): LiquidationOutcome {
  const cross = positions.filter((p) => p.marginMode === "cross" && p.lots !== 0 && assetOf(p) === asset);
  const pnls = cross.map((p) => {
    const fill = fills.get(p.symbol);
    if (fill === undefined) throw new RangeError(`no fill price for ${p.symbol}`);
    return { p, fill, pnl: pnlAt(p, fill) };
  });
  const total = pnls.reduce((s, x) => s + x.pnl, 0n);
  const postings: Posting[] = [
    { account: futuresWalletOf(accountId), asset, amount: -wallet },
    { account: SystemAccount.Maker, asset, amount: -total },
    { account: DerivativesAccount.Insurance, asset, amount: wallet + total },
  ];
  const merged = mergePostings(postings);
  return {
    entry: merged.length === 0 ? null : { kind: EntryKind.Liquidation, postings: merged },
    closed: pnls.map(({ p, fill, pnl }) => ({
      position: p,
      fillTicks: fill,
      pnlAtFill: pnl,
      bankruptcyTicks: bankruptcyPrice({
        contract: requireAnyPerp(p.symbol),
        legs: [{ side: p.lots > 0 ? 1 : -1, lots: Math.abs(p.lots), cost: p.cost }],
        walletBalance: wallet + total - pnl,
        markTicks: fill,
      }),
    })),
    insurance: wallet + total,
  };
}

/** A trader's futures book as the liquidation engine sees it. */
export interface FuturesAccount {
  readonly accountId: number;
  /** The wallet's asset: USDT (default), or a coin for its coin-M wallet. */
  readonly asset?: string;
  /** Cross wallet balance (the ledger's `futuresWalletOf` balance in `asset`). */
  readonly wallet: bigint;
  /** Positions margined in `asset` (others are ignored). */
  readonly positions: readonly PerpPosition[];
}

export interface LiquidationDecision {
  readonly accountId: number;
  readonly asset: string;
  /** Isolated positions whose margin balance <= maintenance margin. */
  readonly isolated: readonly PerpPosition[];
  /** True when the cross margin balance <= the cross maintenance margin. */
  readonly cross: boolean;
}

/** Which positions the marks liquidate (exact, bigint); accounts with nothing to do are left out. */
export function decideLiquidations(accounts: readonly FuturesAccount[], marks: Marks): LiquidationDecision[] {
  const out: LiquidationDecision[] = [];
  for (const a of accounts) {
    const asset = a.asset ?? USDT;
    const mine = a.positions.filter((p) => assetOf(p) === asset);
    const isolated = mine.filter((p) => {
      const mark = marks.get(p.symbol);
      return (
        p.marginMode === "isolated" &&
        mark !== undefined &&
        isolatedStatus(requireAnyPerp(p.symbol), p, mark).breached
      );
    });
    const cross = crossSummary(a.wallet, mine, marks).breached;
    if (isolated.length > 0 || cross) out.push({ accountId: a.accountId, asset, isolated, cross });
  }
  return out;
}

/**
 * The liquidation engine: decides with `decideLiquidations`, then closes each breached
 * isolated position and each breached cross account at `fills` (default: the marks).
 * Every entry leaves the trader's accounts at zero, never below; the insurance fund
 * absorbs any loss past bankruptcy.
 */
export function runLiquidations(
  accounts: readonly FuturesAccount[],
  marks: Marks,
  fills: Marks = marks,
): { decisions: LiquidationDecision[]; outcomes: LiquidationOutcome[] } {
  const decisions = decideLiquidations(accounts, marks);
  const byKey = new Map(accounts.map((a) => [`${a.accountId}:${a.asset ?? USDT}`, a]));
  const outcomes: LiquidationOutcome[] = [];
  for (const d of decisions) {
    for (const p of d.isolated) {
      const fill = fills.get(p.symbol) ?? marks.get(p.symbol);
      if (fill !== undefined) outcomes.push(liquidateIsolated(p, fill));
    }
    const a = byKey.get(`${d.accountId}:${d.asset}`);
    if (d.cross && a !== undefined)
      outcomes.push(liquidateCross(a.accountId, a.wallet, a.positions, fills, d.asset));
  }
  return { decisions, outcomes };
}
