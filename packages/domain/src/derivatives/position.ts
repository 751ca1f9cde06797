import {
  EntryKind,
  type JournalEntry,
  mergePostings,
  type Posting,
  SystemAccount,
} from "../ledger/ledger.ts";
import { futuresWalletOf, isolatedMarginOf, type PositionSide } from "./accounts.ts";
import { type AnyPerpContract, requireAnyPerp } from "./coin-contracts.ts";
import {
  costScaleOf,
  gainSign,
  initialMargin,
  maintenanceMargin,
  maxLeverageFor,
  notionalAt,
  valueAt,
} from "./contracts.ts";
import { floorDiv, PPM } from "./scales.ts";

export type MarginMode = "cross" | "isolated";

/**
 * One perpetual position. One-way mode keeps a single `BOTH` position per symbol whose
 * sign is its direction; hedge mode keeps a `LONG` (lots >= 0) and a `SHORT` (lots <= 0).
 *
 * The entry price is not stored: `cost` is the entry value of the open size, and costs
 * add on increase. USDT-M: the exact entry notional, entry price = cost / size; buying
 * 0.010 BTC at 60,000 then 0.030 at 64,000 gives cost 600 + 1,920 = 2,520 USDT for
 * 0.040 BTC: entry 63,000. Coin-M: the entry value in coin (in `costScale` units), entry
 * price = contracts x contract value / cost, the harmonic mean of the fill prices; 10
 * BTCUSD at 50,000 then 10 at 60,000: 0.02 + 0.01666... BTC, entry 54,545.45.
 */
export interface PerpPosition {
  readonly accountId: number;
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly marginMode: MarginMode;
  readonly leverage: number;
  /** Signed size in lots: positive long, negative short, zero flat. */
  readonly lots: number;
  /** Entry value of the open size (>= 0; 0 when flat): margin-asset minor units x `costScaleOf`. */
  readonly cost: bigint;
  /** Isolated margin (margin-asset minor units) set aside for the position; 0 for cross. */
  readonly isolatedMargin: bigint;
}

export function flatPosition(p: {
  accountId: number;
  symbol: string;
  positionSide?: PositionSide;
  marginMode: MarginMode;
  leverage: number;
}): PerpPosition {
  return {
    accountId: p.accountId,
    symbol: p.symbol,
    positionSide: p.positionSide ?? "BOTH",
    marginMode: p.marginMode,
    leverage: p.leverage,
    lots: 0,
    cost: 0n,
    isolatedMargin: 0n,
  };
}

export const DerivativesCode = {
  INVALID_FILL: "FUT_INVALID_FILL",
  REDUCE_ONLY_REJECTED: "FUT_REDUCE_ONLY_REJECTED",
  CLOSE_EXCEEDS_POSITION: "FUT_CLOSE_EXCEEDS_POSITION",
  LEVERAGE_TOO_HIGH: "FUT_LEVERAGE_TOO_HIGH",
  MARGIN_INSUFFICIENT: "FUT_MARGIN_INSUFFICIENT",
  /** Isolated margin change on a cross or flat position. */
  NOT_ISOLATED: "FUT_NOT_ISOLATED",
  /** Taking more isolated margin than the position can spare (params: max). */
  MARGIN_REDUCE_EXCEEDS: "FUT_MARGIN_REDUCE_EXCEEDS",
  BORROW_EXCEEDS_MAX: "MARGIN_BORROW_EXCEEDS_MAX",
  REPAY_INVALID: "MARGIN_REPAY_INVALID",
  TRANSFER_BREAKS_LEVEL: "MARGIN_TRANSFER_BREAKS_LEVEL",
} as const;
export type DerivativesCode = (typeof DerivativesCode)[keyof typeof DerivativesCode];

/** A refusal as data; the service maps `code` at the edge. */
export interface DerivativesRefusal {
  readonly code: DerivativesCode;
  readonly params: Readonly<Record<string, string>>;
}
export type DerivativesResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: DerivativesRefusal };

export const refuse = <T>(
  code: DerivativesCode,
  params: Record<string, string> = {},
): DerivativesResult<T> => ({
  ok: false,
  error: { code, params },
});

/** An execution against a position (from the order book or the paper market maker). */
export interface PerpFill {
  readonly side: "buy" | "sell";
  readonly lots: number;
  readonly priceTicks: number;
  /** Maker or taker rate the fill pays, ppm of its notional (rounded up). */
  readonly feePpm: number;
  /** One-way mode: never increase or flip; a larger quantity is cut to the position size (Binance). */
  readonly reduceOnly?: boolean;
}

