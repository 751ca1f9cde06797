import type { AnyPerpContract } from "./coin-contracts.ts";
import { costScaleOf, type RiskBracket } from "./contracts.ts";
import { PPM } from "./scales.ts";

/** One position of the contract whose liquidation price is asked (hedge mode may have two). */
export interface PriceLeg {
  /** +1 long, -1 short. */
  readonly side: 1 | -1;
  /** Size in lots (> 0). */
  readonly lots: number;
  /** Entry value, the position's `cost` (USDT-M: minor units; coin-M: in `costScale` units). */
  readonly cost: bigint;
}

export interface LiquidationPriceInput {
  readonly contract: AnyPerpContract;
  readonly legs: readonly PriceLeg[];
  /** Isolated: the position's isolated margin. Cross: the cross wallet balance. */
  readonly walletBalance: bigint;
  /** Cross: maintenance margin of every other cross position (TMM1), held constant. 0 for isolated. */
  readonly otherMaintenance?: bigint;
  /** Cross: unrealised PnL of every other cross position (UPNL1), held constant. 0 for isolated. */
  readonly otherUnrealised?: bigint;
  /** Current mark, ticks: of several roots the one nearest the mark is the liquidation price. */
  readonly markTicks: number;
}

interface Rational {
  readonly n: bigint;
  readonly d: bigint;
}

const lt = (a: Rational, b: Rational): boolean => a.n * b.d < b.n * a.d;

/**
 * Binance's liquidation price, exact, as a rational number of ticks (null when no price
 * above zero liquidates). With W the wallet (isolated margin, or cross wallet balance),
 * TMM1/UPNL1 the other cross positions' maintenance and PnL, and per leg side s, size Q,
 * entry notional C = Q x EP, bracket rate MMR and maintenance amount cum:
 *
 *   LP = (W - TMM1 + UPNL1 + sum cum - sum s x C) / (sum Q x MMR - sum s x Q)
 *
 * i.e. the price where margin balance = maintenance margin. The bracket depends on the
 * notional at LP itself, so each notional segment between bracket edges is solved and the
 * root that falls inside its own segment is kept (Binance iterates the same way).
 * The maintenance margin is linear here (no per-position round-up), so the exact
 * liquidation can trigger up to a minor unit earlier than this price.
 *
 * Coin-M: a leg's value in coin is Q x V / P, linear in x = 1/P, and its PnL is
 * s x (C - Q x V x x): the same equation in x with the side turned over, solved in
 * `costScale` units; the root x gives P = 1/x.
 */
export function liquidationPriceExact(input: LiquidationPriceInput, bankruptcy = false): Rational | null {
  const { contract, legs } = input;
  const inverse = contract.family === "coin";
  const unit = costScaleOf(contract);
  const perLot = contract.family === "coin" ? contract.valuePerContract * unit : contract.minorPerTickLot;
  const base = (input.walletBalance - (input.otherMaintenance ?? 0n) + (input.otherUnrealised ?? 0n)) * unit;
  const live = legs.filter((l) => l.lots > 0);
  if (live.length === 0) return null;

  // Bracket edges: leg value Q x k x X crosses floor_b at X = floor_b / (Q x k), X the price (USDT-M) or 1/price (coin-M).
  const edges: Rational[] = [{ n: 0n, d: 1n }];
  if (!bankruptcy) {
    for (const l of live) {
      const qk = BigInt(l.lots) * perLot;
      for (const b of contract.brackets) if (b.floor > 0n) edges.push({ n: b.floor * unit, d: qk });
    }
  }
  edges.sort((a, b) => (lt(a, b) ? -1 : lt(b, a) ? 1 : 0));

  const mark: Rational = inverse
    ? { n: 1n, d: BigInt(input.markTicks) }
    : { n: BigInt(input.markTicks), d: 1n };
  let best: Rational | null = null;
  let bestDist: Rational | null = null;
  for (let i = 0; i < edges.length; i++) {
    const lo = edges[i] as Rational;
    const hi = edges[i + 1];
    if (hi !== undefined && !lt(lo, hi)) continue;
    // F(P) x 1e6 = A + B x P on this segment.
    let a = base * PPM;
    let b = 0n;
    for (const l of live) {
      const qk = BigInt(l.lots) * perLot;
      const s = inverse ? -BigInt(l.side) : BigInt(l.side);
      const br = bankruptcy ? null : bracketAt(contract.brackets, unit, qk, lo);
      const mmr = br === null ? 0n : BigInt(br.mmrPpm);
      const cum = br === null ? 0n : br.maintAmount * unit;
      a += -s * PPM * l.cost + PPM * cum;
      b += qk * (s * PPM - mmr);
    }
    if (b === 0n) continue;
    let root: Rational = { n: -a, d: b };
    if (root.d < 0n) root = { n: -root.n, d: -root.d };
    if (root.n <= 0n || lt(root, lo) || (hi !== undefined && !lt(root, hi))) continue;
    const diff = root.n * mark.d - mark.n * root.d;
    const dist: Rational = { n: diff < 0n ? -diff : diff, d: root.d };
    if (bestDist === null || lt(dist, bestDist)) {
      best = root;
      bestDist = dist;
    }
  }
  if (best === null || !inverse) return best;
  return { n: best.d, d: best.n };
}

/** The bracket a leg of `qk` (value per unit of X, in `unit`s) is in at `p` (floor <= value). */
function bracketAt(bs: readonly RiskBracket[], unit: bigint, qk: bigint, p: Rational): RiskBracket {
  let i = 0;
  while (i + 1 < bs.length && (bs[i + 1] as RiskBracket).floor * unit * p.d <= qk * p.n) i++;
  return bs[i] as RiskBracket;
}

/** A rational tick price rounded toward the mark: up below it (longs), down above it (shorts). */
function toTicks(r: Rational, markTicks: number): number {
  const below = r.n < BigInt(markTicks) * r.d;
  const t = below ? (r.n + r.d - 1n) / r.d : r.n / r.d;
  return Number(t);
}

/**
 * Liquidation price in ticks, rounded toward the mark (a long's up, a short's down), so
 * the mark reaches the displayed price no later than the position is liquidated; null
 * when none exists (e.g. a 1x long: W >= C).
 *
 * Isolated long 1 BTC at 50,000, 20x (margin 2,500): bracket 1 (0.4 %, cum 0),
 * LP = (2,500 + 0 - 50,000) / (0.004 - 1) = 47,690.7630... -> 47,690.8.
 */
export function liquidationPrice(input: LiquidationPriceInput): number | null {
  const r = liquidationPriceExact(input);
  if (r === null) return null;
  const t = toTicks(r, input.markTicks);
  return t > 0 ? t : null;
}

/**
 * Bankruptcy price in ticks (margin balance = 0: the same formula with no maintenance),
 * rounded toward the mark; null when none above zero. Isolated long 1 BTC at 50,000 with
 * 2,500 margin: (50,000 - 2,500) / 1 = 47,500.
 */
export function bankruptcyPrice(input: LiquidationPriceInput): number | null {
  const r = liquidationPriceExact(input, true);
  if (r === null) return null;
  const t = toTicks(r, input.markTicks);
  return t > 0 ? t : null;
}
