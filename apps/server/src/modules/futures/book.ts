import { type InstrumentSpec, type PerpContract, parseScaled, Side } from "@meridian/domain";
import type { PaperVenue } from "../paper/index.ts";

/**
 * The market module's spot books seen in a perpetual's units. Futures orders take the
 * maker's quotes at their prices without consuming them (the paper market maker is the
 * counterparty of every futures fill; see README "Choices"), so a futures order never
 * touches the spot book's orders or ids.
 */
export interface PerpBook {
  /** Opposite-side levels for a taker, best first: [perp ticks, perp lots]. */
  levels(contract: PerpContract, takerSide: "BUY" | "SELL", n: number): Array<[number, number]>;
  /** Best bid and ask in perp ticks (0 when the side is empty). */
  top(contract: PerpContract): { bid: number; ask: number };
  /** Index price (the spot last price) in perp ticks; 0 when unknown. */
  index(contract: PerpContract): number;
  onPrice(listener: (symbol: string) => void): () => void;
  /** False while the symbol's live market data is unavailable (new orders are refused). */
  tradable?(symbol: string): boolean;
  /** A live exchange's mark and index (perp ticks) and funding (rate in 1e-8, next time), when known. */
  exchange?(contract: PerpContract): ExchangeMarks | undefined;
}

export interface ExchangeMarks {
  readonly mark: number | undefined;
  readonly index: number | undefined;
  readonly rateE8: bigint | undefined;
  readonly nextFundingTime: number | undefined;
}

/** A decimal price in the contract's ticks, to the nearest tick; undefined when absent or not positive. */
function perpTicks(contract: PerpContract, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const spec = contract.instrument;
  const p = parseScaled(text, spec.priceDecimals);
  if (p === null || p.scaled <= 0n) return undefined;
  const ticks = (p.scaled * 2n + spec.tickUnits) / (2n * spec.tickUnits);
  return ticks > 0n ? Number(ticks) : undefined;
}

/** A funding rate fraction ("0.0001") in 1e-8 units (10000n), truncated. */
function rateE8(text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  return parseScaled(text, 8)?.scaled;
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Spot ticks -> perp ticks, rounded up (`up`) or down to the perp tick. */
export function convertTicks(spot: InstrumentSpec, perp: InstrumentSpec, ticks: number, up: boolean): number {
  const num = BigInt(ticks) * spot.tickUnits * pow10(perp.priceDecimals);
  const den = perp.tickUnits * pow10(spot.priceDecimals);
  return Number(up ? (num + den - 1n) / den : num / den);
}

/** Spot lots -> whole perp lots (rounded down). */
export function convertLots(spot: InstrumentSpec, perp: InstrumentSpec, lots: number): number {
  return Number(
    (BigInt(lots) * spot.lotUnits * pow10(perp.qtyDecimals)) / (perp.lotUnits * pow10(spot.qtyDecimals)),
  );
}

export function venueBook(venue: PaperVenue): PerpBook {
  return {
    levels(contract, takerSide, n) {
      const spot = venue.spec(contract.symbol);
      const vb = venue.book(contract.symbol);
      if (spot === undefined || vb === undefined) return [];
      const buy = takerSide === "BUY";
      const out: Array<[number, number]> = [];
      for (const [p, q] of vb.book.depth(buy ? Side.Sell : Side.Buy, n)) {
        const ticks = convertTicks(spot, contract.instrument, p, buy);
        const lots = convertLots(spot, contract.instrument, q);
        if (ticks <= 0 || lots <= 0) continue;
        const last = out[out.length - 1];
        if (last !== undefined && last[0] === ticks) last[1] += lots;
        else out.push([ticks, lots]);
      }
      return out;
    },
    top(contract) {
      const spot = venue.spec(contract.symbol);
      const vb = venue.book(contract.symbol);
      if (spot === undefined || vb === undefined) return { bid: 0, ask: 0 };
      const t = vb.book.top();
      return {
        bid: t.bid === 0 ? 0 : convertTicks(spot, contract.instrument, t.bid, false),
        ask: t.ask === 0 ? 0 : convertTicks(spot, contract.instrument, t.ask, true),
      };
    },
    index(contract) {
      const spot = venue.spec(contract.symbol);
      const last = venue.lastTicks(contract.symbol);
      if (spot === undefined || last <= 0) return 0;
      const down = convertTicks(spot, contract.instrument, last, false);
      return Math.max(down, 0);
    },
    onPrice: (listener) => venue.onPrice(listener),
    tradable: (symbol) => venue.tradable?.(symbol) !== false,
    exchange(contract) {
      const q = venue.perpQuote?.(contract.symbol);
      if (q === undefined) return undefined;
      return {
        mark: perpTicks(contract, q.mark),
        index: perpTicks(contract, q.index),
        rateE8: rateE8(q.fundingRate),
        nextFundingTime: q.nextFundingTime,
      };
    },
  };
}