export interface FillOutcome {
  readonly position: PerpPosition;
  /** Lots of the fill that reduced the position, and that opened or increased it. */
  readonly closedLots: number;
  readonly openedLots: number;
  /** Realised PnL of the closed part, before the fee (margin-asset minor units, signed). */
  readonly realisedPnl: bigint;
  readonly fee: bigint;
  /** Isolated only: margin returned to the wallet from the closed part, and set aside for the opened part. */
  readonly marginReleased: bigint;
  readonly marginAdded: bigint;
  /**
   * The postings: wallet +pnl -fee (+released -added), isolated margin +added -released,
   * `system:maker` (the counterparty) -pnl, `system:fees` +fee. The ledger refuses it when
   * the wallet cannot pay a loss or margin: the fill must then be refused. Null when no
   * money moves (a fee-free cross open).
   */
  readonly entry: JournalEntry | null;
}

/** The fee of a fill: its value x the rate, rounded up. */
function fillFee(contract: AnyPerpContract, lots: number, ticks: number, feePpm: number): bigint {
  const v = valueAt(contract, lots, ticks);
  const den = v.den * PPM;
  return (v.num * BigInt(feePpm) + den - 1n) / den;
}

/** Rounds `num / den` (den > 0) up when `up`, else down. */
const divRound = (num: bigint, den: bigint, up: boolean): bigint =>
  up ? -floorDiv(-num, den) : floorDiv(num, den);

/**
 * Applies a fill. Realised PnL of closing `c` of `n` lots removes cost `C x c / n`,
 * rounded against the trader on a partial close and exactly `C` on the last lot.
 * USDT-M (up for a long, down for a short): a position's lifetime PnL is exact;
 * long 0.040 BTC cost 2,520 closed 0.010 at 65,000: removed 630, PnL 650 - 630 = +20 USDT.
 * Coin-M (down for a long, up for a short): PnL = removed - value of the closed contracts
 * for a long (the opposite for a short), rounded down to the minor unit; an opened
 * part's value is rounded the same way against the trader (`gainSign`).
 * Isolated margin released is `M x c / n` rounded down (all of it on a full close).
 */
export function applyFill(
  contract: AnyPerpContract,
  pos: PerpPosition,
  fill: PerpFill,
): DerivativesResult<FillOutcome> {
  if (
    !Number.isSafeInteger(fill.lots) ||
    fill.lots <= 0 ||
    !Number.isSafeInteger(fill.priceTicks) ||
    fill.priceTicks <= 0
  ) {
    return refuse(DerivativesCode.INVALID_FILL);
  }
  const dir = fill.side === "buy" ? 1 : -1;
  const size = Math.abs(pos.lots);
  let closing = 0;
  let opening = 0;
  if (pos.positionSide === "BOTH") {
    if (pos.lots === 0 || Math.sign(pos.lots) === dir) {
      if (fill.reduceOnly) return refuse(DerivativesCode.REDUCE_ONLY_REJECTED);
      opening = fill.lots;
    } else {
      closing = Math.min(size, fill.lots);
      opening = fill.reduceOnly ? 0 : fill.lots - closing;
    }
  } else {
    const opens = (pos.positionSide === "LONG") === (dir === 1);
    if (opens) {
      if (fill.reduceOnly) return refuse(DerivativesCode.REDUCE_ONLY_REJECTED);
      opening = fill.lots;
    } else {
      if (fill.lots > size) return refuse(DerivativesCode.CLOSE_EXCEEDS_POSITION, { size: String(size) });
      closing = fill.lots;
    }
  }

  const scale = costScaleOf(contract);
  let cost = pos.cost;
  let margin = pos.isolatedMargin;
  let lots = pos.lots;
  let pnl = 0n;
  let released = 0n;
  if (closing > 0) {
    const c = BigInt(closing);
    const n = BigInt(size);
    const long = pos.lots > 0;
    const gain = gainSign(contract, long);
    const removed = closing === size ? cost : divRound(cost * c, n, gain > 0n);
    const v = valueAt(contract, closing, fill.priceTicks);
    pnl = floorDiv(gain * (v.num * scale - removed * v.den), v.den * scale);
    released = closing === size ? margin : (margin * c) / n;
    cost -= removed;
    margin -= released;
    lots += long ? -closing : closing;
  }
  let added = 0n;
  if (opening > 0) {
    const v = valueAt(contract, opening, fill.priceTicks);
    const newLots = lots + dir * opening;
    const notionalAfter = notionalAt(contract, newLots, fill.priceTicks);
    if (pos.leverage > maxLeverageFor(contract, notionalAfter)) {
      return refuse(DerivativesCode.LEVERAGE_TOO_HIGH, {
        leverage: String(pos.leverage),
        max: String(maxLeverageFor(contract, notionalAfter)),
      });
    }
    cost += divRound(v.num * scale, v.den, gainSign(contract, dir === 1) > 0n);
    lots = newLots;
    if (pos.marginMode === "isolated")
      added = initialMargin(notionalAt(contract, opening, fill.priceTicks), pos.leverage);
    margin += added;
  }
  const fee = fillFee(contract, closing + opening, fill.priceTicks, fill.feePpm);
  const position: PerpPosition = {
    ...pos,
    lots,
    cost,
    isolatedMargin: pos.marginMode === "isolated" ? margin : 0n,
  };
  const wallet = futuresWalletOf(pos.accountId);
  const asset = contract.marginAsset;
  const postings: Posting[] = [
    { account: wallet, asset, amount: pnl - fee + released - added },
    { account: SystemAccount.Maker, asset, amount: -pnl },
    { account: SystemAccount.Fees, asset, amount: fee },
  ];
  if (pos.marginMode === "isolated") {
    postings.push({
      account: isolatedMarginOf(pos.accountId, pos.symbol, pos.positionSide),
      asset,
      amount: added - released,
    });
  }
  const merged = mergePostings(postings);
  return {
    ok: true,
    value: {
      position,
      closedLots: closing,
      openedLots: opening,
      realisedPnl: pnl,
      fee,
      marginReleased: released,
      marginAdded: added,
      entry: merged.length === 0 ? null : { kind: EntryKind.FuturesTrade, postings: merged },
    },
  };
}

