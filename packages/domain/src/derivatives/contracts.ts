import { defineInstrument, type InstrumentSpec } from "../instrument.ts";
import { asAsset, asSymbol } from "../units.ts";
import type { AnyPerpContract } from "./coin-contracts.ts";
import { E8, PPM, USDT, USDT_DECIMALS } from "./scales.ts";

/**
 * One risk-limit bracket of a perpetual (Binance "leverage bracket"): a position whose
 * notional `n` satisfies `floor <= n < cap` may use at most `maxLeverage` and keeps
 * maintenance margin `n x mmrPpm / 1e6 - maintAmount`.
 */
export interface RiskBracket {
  /** 1-based, as Binance numbers them. */
  readonly bracket: number;
  /** Notional floor, USDT minor units (inclusive). */
  readonly floor: bigint;
  /** Notional cap, USDT minor units (exclusive; the last bracket's cap is the position limit). */
  readonly cap: bigint;
  readonly maxLeverage: number;
  /** Maintenance margin rate, ppm of notional. */
  readonly mmrPpm: number;
  /**
   * Maintenance amount ("cum"), USDT minor units: `cum_i = cum_(i-1) + floor_i x (mmr_i - mmr_(i-1))`,
   * which makes the maintenance margin continuous across bracket edges. BTCUSDT bracket 3
   * (floor 250,000, 1 %): cum = 50 + 250,000 x (1 % - 0.5 %) = 1,300 USDT.
   */
  readonly maintAmount: bigint;
}

/** The margin family of a perpetual: USDT-margined (linear) or coin-margined (inverse). */
export type PerpFamily = "usdt" | "coin";
export const PERP_FAMILIES: readonly PerpFamily[] = ["usdt", "coin"];

/** What the bracket rules read of a contract (both families; amounts in its margin asset). */
export interface BracketTerms {
  readonly brackets: readonly RiskBracket[];
}

/** A USDT-margined perpetual: the order-book filters plus leverage, brackets and funding terms. */
export interface PerpContract extends BracketTerms {
  readonly symbol: string;
  readonly family: "usdt";
  readonly base: string;
  readonly quote: typeof USDT;
  /** The asset margin, PnL, fees and funding are in. */
  readonly marginAsset: typeof USDT;
  /** Dense index of the contract in `PERP_CONTRACTS` (typed-array slot in the risk pass). */
  readonly index: number;
  readonly instrument: InstrumentSpec;
  /**
   * USDT minor units of notional per tick x lot: notional = ticks x lots x this, exact.
   * BTCUSDT: tick 0.1, lot 0.001 -> 0.0001 USDT = 10,000 minor units.
   */
  readonly minorPerTickLot: bigint;
  readonly maxLeverage: number;
  /** Funding rate cap and floor (+/-), 1e-8 units: 0.75 x the first bracket's maintenance rate (Binance's rule). */
  readonly fundingCapE8: bigint;
  /** Interest component per funding interval, 1e-8 units (0.01 % per 8 h, Binance's default). */
  readonly interestE8: bigint;
}

/** [cap in whole units of the margin asset, max leverage, maintenance rate in ppm]; floors are the previous caps. */
export type BracketRow = readonly [cap: number, maxLeverage: number, mmrPpm: number];

/**
 * Builds brackets with maintenance amounts derived so the maintenance margin is continuous.
 * Caps are whole units of the margin asset, converted at its `decimals` (USDT: 8).
 */
export function buildBrackets(rows: readonly BracketRow[], decimals = USDT_DECIMALS): RiskBracket[] {
  const one = 10n ** BigInt(decimals);
  const out: RiskBracket[] = [];
  let floor = 0n;
  let prevMmr = 0;
  let cum = 0n;
  rows.forEach(([cap, maxLeverage, mmrPpm], i) => {
    cum += (floor * BigInt(mmrPpm - prevMmr)) / PPM;
    out.push({ bracket: i + 1, floor, cap: BigInt(cap) * one, maxLeverage, mmrPpm, maintAmount: cum });
    floor = BigInt(cap) * one;
    prevMmr = mmrPpm;
  });
  return out;
}

/** Binance's BTCUSDT schedule (125x at up to 50,000 USDT notional). */
const BTC_BRACKETS: readonly BracketRow[] = [
  [50_000, 125, 4_000],
  [250_000, 100, 5_000],
  [1_000_000, 50, 10_000],
  [10_000_000, 20, 25_000],
  [20_000_000, 10, 50_000],
  [50_000_000, 5, 100_000],
  [100_000_000, 4, 125_000],
  [200_000_000, 3, 150_000],
  [300_000_000, 2, 250_000],
  [500_000_000, 1, 500_000],
];

