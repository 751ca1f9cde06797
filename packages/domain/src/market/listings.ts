import { formatScaled, pow10 } from "../decimal.ts";
import { ok, type Result } from "../errors.ts";
import { defineInstrument, type InstrumentInput, type InstrumentSpec } from "../instrument.ts";
import { asAsset, asSymbol } from "../units.ts";
import type { PriceModelParams } from "./price-model.ts";

/** A spot pair as the market lists it: exchange filters plus what the simulation needs. */
export interface MarketListing {
  readonly instrument: InstrumentInput;
  /** The coin's name ("Bitcoin"). */
  readonly name: string;
  /** Price the simulation starts from (decimal, on tick). */
  readonly refPrice: string;
  /** Circulating supply of the base asset (whole coins): market cap = supply x last price. */
  readonly circulatingSupply: string;
  /** Typical 24 h quote volume (USDT): sizes simulated trades and history volume. */
  readonly dailyQuoteVolume: number;
  readonly model: PriceModelParams;
}

const pair = (
  base: string,
  name: string,
  filters: { tick: string; lot: string; minNotional?: string },
  refPrice: string,
  circulatingSupply: string,
  dailyQuoteVolume: number,
  annualVol: number,
): MarketListing => ({
  instrument: {
    symbol: asSymbol(`${base}USDT`),
    base: asAsset(base),
    quote: asAsset("USDT"),
    tickSize: filters.tick,
    lotSize: filters.lot,
    minNotional: filters.minNotional ?? "5",
  },
  name,
  refPrice,
  circulatingSupply,
  dailyQuoteVolume,
  model: { annualVol },
});

/**
 * The simulated spot pairs (USDT quoted). Filters follow the large exchanges' spot
 * listings; reference prices and supplies are round figures from late 2025, volatility
 * is each coin's typical annualised figure.
 */
export const MARKET_LISTINGS: readonly MarketListing[] = [
  pair("BTC", "Bitcoin", { tick: "0.01", lot: "0.00001" }, "97000.00", "19950000", 1_500_000_000, 0.55),
  pair("ETH", "Ethereum", { tick: "0.01", lot: "0.0001" }, "3400.00", "120700000", 900_000_000, 0.7),
  pair("XRP", "XRP", { tick: "0.0001", lot: "0.1" }, "2.3000", "59000000000", 300_000_000, 0.9),
  pair("BNB", "BNB", { tick: "0.01", lot: "0.001" }, "650.00", "140000000", 150_000_000, 0.5),
  pair("SOL", "Solana", { tick: "0.01", lot: "0.001" }, "190.00", "520000000", 400_000_000, 0.9),
  pair("DOGE", "Dogecoin", { tick: "0.00001", lot: "1" }, "0.22000", "150000000000", 200_000_000, 1.0),
  pair("TRX", "TRON", { tick: "0.0001", lot: "0.1" }, "0.2500", "94700000000", 60_000_000, 0.45),
  pair("ADA", "Cardano", { tick: "0.0001", lot: "0.1" }, "0.7500", "36000000000", 80_000_000, 0.85),
  pair("LINK", "Chainlink", { tick: "0.01", lot: "0.01" }, "18.00", "680000000", 70_000_000, 0.85),
  pair("AVAX", "Avalanche", { tick: "0.01", lot: "0.01" }, "28.00", "420000000", 60_000_000, 0.95),
  pair("TON", "Toncoin", { tick: "0.001", lot: "0.01" }, "3.200", "2500000000", 40_000_000, 0.85),
  pair("NOT", "Notcoin", { tick: "0.000001", lot: "1" }, "0.004500", "102500000000", 15_000_000, 1.3),
  pair("LTC", "Litecoin", { tick: "0.01", lot: "0.001" }, "95.00", "75500000", 40_000_000, 0.8),
];

/** A listing with its validated spec. */
export interface ListedInstrument {
  readonly listing: MarketListing;
  readonly spec: InstrumentSpec;
}

