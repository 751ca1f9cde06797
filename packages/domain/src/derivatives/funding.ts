import {
  EntryKind,
  type JournalEntry,
  mergePostings,
  type Posting,
  SystemAccount,
} from "../ledger/ledger.ts";
import { DerivativesAccount, futuresWalletOf, isolatedMarginOf } from "./accounts.ts";
import type { AnyPerpContract } from "./coin-contracts.ts";
import { valueAt } from "./contracts.ts";
import type { PerpPosition } from "./position.ts";
import { ceilDivSigned, clampBig, E8, PPM } from "./scales.ts";

// ---- mark price -----------------------------------------------------------------

/**
 * Mark price = index + damped basis. The basis (mid - index) is smoothed by an EMA with
 * weight `alphaNum / alphaDen` per update and clamped to +/- `clampPpm` of the index, so
 * one print far from the index cannot move the mark (and trigger liquidations) by itself.
 */
export interface MarkParams {
  readonly alphaNum: bigint;
  readonly alphaDen: bigint;
  readonly clampPpm: bigint;
}

/** About a 1-minute EMA at one update per second; basis at most 0.5 % of the index. */
export const DEFAULT_MARK_PARAMS: MarkParams = Object.freeze({
  alphaNum: 2n,
  alphaDen: 61n,
  clampPpm: 5_000n,
});

/** EMA state: the smoothed basis in millionths of a tick (so small bases are not lost to rounding). */
export interface MarkState {
  readonly basisMicroTicks: bigint;
}

export const INITIAL_MARK_STATE: MarkState = Object.freeze({ basisMicroTicks: 0n });

/**
 * One mark update: `ema += alpha x ((mid - index) - ema)` (increment truncated toward
 * zero), clamped, then mark = index + ema rounded half away from zero to a tick.
 * Index 50,000.0 (500,000 ticks), mid 50,010.0, alpha 2/61, from ema 0: ema = 100 x 2/61
 * = 3.2786 ticks, mark = 500,003 ticks (50,000.3).
 */
export function updateMark(
  state: MarkState,
  indexTicks: number,
  midTicks: number,
  params: MarkParams = DEFAULT_MARK_PARAMS,
): { state: MarkState; markTicks: number } {
  const basis = BigInt(midTicks - indexTicks) * PPM;
  const delta = ((basis - state.basisMicroTicks) * params.alphaNum) / params.alphaDen;
  const limit = BigInt(indexTicks) * params.clampPpm;
  const ema = clampBig(state.basisMicroTicks + delta, -limit, limit);
  const half = PPM / 2n;
  const rounded = ema >= 0n ? (ema + half) / PPM : -((-ema + half) / PPM);
  const mark = Number(BigInt(indexTicks) + rounded);
  return { state: { basisMicroTicks: ema }, markTicks: mark > 0 ? mark : 1 };
}

// ---- funding rate -----------------------------------------------------------------

/** Binance's +/- 0.05 % bound on (interest - premium). */
export const INTEREST_PREMIUM_CLAMP_E8 = 50_000n;
/** Binance settles funding every 8 h (00:00, 08:00, 16:00 UTC). */
export const FUNDING_INTERVAL_MS = 8 * 3_600_000;

/**
 * Premium index of one sample, 1e-8 units, truncated toward zero:
 * (max(0, impact bid - index) - max(0, index - impact ask)) / index.
 * Index 50,000, impact bid 50,010, impact ask 50,020: 10 / 50,000 = 0.0002 = 20,000.
 */
export function premiumIndexE8(indexTicks: number, impactBidTicks: number, impactAskTicks: number): bigint {
  const up = BigInt(Math.max(0, impactBidTicks - indexTicks));
  const down = BigInt(Math.max(0, indexTicks - impactAskTicks));
  return ((up - down) * E8) / BigInt(indexTicks);
}

/** Premium samples of the current interval (Binance samples every 5 s). */
export interface PremiumSamples {
  readonly count: number;
  /** sum of i x premium_i, i = 1..count. */
  readonly weighted: bigint;
}

export const NO_SAMPLES: PremiumSamples = Object.freeze({ count: 0, weighted: 0n });

export function addPremiumSample(s: PremiumSamples, premiumE8: bigint): PremiumSamples {
  const count = s.count + 1;
  return { count, weighted: s.weighted + BigInt(count) * premiumE8 };
}

/**
 * Time-weighted average premium (Binance: later samples weigh more, weight i for the
 * i-th): sum(i x p_i) / sum(i), truncated toward zero. Samples 10, 20, 60: (10 + 40 + 180) / 6 = 38.
 */
export function averagePremiumE8(s: PremiumSamples): bigint {
  if (s.count === 0) return 0n;
  const n = BigInt(s.count);
  return s.weighted / ((n * (n + 1n)) / 2n);
}

