import { formatScaled, parseScaled } from "../decimal.ts";
import type { InstrumentSpec } from "../instrument.ts";

/**
 * Minor-unit precision per asset in the paper ledger: an amount of `n` minor units is
 * `n / 10^decimals` of the asset. USDT uses 8 (not the 6 of its token contracts) so that
 * every listed pair's notional (price decimals + quantity decimals, at most 7 for
 * BTCUSDT) converts exactly, with no rounding dust. Coins use their chain's decimals,
 * capped at 8 (SOL, TON and NOT have 9 on chain; nothing on the books is that fine).
 */
export const ASSET_DECIMALS: Readonly<Record<string, number>> = Object.freeze({
  USDT: 8,
  BTC: 8,
  ETH: 8,
  BNB: 8,
  SOL: 8,
  XRP: 6,
  DOGE: 8,
  TRX: 6,
  ADA: 6,
  LTC: 8,
  LINK: 8,
  AVAX: 8,
  TON: 8,
  NOT: 8,
});

/** Decimals of an asset's minor unit; undefined for an asset the ledger does not carry. */
export function assetDecimals(asset: string): number | undefined {
  return Object.hasOwn(ASSET_DECIMALS, asset) ? ASSET_DECIMALS[asset] : undefined;
}

/** Parses a decimal amount of `asset` to minor units; null when malformed, too precise or unknown. */
export function toMinor(asset: string, text: string): bigint | null {
  const decimals = assetDecimals(asset);
  if (decimals === undefined) return null;
  const parsed = parseScaled(text, decimals);
  return parsed === null || parsed.truncated ? null : parsed.scaled;
}

/** Formats minor units of `asset` as a decimal string with the asset's decimals. */
export function fromMinor(asset: string, minor: bigint): string {
  return formatScaled(minor, assetDecimals(asset) ?? 0);
}

/**
 * How an instrument's engine units map to ledger minor units: lots x `baseFactor` is
 * base minor units, `notionalMinor` x `quoteFactor` is quote minor units. Null when the
 * ledger cannot carry the pair exactly (an asset missing from the table, or finer than it).
 */
export interface PairUnits {
  readonly base: string;
  readonly quote: string;
  readonly baseFactor: bigint;
  readonly quoteFactor: bigint;
}

/** Specs are long-lived: their units are worked out once (the engine asks on every order and fill). */
const unitsBySpec = new WeakMap<InstrumentSpec, PairUnits | null>();

export function pairUnits(spec: InstrumentSpec): PairUnits | null {
  const known = unitsBySpec.get(spec);
  if (known !== undefined) return known;
  const units = computePairUnits(spec);
  unitsBySpec.set(spec, units);
  return units;
}

function computePairUnits(spec: InstrumentSpec): PairUnits | null {
  const baseDecimals = assetDecimals(spec.base);
  const quoteDecimals = assetDecimals(spec.quote);
  if (baseDecimals === undefined || quoteDecimals === undefined) return null;
  const notionalDecimals = spec.priceDecimals + spec.qtyDecimals;
  if (spec.qtyDecimals > baseDecimals || notionalDecimals > quoteDecimals) return null;
  return {
    base: spec.base,
    quote: spec.quote,
    baseFactor: spec.lotUnits * 10n ** BigInt(baseDecimals - spec.qtyDecimals),
    quoteFactor: 10n ** BigInt(quoteDecimals - notionalDecimals),
  };
}
