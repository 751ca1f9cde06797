import { defineInstrument, type InstrumentSpec } from "../instrument.ts";
import { assetDecimals } from "../ledger/assets.ts";
import { asAsset, asSymbol } from "../units.ts";
import {
  ALT_BRACKETS,
  type BracketRow,
  type BracketTerms,
  buildBrackets,
  DEFAULT_INTEREST_E8,
  LARGE_ALT_BRACKETS,
  PERP_CONTRACTS,
  type PerpContract,
  type PerpFamily,
  perpContract,
} from "./contracts.ts";
import { E8, PPM } from "./scales.ts";

const INT64_MAX = 2n ** 63n - 1n;

/** The quote of every coin-margined perpetual: prices are US dollars per coin. */
export const USD = "USD";

/**
 * A coin-margined (inverse) perpetual, Binance COIN-M style: sizes are whole contracts,
 * each worth `contractValue` US dollars; margin, PnL, fees and funding are in the base
 * coin (`marginAsset`), in its ledger minor units (`ASSET_DECIMALS`: BTC 8, XRP 6).
 * BTCUSD: 1 contract = 100 USD, so 3 contracts at 60,000 are worth 300 / 60,000 = 0.005 BTC.
 */
export interface CoinPerpContract extends BracketTerms {
  readonly symbol: string;
  readonly family: "coin";
  readonly base: string;
  readonly quote: typeof USD;
  /** The coin margin, PnL, fees and funding are in: the base. */
  readonly marginAsset: string;
  /** Fraction digits of the margin asset's minor unit. */
  readonly marginDecimals: number;
  /** Dense index of the contract in `COIN_PERP_CONTRACTS`. */
  readonly index: number;
  /** Order-book filters: price tick in USD, lot 1 contract, no minimum notional beyond one contract. */
  readonly instrument: InstrumentSpec;
  /** US dollars per contract ("100" for BTCUSD, "10" for the others). */
  readonly contractValue: string;
  /** The contract value in price ticks: BTCUSD 100 / 0.1 = 1,000. */
  readonly contractValueTicks: bigint;
  /**
   * Margin-asset minor units x ticks of one contract: `n` contracts at `t` ticks are worth
   * `n x valuePerContract / t` minor units. BTCUSD: 1,000 ticks x 10^8 = 10^11.
   */
  readonly valuePerContract: bigint;
  /**
   * A position's entry value (`cost`) is kept in `1 / costScale` of a minor unit, so that
   * the harmonic-mean entry price stays exact at the tick: 10^k with the largest k <= 6 for
   * which four times the last bracket's cap still fits a signed 64-bit column (BTC 10^6).
   */
  readonly costScale: bigint;
  readonly maxLeverage: number;
  /** Funding rate cap and floor (+/-), 1e-8 units: 0.75 x the first bracket's maintenance rate. */
  readonly fundingCapE8: bigint;
  readonly interestE8: bigint;
}

/** A perpetual of either family. */
export type AnyPerpContract = PerpContract | CoinPerpContract;

interface CoinPerpInput {
  readonly base: string;
  readonly tick: string;
  readonly contractValue: string;
  readonly brackets: readonly BracketRow[];
}

/** Brackets in coins from a USD schedule at `coinsPerThousandUsd` (a reference price, rounded). */
function inCoins(rows: readonly BracketRow[], coinsPerThousandUsd: number): BracketRow[] {
  return rows.map(([cap, lev, mmr]) => [
    Math.max(1, Math.round((cap / 1000) * coinsPerThousandUsd)),
    lev,
    mmr,
  ]);
}

/** Binance COIN-M BTCUSD's schedule, caps in BTC (125x up to 5 BTC). */
const BTCUSD_BRACKETS: readonly BracketRow[] = [
  [5, 125, 4_000],
  [10, 100, 5_000],
  [20, 50, 10_000],
  [50, 20, 25_000],
  [100, 10, 50_000],
  [200, 5, 100_000],
  [400, 4, 125_000],
  [1_000, 2, 250_000],
  [1_500, 1, 500_000],
];

/** ETHUSD, modelled on Binance COIN-M (75x up to 50 ETH), caps in ETH. */
const ETHUSD_BRACKETS: readonly BracketRow[] = [
  [50, 75, 5_000],
  [100, 50, 10_000],
  [500, 25, 20_000],
  [1_000, 20, 25_000],
  [2_000, 10, 50_000],
  [5_000, 5, 100_000],
  [10_000, 4, 125_000],
  [20_000, 2, 250_000],
  [50_000, 1, 500_000],
];