/** ETHUSDT, modelled on Binance's (125x up to 10,000 USDT). */
const ETH_BRACKETS: readonly BracketRow[] = [
  [10_000, 125, 5_000],
  [100_000, 100, 6_500],
  [500_000, 75, 10_000],
  [1_000_000, 50, 15_000],
  [2_000_000, 25, 25_000],
  [5_000_000, 20, 30_000],
  [10_000_000, 10, 50_000],
  [20_000_000, 5, 100_000],
  [40_000_000, 4, 125_000],
  [80_000_000, 3, 150_000],
  [150_000_000, 2, 250_000],
  [300_000_000, 1, 500_000],
];

/** Large alts (SOL, BNB): 75x up to 5,000 USDT. */
export const LARGE_ALT_BRACKETS: readonly BracketRow[] = [
  [5_000, 75, 6_500],
  [50_000, 50, 10_000],
  [250_000, 25, 20_000],
  [1_000_000, 20, 25_000],
  [5_000_000, 10, 50_000],
  [10_000_000, 5, 100_000],
  [15_000_000, 4, 125_000],
  [25_000_000, 3, 150_000],
  [50_000_000, 2, 250_000],
  [100_000_000, 1, 500_000],
];

/** XRP and DOGE: 75x up to 5,000 USDT, smaller caps. */
export const ALT_BRACKETS: readonly BracketRow[] = [
  [5_000, 75, 6_500],
  [25_000, 50, 10_000],
  [100_000, 25, 20_000],
  [500_000, 20, 25_000],
  [2_000_000, 10, 50_000],
  [5_000_000, 5, 100_000],
  [8_000_000, 4, 125_000],
  [12_000_000, 3, 150_000],
  [25_000_000, 2, 250_000],
  [50_000_000, 1, 500_000],
];

/** Interest component per funding interval, 1e-8 units (0.01 % per 8 h), both families. */
export const DEFAULT_INTEREST_E8 = 10_000n;

interface PerpInput {
  readonly base: string;
  readonly tick: string;
  readonly lot: string;
  readonly minNotional: string;
  readonly brackets: readonly BracketRow[];
}

function definePerp(input: PerpInput, index: number): PerpContract {
  const symbol = `${input.base}${USDT}`;
  const r = defineInstrument({
    symbol: asSymbol(symbol),
    base: asAsset(input.base),
    quote: asAsset(USDT),
    tickSize: input.tick,
    lotSize: input.lot,
    minNotional: input.minNotional,
  });
  if (!r.ok) throw new RangeError(`perpetual ${symbol}: ${r.error.code} ${r.error.field}`);
  const spec = r.value;
  const scale = spec.priceDecimals + spec.qtyDecimals;
  if (scale > USDT_DECIMALS)
    throw new RangeError(`perpetual ${symbol}: notional finer than USDT minor units`);
  const brackets = buildBrackets(input.brackets);
  const first = brackets[0];
  if (first === undefined) throw new RangeError(`perpetual ${symbol}: no brackets`);
  return {
    symbol,
    family: "usdt",
    base: input.base,
    quote: USDT,
    marginAsset: USDT,
    index,
    instrument: spec,
    minorPerTickLot: spec.tickUnits * spec.lotUnits * 10n ** BigInt(USDT_DECIMALS - scale),
    maxLeverage: first.maxLeverage,
    brackets,
    fundingCapE8: (BigInt(first.mmrPpm) * E8 * 3n) / (4n * PPM),
    interestE8: DEFAULT_INTEREST_E8,
  };
}

/**
 * The USDT-margined perpetuals. Filters (tick, lot, minimum notional) follow Binance
 * USDT-M futures; BTCUSDT's brackets are Binance's, the others are modelled on theirs.
 */
export const PERP_CONTRACTS: readonly PerpContract[] = Object.freeze(
  [
    { base: "BTC", tick: "0.1", lot: "0.001", minNotional: "100", brackets: BTC_BRACKETS },
    { base: "ETH", tick: "0.01", lot: "0.001", minNotional: "20", brackets: ETH_BRACKETS },
    { base: "SOL", tick: "0.01", lot: "1", minNotional: "5", brackets: LARGE_ALT_BRACKETS },
    { base: "BNB", tick: "0.01", lot: "0.01", minNotional: "5", brackets: LARGE_ALT_BRACKETS },
    { base: "XRP", tick: "0.0001", lot: "0.1", minNotional: "5", brackets: ALT_BRACKETS },
    { base: "DOGE", tick: "0.00001", lot: "1", minNotional: "5", brackets: ALT_BRACKETS },
  ].map(definePerp),
);

