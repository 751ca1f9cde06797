import {
  MARGIN_CALL_LEVEL,
  MARGIN_LIQUIDATION_LEVEL,
  MarginCode,
  type MarginInterestRate,
  type MarginPairInfo,
  type MarginPairs,
} from "@meridian/contracts";
import {
  type AssetPrices,
  CROSS_MARGIN_LEVERAGE,
  DAILY_INTEREST_E8,
  ISOLATED_MARGIN_LEVERAGE,
  pairUnits,
  priceToTicks,
  ticksToPrice,
  toMinor,
} from "@meridian/domain";
import { AppError, errors } from "../../platform/errors.ts";
import type { PaperVenue } from "../paper/index.ts";

const USDT = "USDT";

/**
 * What margin trades and how it values it: the spot pairs quoted in USDT whose base
 * has a borrow rate, and each such asset's price in USDT (a test pin first, else the
 * venue's last price). Pure reads of the venue; the pins are this instance's.
 */
export class MarginMarkets {
  private readonly venue: PaperVenue;
  private readonly pins = new Map<string, bigint>();

  constructor(venue: PaperVenue) {
    this.venue = venue;
  }

  /** Spot pairs quoted in USDT whose base has a borrow rate, with the rates and levels. */
  pairs(): MarginPairs {
    const pairs: MarginPairInfo[] = [];
    const assets = new Set<string>([USDT]);
    for (const symbol of this.venue.symbols) {
      const p = this.pairOf(symbol);
      if (p === undefined) continue;
      pairs.push({
        symbol,
        base: p.base,
        quote: p.quote,
        crossLeverage: CROSS_MARGIN_LEVERAGE,
        isolatedLeverage: ISOLATED_MARGIN_LEVERAGE,
      });
      assets.add(p.base);
    }
    const rates: MarginInterestRate[] = [...assets].sort().map((asset) => {
      const e8 = DAILY_INTEREST_E8[asset] ?? 0n;
      return { asset, dailyRate: rateText(e8 * 1_000_000n), hourlyRate: rateText((e8 * 1_000_000n) / 24n) };
    });
    return {
      pairs,
      rates,
      marginCallLevel: MARGIN_CALL_LEVEL,
      liquidationLevel: MARGIN_LIQUIDATION_LEVEL,
    };
  }

  pairOf(symbol: string): { base: string; quote: string } | undefined {
    const spec = this.venue.spec(symbol);
    if (spec === undefined || spec.quote !== USDT || pairUnits(spec) === null) return undefined;
    if (!Object.hasOwn(DAILY_INTEREST_E8, spec.base)) return undefined;
    return { base: spec.base, quote: spec.quote };
  }

  /** USDT and the base of every margin pair. */
  assets(): Set<string> {
    const out = new Set<string>([USDT]);
    for (const symbol of this.venue.symbols) {
      const p = this.pairOf(symbol);
      if (p !== undefined) out.add(p.base);
    }
    return out;
  }

  /** USDT minor units per whole unit of each marginable asset: test pins first, else the venue's last price. */
  prices(): AssetPrices {
    const out = new Map<string, bigint>();
    for (const symbol of this.venue.symbols) {
      const p = this.pairOf(symbol);
      const spec = this.venue.spec(symbol);
      if (p === undefined || spec === undefined) continue;
      const pinned = this.pins.get(p.base);
      if (pinned !== undefined) {
        out.set(p.base, pinned);
        continue;
      }
      const ticks = this.venue.lastTicks(symbol);
      const price = ticks > 0 ? toMinor(USDT, ticksToPrice(spec, ticks)) : null;
      if (price !== null && price > 0n) out.set(p.base, price);
    }
    return out;
  }

  /** Test-only: pins (or unpins, `null`) the valuation price of a pair's base. */
  pin(symbol: string, price: string | null): void {
    const pair = this.pairOf(symbol);
    const spec = this.venue.spec(symbol);
    if (pair === undefined || spec === undefined)
      throw new AppError(MarginCode.UNKNOWN_PAIR, `${symbol} is not tradable on margin`, { status: 200 });
    if (price === null) this.pins.delete(pair.base);
    else {
      const ticks = priceToTicks(spec, price);
      const minor = toMinor(USDT, price);
      if (!ticks.ok || minor === null || minor <= 0n)
        throw errors.validation([{ field: "price", rule: "price", message: "not a price of this pair" }]);
      this.pins.set(pair.base, minor);
    }
  }
}

/** A rate scaled by 1e14 (e8 x 1e6) as a decimal: 20_000e6 -> "0.0002". */
function rateText(scaled: bigint): string {
  const digits = scaled.toString().padStart(15, "0");
  const text = `${digits.slice(0, -14)}.${digits.slice(-14)}`.replace(/0+$/, "");
  return text.endsWith(".") ? `${text}0` : text;
}
