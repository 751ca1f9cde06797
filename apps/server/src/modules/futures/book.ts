import {
  type AnyPerpContract,
  anyPerpContract,
  type InstrumentSpec,
  type MirrorLevel,
  parseScaled,
  Side,
  spotSymbolOf,
} from "@meridian/domain";
import type { PaperVenue } from "../paper/index.ts";

/**
 * The market module's spot books seen in a perpetual's units. Futures orders take the
 * maker's quotes at their prices without consuming them (the paper market maker is the
 * counterparty of every futures fill; see README "Choices"), so a futures order never
 * touches the spot book's orders or ids. A perpetual follows its base's USDT pair
 * (`spotSymbolOf`): BTCUSDT and BTCUSD both follow BTCUSDT, a coin-M contract's sizes in
 * whole contracts (the USD value of the level's coins / contract value, rounded down).
 */
export interface PerpBook {
  /** Opposite-side levels for a taker, best first: [perp ticks, perp lots]. */
  levels(contract: AnyPerpContract, takerSide: "BUY" | "SELL", n: number): Array<[number, number]>;
  /** Best bid and ask in perp ticks (0 when the side is empty). */
  top(contract: AnyPerpContract): { bid: number; ask: number };
  /** Index price (the spot last price) in perp ticks; 0 when unknown. */
  index(contract: AnyPerpContract): number;
  onPrice(listener: (symbol: string) => void): () => void;
  /** False while the live market data of the pair a perpetual follows is unavailable (new orders are refused). */
  tradable?(symbol: string): boolean;
  /** A live exchange's mark and index (perp ticks) and funding (rate in 1e-8, next time), when known. */
  exchange?(contract: AnyPerpContract): ExchangeMarks | undefined;
  /**
   * True when a live exchange's book is mirrored for the perpetual's pair: its orders then
   * walk the book as the exchange shows it and rest in the exchange's queue
   * (`PerpMirror`, docs/trading.md); absent: never.
   */
  mirrored?(contract: AnyPerpContract): boolean;
  /** The spec of the pair the perpetual follows (`spotSymbolOf`). */
  pairSpec?(contract: AnyPerpContract): InstrumentSpec | undefined;
  /** The pair's book as the exchange displays it (spot units, no paper orders); undefined while unknown. */
  shown?(contract: AnyPerpContract): ShownPairBook | undefined;
  /** Calls `listener(pair)` after each book a live feed mirrored for a pair (and when one is withdrawn). */
  onShownBook?(listener: (pair: string) => void): () => void;
  /**
   * Calls `listener` with each batch of a pair's printed trades, [spot ticks, spot lots] in
   * time order, and when the exchange printed each (`times`, ms).
   */
  onExchangeTrades?(
    listener: (pair: string, trades: readonly MirrorLevel[], times: readonly number[]) => void,
  ): () => void;
}

/** A mirrored pair's book as the exchange displays it: its spec and levels per side, best first. */
export interface ShownPairBook {
  readonly spec: InstrumentSpec;
  readonly bids: readonly MirrorLevel[];
  readonly asks: readonly MirrorLevel[];
}

export interface ExchangeMarks {
  readonly mark: number | undefined;
  readonly index: number | undefined;
  readonly rateE8: bigint | undefined;
  readonly nextFundingTime: number | undefined;
}

/** A decimal price in the contract's ticks, to the nearest tick; undefined when absent or not positive. */
function perpTicks(contract: AnyPerpContract, text: string | undefined): number | undefined {
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

/** Spot lots at spot ticks -> whole contracts of a coin-M perpetual (their USD value / contract value, rounded down). */
export function convertToContracts(
  spot: InstrumentSpec,
  contractValue: string,
  ticks: number,
  lots: number,
): number {
  const num = BigInt(lots) * spot.lotUnits * BigInt(ticks) * spot.tickUnits;
  const den = pow10(spot.qtyDecimals + spot.priceDecimals) * BigInt(contractValue);
  return Number(num / den);
}

export function venueBook(venue: PaperVenue): PerpBook {
  return {
    levels(contract, takerSide, n) {
      const pair = spotSymbolOf(contract);
      const spot = venue.spec(pair);
      const vb = venue.book(pair);
      if (spot === undefined || vb === undefined) return [];
      const buy = takerSide === "BUY";
      const out: Array<[number, number]> = [];
      for (const [p, q] of vb.book.depth(buy ? Side.Sell : Side.Buy, n)) {
        const ticks = convertTicks(spot, contract.instrument, p, buy);
        const lots =
          contract.family === "coin"
            ? convertToContracts(spot, contract.contractValue, p, q)
            : convertLots(spot, contract.instrument, q);
        if (ticks <= 0 || lots <= 0) continue;
        const last = out[out.length - 1];
        if (last !== undefined && last[0] === ticks) last[1] += lots;
        else out.push([ticks, lots]);
      }
      return out;
    },
    top(contract) {
      const spot = venue.spec(spotSymbolOf(contract));
      const vb = venue.book(spotSymbolOf(contract));
      if (spot === undefined || vb === undefined) return { bid: 0, ask: 0 };
      const t = vb.book.top();
      return {
        bid: t.bid === 0 ? 0 : convertTicks(spot, contract.instrument, t.bid, false),
        ask: t.ask === 0 ? 0 : convertTicks(spot, contract.instrument, t.ask, true),
      };
    },
    index(contract) {
      const spot = venue.spec(spotSymbolOf(contract));
      const last = venue.lastTicks(spotSymbolOf(contract));
      if (spot === undefined || last <= 0) return 0;
      const down = convertTicks(spot, contract.instrument, last, false);
      return Math.max(down, 0);
    },
    onPrice: (listener) => venue.onPrice(listener),
    // A perpetual trades while the pair it follows is live (BTCUSD on BTCUSDT's book).
    tradable: (symbol) => {
      const c = anyPerpContract(symbol);
      return venue.tradable?.(c === undefined ? symbol : spotSymbolOf(c)) !== false;
    },
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
    mirrored: (contract) => venue.mirrored?.(spotSymbolOf(contract)) === true,
    pairSpec: (contract) => venue.spec(spotSymbolOf(contract)),
    shown(contract) {
      const pair = spotSymbolOf(contract);
      const spec = venue.spec(pair);
      const shown = venue.shownBook?.(pair);
      return spec === undefined || shown === undefined
        ? undefined
        : { spec, bids: shown.bids, asks: shown.asks };
    },
    onShownBook: (listener) => venue.onBook?.(listener) ?? (() => {}),
    onExchangeTrades: (listener) => venue.onExchangeTrades?.(listener) ?? (() => {}),
  };
}
