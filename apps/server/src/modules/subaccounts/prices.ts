import { assetDecimals, ticksToPrice, toMinor } from "@meridian/domain";
import type { PaperVenue } from "../paper/index.ts";

/** USDT minor units per whole unit of an asset (USDT itself: 10^8). */
export type UsdtPrices = ReadonlyMap<string, bigint>;

const USDT = "USDT";

/** The last traded price of every `<ASSET>USDT` pair of the venue, as USDT minor units. */
export function usdtPrices(venue: PaperVenue): UsdtPrices {
  const out = new Map<string, bigint>([[USDT, 10n ** 8n]]);
  for (const symbol of venue.symbols) {
    const spec = venue.spec(symbol);
    if (spec === undefined || spec.quote !== USDT) continue;
    const ticks = venue.lastTicks(symbol);
    if (ticks <= 0) continue;
    const price = toMinor(USDT, ticksToPrice(spec, ticks));
    if (price !== null && price > 0n) out.set(spec.base, price);
  }
  return out;
}

/** An amount (minor units) valued in USDT minor units, rounded down; 0 for an asset without a price. */
export function usdtValue(prices: UsdtPrices, asset: string, amount: bigint): bigint {
  const price = prices.get(asset);
  const decimals = assetDecimals(asset);
  if (price === undefined || decimals === undefined) return 0n;
  return (amount * price) / 10n ** BigInt(decimals);
}