function defineCoinPerp(input: CoinPerpInput, index: number): CoinPerpContract {
  const symbol = `${input.base}${USD}`;
  const decimals = assetDecimals(input.base);
  if (decimals === undefined) throw new RangeError(`coin perpetual ${symbol}: ledger lacks ${input.base}`);
  const r = defineInstrument({
    symbol: asSymbol(symbol),
    base: asAsset(input.base),
    quote: asAsset(USD),
    tickSize: input.tick,
    lotSize: "1",
    minNotional: "0",
  });
  if (!r.ok) throw new RangeError(`coin perpetual ${symbol}: ${r.error.code} ${r.error.field}`);
  const spec = r.value;
  const cvScaled = BigInt(input.contractValue) * 10n ** BigInt(spec.priceDecimals);
  if (cvScaled % spec.tickUnits !== 0n) throw new RangeError(`coin perpetual ${symbol}: value off tick`);
  const contractValueTicks = cvScaled / spec.tickUnits;
  const brackets = buildBrackets(input.brackets, decimals);
  const first = brackets[0];
  const last = brackets[brackets.length - 1];
  if (first === undefined || last === undefined)
    throw new RangeError(`coin perpetual ${symbol}: no brackets`);
  let costScale = 1n;
  while (costScale < 1_000_000n && last.cap * 4n * costScale * 10n <= INT64_MAX) costScale *= 10n;
  return {
    symbol,
    family: "coin",
    base: input.base,
    quote: USD,
    marginAsset: input.base,
    marginDecimals: decimals,
    index,
    instrument: spec,
    contractValue: input.contractValue,
    contractValueTicks,
    valuePerContract: contractValueTicks * 10n ** BigInt(decimals),
    costScale,
    maxLeverage: first.maxLeverage,
    brackets,
    fundingCapE8: (BigInt(first.mmrPpm) * E8 * 3n) / (4n * PPM),
    interestE8: DEFAULT_INTEREST_E8,
  };
}

/**
 * The coin-margined perpetuals. Ticks follow Binance COIN-M; contract value 100 USD for
 * BTCUSD and 10 USD for the others. Brackets: BTCUSD's are Binance's, ETHUSD's modelled
 * on it; the others are the USDT-M schedules converted to coins at a reference price
 * (SOL 143, XRP 0.50, DOGE 0.10, ADA 0.40, LTC 83 USD).
 */
export const COIN_PERP_CONTRACTS: readonly CoinPerpContract[] = Object.freeze(
  [
    { base: "BTC", tick: "0.1", contractValue: "100", brackets: BTCUSD_BRACKETS },
    { base: "ETH", tick: "0.01", contractValue: "10", brackets: ETHUSD_BRACKETS },
    { base: "SOL", tick: "0.01", contractValue: "10", brackets: inCoins(LARGE_ALT_BRACKETS, 7) },
    { base: "XRP", tick: "0.0001", contractValue: "10", brackets: inCoins(ALT_BRACKETS, 2_000) },
    { base: "DOGE", tick: "0.00001", contractValue: "10", brackets: inCoins(ALT_BRACKETS, 10_000) },
    { base: "ADA", tick: "0.0001", contractValue: "10", brackets: inCoins(ALT_BRACKETS, 2_500) },
    { base: "LTC", tick: "0.01", contractValue: "10", brackets: inCoins(ALT_BRACKETS, 12) },
  ].map(defineCoinPerp),
);

/** The coins a coin-margined futures wallet exists for (BTC, ETH, SOL, XRP, DOGE, ADA, LTC). */
export const COIN_MARGIN_ASSETS: readonly string[] = Object.freeze(
  COIN_PERP_CONTRACTS.map((c) => c.marginAsset),
);

const COIN_BY_SYMBOL = new Map(COIN_PERP_CONTRACTS.map((c) => [c.symbol, c]));

/** The coin-margined perpetual for a symbol ("BTCUSD"), or undefined. */
export function coinPerpContract(symbol: string): CoinPerpContract | undefined {
  return COIN_BY_SYMBOL.get(symbol);
}

/** `coinPerpContract` for symbols known to exist (tests, seeds); throws otherwise. */
export function requireCoinPerp(symbol: string): CoinPerpContract {
  const c = COIN_BY_SYMBOL.get(symbol);
  if (c === undefined) throw new RangeError(`unknown coin perpetual ${symbol}`);
  return c;
}

/** A perpetual of either family by symbol (BTCUSDT is USDT-M, BTCUSD coin-M), or undefined. */
export function anyPerpContract(symbol: string): AnyPerpContract | undefined {
  return perpContract(symbol) ?? COIN_BY_SYMBOL.get(symbol);
}

/** The family of a listed perpetual's symbol, or undefined. */
export function perpFamilyOf(symbol: string): PerpFamily | undefined {
  return anyPerpContract(symbol)?.family;
}

/** `anyPerpContract` for symbols known to exist (stored positions, tests); throws otherwise. */
export function requireAnyPerp(symbol: string): AnyPerpContract {
  const c = anyPerpContract(symbol);
  if (c === undefined) throw new RangeError(`unknown perpetual ${symbol}`);
  return c;
}

/** Every perpetual of both families: the USDT-M ones, then the coin-M ones. */
export const ALL_PERP_CONTRACTS: readonly AnyPerpContract[] = Object.freeze([
  ...PERP_CONTRACTS,
  ...COIN_PERP_CONTRACTS,
]);

/** The spot pair whose book and last price a perpetual follows: its base against USDT (USD ~ USDT on paper). */
export const spotSymbolOf = (contract: AnyPerpContract): string => `${contract.base}USDT`;