const BY_SYMBOL = new Map(PERP_CONTRACTS.map((c) => [c.symbol, c]));

/** The perpetual for a symbol ("BTCUSDT"), or undefined. */
export function perpContract(symbol: string): PerpContract | undefined {
  return BY_SYMBOL.get(symbol);
}

/** `perpContract` for symbols known to exist (tests, seeds); throws otherwise. */
export function requirePerp(symbol: string): PerpContract {
  const c = BY_SYMBOL.get(symbol);
  if (c === undefined) throw new RangeError(`unknown perpetual ${symbol}`);
  return c;
}

/**
 * The value of `lots` (sign ignored) at `ticks` in minor units of the margin asset, as the
 * exact fraction `num / den`. USDT-M: lots x ticks x minor units per tick and lot, over 1.
 * Coin-M: contracts x contract value / price = contracts x `valuePerContract` over ticks
 * (10 BTCUSD contracts at 50,000.0: 10 x 10^11 / 500,000 = 2,000,000 satoshi).
 */
export interface PerpValue {
  readonly num: bigint;
  readonly den: bigint;
}

export function valueAt(contract: AnyPerpContract, lots: number, ticks: number): PerpValue {
  const n = BigInt(Math.abs(lots));
  return contract.family === "coin"
    ? { num: n * contract.valuePerContract, den: BigInt(ticks) }
    : { num: n * BigInt(ticks) * contract.minorPerTickLot, den: 1n };
}

/**
 * Notional (USDT-M) or value in coin (coin-M) of `lots` at `ticks`, minor units of the
 * margin asset: exact for USDT-M, rounded up for coin-M (what it sizes, margin and fees, is
 * owed by the trader).
 */
export function notionalAt(contract: AnyPerpContract, lots: number, ticks: number): bigint {
  const v = valueAt(contract, lots, ticks);
  return (v.num + v.den - 1n) / v.den;
}

/**
 * The unit a position's `cost` (its entry value) is kept in, per minor unit of the margin
 * asset: 1 for USDT-M (exact), `costScale` for coin-M (see `CoinPerpContract`).
 */
export const costScaleOf = (contract: AnyPerpContract): bigint =>
  contract.family === "coin" ? contract.costScale : 1n;

/**
 * +1n when a position gains as its value rises: a USDT-M long, a coin-M short (a coin-M
 * long's value in coin falls as the price rises, and it gains). PnL = gain x (value - cost).
 */
export const gainSign = (contract: AnyPerpContract, long: boolean): bigint =>
  long === (contract.family === "usdt") ? 1n : -1n;

/** The bracket a notional (margin asset minor units, >= 0) falls in; past the last cap, the last bracket. */
export function bracketFor(contract: BracketTerms, notional: bigint): RiskBracket {
  const bs = contract.brackets;
  let i = 0;
  while (i + 1 < bs.length && (bs[i + 1] as RiskBracket).floor <= notional) i++;
  return bs[i] as RiskBracket;
}

/**
 * Maintenance margin of one position, in minor units of its margin asset, rounded up (against the trader):
 * `ceil(notional x mmr) - maintAmount`, never below zero.
 * BTCUSDT at 300,000 USDT notional (bracket 3): 300,000 x 1 % - 1,300 = 1,700 USDT.
 */
export function maintenanceMargin(contract: BracketTerms, notional: bigint): bigint {
  const b = bracketFor(contract, notional);
  const mm = (notional * BigInt(b.mmrPpm) + PPM - 1n) / PPM - b.maintAmount;
  return mm > 0n ? mm : 0n;
}

/** The highest leverage a position of this notional may use (0 when over the last cap). */
export function maxLeverageFor(contract: BracketTerms, notional: bigint): number {
  const last = contract.brackets[contract.brackets.length - 1];
  if (last !== undefined && notional >= last.cap) return 0;
  return bracketFor(contract, notional).maxLeverage;
}

/** Initial margin of a notional at `leverage`, rounded up: 50,000 USDT at 20x = 2,500 USDT. */
export function initialMargin(notional: bigint, leverage: number): bigint {
  if (!Number.isInteger(leverage) || leverage < 1)
    throw new RangeError("leverage must be a positive integer");
  const l = BigInt(leverage);
  return (notional + l - 1n) / l;
}