/** +1 long, -1 short, 0 flat. */
export const directionOf = (pos: PerpPosition): number => Math.sign(pos.lots);

/**
 * Unrealised PnL at the mark, margin-asset minor units. USDT-M, exact: long
 * `size x mark - cost`, short `cost - size x mark`. Coin-M, rounded down: long
 * `cost - contracts x cv / mark` = contracts x cv x (1/entry - 1/mark), short the opposite.
 */
export function unrealisedPnl(contract: AnyPerpContract, pos: PerpPosition, markTicks: number): bigint {
  if (pos.lots === 0) return 0n;
  const v = valueAt(contract, pos.lots, markTicks);
  const scale = costScaleOf(contract);
  return floorDiv(gainSign(contract, pos.lots > 0) * (v.num * scale - pos.cost * v.den), v.den * scale);
}

/** The entry value in minor units of the margin asset, rounded up (what margins of it are owed on). */
export function entryValue(contract: AnyPerpContract, pos: PerpPosition): bigint {
  const scale = costScaleOf(contract);
  return (pos.cost + scale - 1n) / scale;
}

/** Maintenance margin of the position at the mark (bracket of its notional at the mark). */
export function positionMaintenance(contract: AnyPerpContract, pos: PerpPosition, markTicks: number): bigint {
  return pos.lots === 0 ? 0n : maintenanceMargin(contract, notionalAt(contract, pos.lots, markTicks));
}

/** Initial margin at the mark (Binance's position "Margin" for cross): notional / leverage, rounded up. */
export function positionInitialMargin(
  contract: AnyPerpContract,
  pos: PerpPosition,
  markTicks: number,
): bigint {
  return initialMargin(notionalAt(contract, pos.lots, markTicks), pos.leverage);
}

/**
 * ROE in ppm of the entry margin (Binance: unrealised PnL / (entry notional / leverage)),
 * truncated toward zero. Long 0.1 BTC at 50,000, 10x (entry margin 500), mark 51,000:
 * PnL 100, ROE 20 % = 200,000 ppm.
 */
export function roePpm(contract: AnyPerpContract, pos: PerpPosition, markTicks: number): bigint {
  if (pos.lots === 0) return 0n;
  const entryMargin = initialMargin(entryValue(contract, pos), pos.leverage);
  return entryMargin === 0n ? 0n : (unrealisedPnl(contract, pos, markTicks) * PPM) / entryMargin;
}

/**
 * Entry price in ticks as the exact fraction `num / den` (a non-flat position):
 * USDT-M cost / (size x minor units per tick and lot); coin-M contracts x value per
 * contract x cost scale / cost, the harmonic mean of the fills.
 */
function entryTicksExact(contract: AnyPerpContract, pos: PerpPosition): { num: bigint; den: bigint } {
  const n = BigInt(Math.abs(pos.lots));
  if (contract.family === "coin") {
    return { num: n * contract.valuePerContract * contract.costScale, den: pos.cost > 0n ? pos.cost : 1n };
  }
  return { num: pos.cost, den: n * contract.minorPerTickLot };
}

