import { ceilDiv, decimalsOf, formatScaled, parseScaled } from "./decimal.ts";
import { DomainCode, type DomainError, domainError, fail, ok, type Result } from "./errors.ts";
import {
  type Asset,
  asLots,
  asPrice,
  asQuantity,
  asTicks,
  type Lots,
  MAX_SAFE,
  type Price,
  type Quantity,
  type Symbol as SymbolCode,
  type Ticks,
} from "./units.ts";

/** What a listing states, in exchange-filter terms (Binance PRICE_FILTER, LOT_SIZE, NOTIONAL). */
export interface InstrumentInput {
  readonly symbol: SymbolCode;
  readonly base: Asset;
  readonly quote: Asset;
  readonly tickSize: string;
  readonly lotSize: string;
  /** Minimum price x quantity, in quote units. */
  readonly minNotional: string;
  readonly minPrice?: string;
  readonly maxPrice?: string;
  readonly minQty?: string;
  readonly maxQty?: string;
}

/**
 * An instrument as the engine uses it: every limit is already an integer count of
 * ticks, lots or tick x lot units, each proved to be a safe integer here, once.
 */
export interface InstrumentSpec {
  readonly symbol: SymbolCode;
  readonly base: Asset;
  readonly quote: Asset;
  readonly tickSize: Price;
  readonly lotSize: Quantity;
  readonly minNotional: string;
  /** Fraction digits of a price (those of the tick size). */
  readonly priceDecimals: number;
  /** Fraction digits of a quantity (those of the lot size). */
  readonly qtyDecimals: number;
  /** Tick size at `priceDecimals` scale ("0.05" -> 5n). */
  readonly tickUnits: bigint;
  /** Lot size at `qtyDecimals` scale. */
  readonly lotUnits: bigint;
  readonly minPriceTicks: Ticks;
  readonly maxPriceTicks: Ticks;
  readonly minQtyLots: Lots;
  readonly maxQtyLots: Lots;
  /** Minimum ticks x lots product; compared exactly (see `meetsMinNotional`). */
  readonly minNotionalUnits: number;
}

const specError = (field: string, reason: string): DomainError =>
  domainError(DomainCode.INVALID_SPEC, field, { reason });

/** Builds a spec from listing strings; every limit is checked to be representable and safe. */
export function defineInstrument(input: InstrumentInput): Result<InstrumentSpec> {
  const priceDecimals = decimalsOf(input.tickSize);
  const qtyDecimals = decimalsOf(input.lotSize);
  const tick = parseScaled(input.tickSize, priceDecimals);
  const lot = parseScaled(input.lotSize, qtyDecimals);
  if (tick === null || tick.scaled <= 0n) return fail(specError("tickSize", "positive decimal"));
  if (lot === null || lot.scaled <= 0n) return fail(specError("lotSize", "positive decimal"));
  const tickUnits = tick.scaled;
  const lotUnits = lot.scaled;

  const toBound = (text: string | undefined, scale: number, unit: bigint, up: boolean, dflt: bigint) => {
    if (text === undefined) return dflt;
    const p = parseScaled(text, scale);
    if (p === null || p.truncated || p.scaled < 0n) return null;
    return up ? ceilDiv(p.scaled, unit) : p.scaled / unit;
  };
  const maxSafe = BigInt(MAX_SAFE);
  const minPrice = toBound(input.minPrice, priceDecimals, tickUnits, true, 1n);
  const maxPrice = toBound(input.maxPrice, priceDecimals, tickUnits, false, maxSafe);
  const minQty = toBound(input.minQty, qtyDecimals, lotUnits, true, 1n);
  const maxQty = toBound(input.maxQty, qtyDecimals, lotUnits, false, maxSafe);
  if (minPrice === null || maxPrice === null || minPrice < 1n || maxPrice > maxSafe || minPrice > maxPrice) {
    return fail(specError("maxPrice", "price range must be within 1..2^53-1 ticks"));
  }
  if (minQty === null || maxQty === null || minQty < 1n || maxQty > maxSafe || minQty > maxQty) {
    return fail(specError("maxQty", "quantity range must be within 1..2^53-1 lots"));
  }
  const notionalScale = priceDecimals + qtyDecimals;
  const minNotional = parseScaled(input.minNotional, notionalScale);
  if (minNotional === null || minNotional.scaled < 0n) return fail(specError("minNotional", "decimal"));
  // A minimum with digits beyond the notional scale is rounded up: it can only be stricter.
  const minScaled = minNotional.truncated ? minNotional.scaled + 1n : minNotional.scaled;
  const minUnits = ceilDiv(minScaled, tickUnits * lotUnits);
  if (minUnits > maxSafe) return fail(specError("minNotional", "too large"));

  return ok({
    symbol: input.symbol,
    base: input.base,
    quote: input.quote,
    tickSize: asPrice(input.tickSize),
    lotSize: asQuantity(input.lotSize),
    minNotional: input.minNotional,
    priceDecimals,
    qtyDecimals,
    tickUnits,
    lotUnits,
    minPriceTicks: asTicks(Number(minPrice)),
    maxPriceTicks: asTicks(Number(maxPrice)),
    minQtyLots: asLots(Number(minQty)),
    maxQtyLots: asLots(Number(maxQty)),
    minNotionalUnits: Number(minUnits),
  });
}