/** Validates every listing through `defineInstrument`; the first failure is returned. */
export function listInstruments(
  listings: readonly MarketListing[] = MARKET_LISTINGS,
): Result<ListedInstrument[]> {
  const out: ListedInstrument[] = [];
  for (const listing of listings) {
    const r = defineInstrument(listing.instrument);
    if (!r.ok) return r;
    out.push({ listing, spec: r.value });
  }
  return ok(out);
}

/**
 * Market cap in quote units, two decimals (cents), rounded down: circulating supply
 * (whole coins) x price in ticks, exact.
 */
export function marketCap(spec: InstrumentSpec, circulatingSupply: string, priceTicks: number): string {
  const supply = BigInt(circulatingSupply);
  const scaled = supply * BigInt(priceTicks) * spec.tickUnits;
  return formatScaled(rescale(scaled, spec.priceDecimals, 2), 2);
}

function rescale(value: bigint, from: number, to: number): bigint {
  return from >= to ? value / pow10(from - to) : value * pow10(to - from);
}

/** What a newly listed token (an airdrop that has listed) brings: its ticker, name and price. */
export interface TokenListingInput {
  readonly base: string;
  readonly name: string;
  /** Current price in USDT (decimal string, > 0): the market's starting point. */
  readonly price: string;
  /** Market cap in USDT (decimal string), for the circulating supply; "0" when unknown. */
  readonly marketCap: string;
}

/** Typical 24 h quote volume and volatility given to a new token (young listings swing hard). */
const NEW_TOKEN_DAILY_VOLUME = 5_000_000;
const NEW_TOKEN_ANNUAL_VOL = 1.4;
const MAX_DECIMALS = 8;

/** Decimal exponent of the leading digit of a positive decimal string ("0.0021" -> -3, "97000" -> 4). */
function leadingExponent(value: string): number | undefined {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m) return undefined;
  const int = (m[1] ?? "").replace(/^0+/, "");
  if (int !== "") return int.length - 1;
  const frac = m[2] ?? "";
  const first = frac.search(/[1-9]/);
  return first < 0 ? undefined : -(first + 1);
}

function truncate(value: string, decimals: number): string {
  const [int = "0", frac = ""] = value.split(".");
  return decimals === 0 ? int : `${int}.${frac.padEnd(decimals, "0").slice(0, decimals)}`;
}

const unit = (decimals: number): string => (decimals === 0 ? "1" : `0.${"0".repeat(decimals - 1)}1`);

/**
 * A USDT spot listing for a token first priced at `price`: the tick keeps five
 * significant digits (at most 8 decimals, at least 0.01), a lot is worth about
 * a hundredth of a USDT (at most 1 whole token), the reference price is `price` on tick. Undefined when
 * the price is not a positive decimal or the ticker is not a valid asset code.
 */
export function tokenListing(input: TokenListingInput): MarketListing | undefined {
  if (!/^[A-Z0-9]{1,12}$/.test(input.base)) return undefined;
  const e = leadingExponent(input.price);
  if (e === undefined) return undefined;
  const priceDecimals = Math.min(MAX_DECIMALS, Math.max(2, 4 - e));
  const qtyDecimals = Math.min(MAX_DECIMALS, Math.max(0, e + 2));
  const refPrice = truncate(input.price, priceDecimals);
  if (leadingExponent(refPrice) === undefined) return undefined;
  const scale = 10n ** BigInt(MAX_DECIMALS);
  const cap = /^\d+(\.\d+)?$/.test(input.marketCap)
    ? BigInt(truncate(input.marketCap, MAX_DECIMALS).replace(".", ""))
    : 0n;
  const price = BigInt(truncate(refPrice, MAX_DECIMALS).replace(".", ""));
  const supply = price > 0n ? (cap * scale) / price / scale : 0n;
  const listing = pair(
    input.base,
    input.name,
    { tick: unit(priceDecimals), lot: unit(qtyDecimals) },
    refPrice,
    supply.toString(),
    NEW_TOKEN_DAILY_VOLUME,
    NEW_TOKEN_ANNUAL_VOL,
  );
  return defineInstrument(listing.instrument).ok ? listing : undefined;
}