/**
 * Entry price in whole ticks, rounded half up and at least 1 (0 for a flat position), in
 * bigint. The stand-in for a mark before the first one arrives.
 */
export function entryTicks(contract: AnyPerpContract, pos: PerpPosition): number {
  if (pos.lots === 0) return 0;
  const { num, den } = entryTicksExact(contract, pos);
  const ticks = (2n * num + den) / (2n * den);
  return ticks < 1n ? 1 : Number(ticks);
}

/**
 * Entry price as a decimal string with `decimals` fraction digits, rounded half up:
 * cost / size. 0.040 BTC with cost 2,520 USDT -> "63000.000".
 */
export function entryPrice(
  contract: AnyPerpContract,
  pos: PerpPosition,
  decimals = contract.instrument.priceDecimals + 2,
): string {
  if (pos.lots === 0) return "0";
  const spec = contract.instrument;
  // A tick is tickUnits / 10^priceDecimals.
  const exact = entryTicksExact(contract, pos);
  const num = exact.num * spec.tickUnits * 10n ** BigInt(decimals);
  const den = exact.den * 10n ** BigInt(spec.priceDecimals);
  const scaled = (2n * num + den) / (2n * den);
  const s = scaled.toString().padStart(decimals + 1, "0");
  return decimals === 0 ? s : `${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}`;
}

/**
 * Margin ratio in ppm: maintenance margin / margin balance, rounded up; null when the
 * margin balance is zero or negative (past 100 %: liquidation). Isolated margin 500,
 * PnL -300, maintenance 40: 40 / 200 = 20 % = 200,000 ppm.
 */
export function marginRatioPpm(maintenance: bigint, marginBalance: bigint): bigint | null {
  if (marginBalance <= 0n) return null;
  return (maintenance * PPM + marginBalance - 1n) / marginBalance;
}

/** The liquidation rule: margin balance <= maintenance margin (margin ratio >= 100 %). */
export const isBreached = (marginBalance: bigint, maintenance: bigint): boolean =>
  marginBalance <= maintenance;

/** Isolated position at the mark: margin balance = isolated margin + unrealised PnL. */
export function isolatedStatus(
  contract: AnyPerpContract,
  pos: PerpPosition,
  markTicks: number,
): { marginBalance: bigint; maintenance: bigint; breached: boolean } {
  const marginBalance = pos.isolatedMargin + unrealisedPnl(contract, pos, markTicks);
  const maintenance = positionMaintenance(contract, pos, markTicks);
  return { marginBalance, maintenance, breached: pos.lots !== 0 && isBreached(marginBalance, maintenance) };
}

/** Mark prices by symbol, in ticks. */
export type Marks = ReadonlyMap<string, number>;

export interface CrossSummary {
  readonly unrealised: bigint;
  readonly maintenance: bigint;
  readonly initial: bigint;
  /** Cross wallet + unrealised PnL of the cross positions. */
  readonly marginBalance: bigint;
  /** Margin balance - initial margin of the cross positions (what a new cross order may use). */
  readonly available: bigint;
  readonly marginRatioPpm: bigint | null;
  /** Holds cross positions and margin balance <= maintenance. */
  readonly breached: boolean;
}

/**
 * The cross account: every cross position shares the cross wallet. Positions without a
 * mark are valued at their entry (no PnL). The positions must all be margined in the
 * wallet's asset (USDT-M with the USDT wallet, one coin's coin-M with that coin's).
 */
export function crossSummary(wallet: bigint, positions: readonly PerpPosition[], marks: Marks): CrossSummary {
  let unrealised = 0n;
  let maintenance = 0n;
  let initial = 0n;
  let open = false;
  for (const p of positions) {
    if (p.marginMode !== "cross" || p.lots === 0) continue;
    open = true;
    const c = requireAnyPerp(p.symbol);
    const mark = marks.get(p.symbol);
    if (mark === undefined) {
      maintenance += maintenanceMargin(c, entryValue(c, p));
      initial += initialMargin(entryValue(c, p), p.leverage);
      continue;
    }
    unrealised += unrealisedPnl(c, p, mark);
    maintenance += positionMaintenance(c, p, mark);
    initial += positionInitialMargin(c, p, mark);
  }
  const marginBalance = wallet + unrealised;
  return {
    unrealised,
    maintenance,
    initial,
    marginBalance,
    available: marginBalance - initial,
    marginRatioPpm: open ? marginRatioPpm(maintenance, marginBalance) : 0n,
    breached: open && isBreached(marginBalance, maintenance),
  };
}