/** Parses a decimal price string to ticks, checking precision, tick and range. */
export function priceToTicks(spec: InstrumentSpec, text: string, field = "price"): Result<Ticks> {
  const p = parseScaled(text, spec.priceDecimals);
  if (p === null) return fail(domainError(DomainCode.INVALID_DECIMAL, field));
  if (p.truncated) {
    return fail(domainError(DomainCode.PRICE_TOO_PRECISE, field, { decimals: String(spec.priceDecimals) }));
  }
  if (p.scaled % spec.tickUnits !== 0n) {
    return fail(domainError(DomainCode.PRICE_NOT_ON_TICK, field, { tickSize: spec.tickSize }));
  }
  const ticks = p.scaled / spec.tickUnits;
  if (ticks < BigInt(spec.minPriceTicks) || ticks > BigInt(spec.maxPriceTicks)) {
    return fail(
      domainError(DomainCode.PRICE_OUT_OF_RANGE, field, {
        min: ticksToPrice(spec, spec.minPriceTicks),
        max: ticksToPrice(spec, spec.maxPriceTicks),
      }),
    );
  }
  return ok(asTicks(Number(ticks)));
}

/** Parses a decimal quantity string to lots, checking precision, lot and range. */
export function qtyToLots(spec: InstrumentSpec, text: string, field = "qty"): Result<Lots> {
  const q = parseScaled(text, spec.qtyDecimals);
  if (q === null) return fail(domainError(DomainCode.INVALID_DECIMAL, field));
  if (q.truncated) {
    return fail(domainError(DomainCode.QTY_TOO_PRECISE, field, { decimals: String(spec.qtyDecimals) }));
  }
  if (q.scaled % spec.lotUnits !== 0n) {
    return fail(domainError(DomainCode.QTY_NOT_ON_LOT, field, { lotSize: spec.lotSize }));
  }
  const lots = q.scaled / spec.lotUnits;
  if (lots < BigInt(spec.minQtyLots) || lots > BigInt(spec.maxQtyLots)) {
    return fail(
      domainError(DomainCode.QTY_OUT_OF_RANGE, field, {
        min: lotsToQty(spec, spec.minQtyLots),
        max: lotsToQty(spec, spec.maxQtyLots),
      }),
    );
  }
  return ok(asLots(Number(lots)));
}

export function ticksToPrice(spec: InstrumentSpec, ticks: number): Price {
  return asPrice(formatScaled(BigInt(ticks) * spec.tickUnits, spec.priceDecimals));
}

export function lotsToQty(spec: InstrumentSpec, lots: number): Quantity {
  return asQuantity(formatScaled(BigInt(lots) * spec.lotUnits, spec.qtyDecimals));
}

/** Scale of notional minor units: price decimals + quantity decimals. */
export const notionalScale = (spec: InstrumentSpec): number => spec.priceDecimals + spec.qtyDecimals;

/** price x quantity in quote minor units (scale `notionalScale(spec)`), exact. */
export function notionalMinor(spec: InstrumentSpec, ticks: number, lots: number): bigint {
  return BigInt(ticks) * spec.tickUnits * BigInt(lots) * spec.lotUnits;
}

/**
 * Min-notional check without bigint on the hot path: a float product of two
 * integers is exact below 2^53 and rounding is monotonic above it, so comparing
 * against a safe-integer threshold gives the exact answer.
 */
export function meetsMinNotional(spec: InstrumentSpec, ticks: number, lots: number): boolean {
  return ticks * lots >= spec.minNotionalUnits;
}

/** Fee rate in parts per million (1000 = 0.1 %). */
export type FeePpm = number;

/** Fee on a notional in the same minor units, rounded up (never in the payer's favour). */
export function feeMinor(notional: bigint, ratePpm: FeePpm): bigint {
  if (!Number.isSafeInteger(ratePpm) || ratePpm < 0)
    throw new RangeError("fee rate must be a non-negative integer ppm");
  const n = notional < 0n ? -notional : notional;
  const fee = ceilDiv(n * BigInt(ratePpm), 1_000_000n);
  return notional < 0n ? -fee : fee;
}

export function formatNotional(spec: InstrumentSpec, minor: bigint): string {
  return formatScaled(minor, notionalScale(spec));
}