/**
 * Funding rate, 1e-8 units: clamp(P + clamp(I - P, +/-0.05 %), +/-cap).
 * P = 0.0300 %, I = 0.0100 %: I - P = -0.02 % (inside the clamp) so the rate is I = 0.01 %;
 * P = 0.2000 %, I = 0.01 %: I - P = -0.19 % clamps to -0.05 %, rate 0.15 % (inside BTC's 0.3 % cap).
 */
export function fundingRateE8(averagePremium: bigint, interestE8: bigint, capE8: bigint): bigint {
  const adj = clampBig(interestE8 - averagePremium, -INTEREST_PREMIUM_CLAMP_E8, INTEREST_PREMIUM_CLAMP_E8);
  return clampBig(averagePremium + adj, -capE8, capE8);
}

/** The contract's interest component scaled to a (demo) interval: 0.01 % per 8 h -> 0.00125 % per hour. */
export function interestForInterval(contract: AnyPerpContract, intervalMs: number): bigint {
  return (contract.interestE8 * BigInt(intervalMs)) / BigInt(FUNDING_INTERVAL_MS);
}

/** The next settlement time strictly after `nowMs`, on multiples of the interval since the epoch (00/08/16 UTC for 8 h). */
export function nextFundingTime(nowMs: number, intervalMs: number = FUNDING_INTERVAL_MS): number {
  return (Math.floor(nowMs / intervalMs) + 1) * intervalMs;
}

/**
 * What a position pays at settlement, in its margin asset's minor units: its value at the
 * mark (notional for USDT-M, value in coin for coin-M) x rate, positive when it pays.
 * Longs pay shorts when the rate is positive. The payer's amount is rounded up and the
 * receiver's down (the counterparty keeps the dust).
 * Long 2 BTC at mark 60,000, rate 0.01 %: 120,000 x 0.0001 = 12 USDT paid; the short receives 12.
 * Long 10 BTCUSD at mark 50,000, rate 0.01 %: 0.02 BTC x 0.0001 = 0.000002 BTC paid.
 */
export function fundingPayment(
  contract: AnyPerpContract,
  pos: PerpPosition,
  markTicks: number,
  rateE8: bigint,
): bigint {
  if (pos.lots === 0 || rateE8 === 0n) return 0n;
  const v = valueAt(contract, pos.lots, markTicks);
  const raw = v.num * rateE8 * BigInt(Math.sign(pos.lots));
  // Rounding up a signed amount is up for the payer and toward zero for the receiver.
  return ceilDivSigned(raw, E8 * v.den);
}

export interface FundingSettlement {
  readonly entry: JournalEntry | null;
  /** Per position (same order as the input): signed amount paid (+) or received (-). */
  readonly paid: readonly bigint[];
  /** What payers could not cover (their wallet or isolated margin was short), paid by the insurance fund. */
  readonly shortfall: bigint;
  /** The positions after settlement: isolated margin less what it paid, plus what it received. */
  readonly positions: readonly PerpPosition[];
}

/**
 * Settles one symbol's funding for every position: payments come out of the cross
 * wallet, or the isolated margin for isolated positions (as Binance), capped at what the
 * account holds; the counterparty (`system:maker`, the paper market's other side of the
 * open interest) takes the net and the insurance fund covers any cap.
 * `balances(p)` is the account balance the payment would come from.
 */
export function settleFunding(
  contract: AnyPerpContract,
  positions: readonly PerpPosition[],
  markTicks: number,
  rateE8: bigint,
  balances: (p: PerpPosition) => bigint,
): FundingSettlement {
  const asset = contract.marginAsset;
  const postings: Posting[] = [];
  const paid: bigint[] = [];
  let shortfall = 0n;
  let userNet = 0n;
  for (const p of positions) {
    const pay = p.symbol === contract.symbol ? fundingPayment(contract, p, markTicks, rateE8) : 0n;
    if (pay === 0n) {
      paid.push(0n);
      continue;
    }
    const account =
      p.marginMode === "isolated"
        ? isolatedMarginOf(p.accountId, p.symbol, p.positionSide)
        : futuresWalletOf(p.accountId);
    let amount = pay;
    if (pay > 0n) {
      const have = balances(p);
      const covered = have < 0n ? 0n : have < pay ? have : pay;
      shortfall += pay - covered;
      amount = covered;
    }
    paid.push(amount);
    userNet -= amount;
    if (amount !== 0n) postings.push({ account, asset, amount: -amount });
  }
  if (shortfall > 0n) postings.push({ account: DerivativesAccount.Insurance, asset, amount: -shortfall });
  postings.push({ account: SystemAccount.Maker, asset, amount: -(userNet - shortfall) });
  const merged = mergePostings(postings);
  const after = positions.map((p, i) => {
    const amount = paid[i] ?? 0n;
    return p.marginMode === "isolated" && amount !== 0n
      ? { ...p, isolatedMargin: p.isolatedMargin - amount }
      : p;
  });
  return {
    entry: merged.length === 0 ? null : { kind: EntryKind.Funding, postings: merged },
    paid,
    shortfall,
    positions: after,
  };
}
