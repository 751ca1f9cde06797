import { type InstrumentSpec, notionalMinor } from "../instrument.ts";
import type { PairUnits } from "./assets.ts";
import {
  incrementalFee,
  type JournalEntry,
  releaseEntry,
  type TradeParty,
  tradeEntry,
  type Wallet,
} from "./ledger.ts";

/**
 * Order-level accounting for paper trading: what an order holds when placed, how each
 * fill settles against that hold with maker/taker fees, and what is released when the
 * order is done. Pure; the order service and the property tests drive it with the
 * events of a real `OrderBook`.
 *
 * NOTE: a buy holds quote for price x quantity plus the taker fee on that, plus one
 * minor unit (at the higher of the maker and taker rates): fees are charged per liquidity role on the order's running notional
 * (`incrementalFee`), and the two roles' round-ups can exceed one round-up of the
 * whole by at most one unit. So no fill can ever take more than the order holds.
 */
export interface OrderFunds {
  readonly id: number;
  readonly accountId: number;
  /** 0 buy, 1 sell (the engine's `Side`). */
  readonly side: 0 | 1;
  readonly units: PairUnits;
  readonly makerPpm: number;
  readonly takerPpm: number;
  /** Where it holds and is paid (margin orders); the spot wallet when absent. */
  readonly wallet?: Wallet;
  /** What the order still holds: quote minor units for a buy, base for a sell. */
  held: bigint;
  /** Running quote notional filled as taker and as maker. */
  takerQuote: bigint;
  makerQuote: bigint;
  /** Fees paid so far (quote minor units). */
  fees: bigint;
  filledLots: number;
}

export function newOrderFunds(o: {
  id: number;
  accountId: number;
  side: 0 | 1;
  units: PairUnits;
  makerPpm: number;
  takerPpm: number;
  held: bigint;
  wallet?: Wallet;
}): OrderFunds {
  return { ...o, takerQuote: 0n, makerQuote: 0n, fees: 0n, filledLots: 0 };
}

const feeCeil = (n: bigint, ppm: number): bigint => (n * BigInt(ppm) + 999_999n) / 1_000_000n;

/** Quote minor units of `lots` at `ticks`. */
export function quoteOf(spec: InstrumentSpec, units: PairUnits, ticks: number, lots: number): bigint {
  return notionalMinor(spec, ticks, lots) * units.quoteFactor;
}

/** Base minor units of `lots`. */
export function baseOf(units: PairUnits, lots: number): bigint {
  return BigInt(lots) * units.baseFactor;
}

/**
 * The hold of a buy for `lots` at worst `ticks` (quote, with the fee at the higher of
 * the two rates), or of a sell (base).
 */
export function holdFor(
  spec: InstrumentSpec,
  units: PairUnits,
  side: 0 | 1,
  ticks: number,
  lots: number,
  rates: FeeRates,
): bigint {
  if (side === 1) return baseOf(units, lots);
  const quote = quoteOf(spec, units, ticks, lots);
  const ppm = Math.max(rates.makerPpm, rates.takerPpm);
  return quote + feeCeil(quote, ppm) + (ppm > 0 ? 1n : 0n);
}

export interface FillSide {
  /** The user's order, or null for the market maker. */
  readonly order: OrderFunds | null;
  readonly role: "maker" | "taker";
}

export interface SettledFill {
  readonly entry: JournalEntry;
  readonly baseAmount: bigint;
  readonly quoteAmount: bigint;
  readonly buyerFee: bigint;
  readonly sellerFee: bigint;
}

function charge(side: FillSide, quote: bigint): bigint {
  const o = side.order;
  if (o === null) return 0n;
  if (side.role === "taker") {
    const fee = incrementalFee(o.takerQuote, o.takerQuote + quote, o.takerPpm);
    o.takerQuote += quote;
    return fee;
  }
  const fee = incrementalFee(o.makerQuote, o.makerQuote + quote, o.makerPpm);
  o.makerQuote += quote;
  return fee;
}

/**
 * Settles one engine trade of `lots` at `ticks` between a buyer and a seller; updates
 * both orders' funds and returns the journal entry to apply.
 */
export function settleFill(
  spec: InstrumentSpec,
  units: PairUnits,
  ticks: number,
  lots: number,
  buyer: FillSide,
  seller: FillSide,
): SettledFill {
  const baseAmount = baseOf(units, lots);
  const quoteAmount = quoteOf(spec, units, ticks, lots);
  const buyerFee = charge(buyer, quoteAmount);
  const sellerFee = charge(seller, quoteAmount);
  const party = (s: FillSide, fee: bigint): TradeParty =>
    s.order === null
      ? { kind: "maker" }
      : s.order.wallet === undefined
        ? { kind: "user", accountId: s.order.accountId, fee }
        : { kind: "user", accountId: s.order.accountId, fee, wallet: s.order.wallet };
  if (buyer.order !== null) {
    buyer.order.held -= quoteAmount + buyerFee;
    buyer.order.fees += buyerFee;
    buyer.order.filledLots += lots;
  }
  if (seller.order !== null) {
    seller.order.held -= baseAmount;
    seller.order.fees += sellerFee;
    seller.order.filledLots += lots;
  }
  const entry = tradeEntry({
    base: units.base,
    quote: units.quote,
    baseAmount,
    quoteAmount,
    buyer: party(buyer, buyerFee),
    seller: party(seller, sellerFee),
  });
  return { entry, baseAmount, quoteAmount, buyerFee, sellerFee };
}

/** The release of what a finished order still holds (null when nothing is left). */
export function finishOrder(o: OrderFunds): JournalEntry | null {
  if (o.held === 0n) return null;
  const asset = o.side === 0 ? o.units.quote : o.units.base;
  const entry = releaseEntry(o.accountId, asset, o.held, o.wallet);
  o.held = 0n;
  return entry;
}

/** The fee rates an order pays (parts per million of the quote notional). */
export interface FeeRates {
  readonly makerPpm: number;
  readonly takerPpm: number;
}

/** A market buy's size: a lot count, or a quote total that the taker fee comes out of. */
export type MarketBuyWant = { lots: number } | { quote: bigint; rates: FeeRates };

/** A market buy planned: the lots it takes, the worst price reached, and what it holds. */
export interface MarketBuyPlan {
  lots: number;
  capTicks: number;
  /**
   * For a quote total, the quote minor units the order holds: at most the total (a lot
   * count holds `holdFor` its lots at the cap).
   */
  held?: bigint;
}

/**
 * The largest quote notional whose taker fee fits in `total` with it: q + ceil(q x r) <= T
 * holds exactly when q x (10^6 + ppm) <= T x 10^6 (T is whole).
 */
export function netOfTakerFee(total: bigint, takerPpm: number): bigint {
  return total <= 0n ? 0n : (total * 1_000_000n) / (1_000_000n + BigInt(takerPpm));
}

/**
 * A market buy planned on the ask ladder ([ticks, lots], best first): the lots a quote
 * total (or a lot count) buys, and the worst price reached. The order then runs as a
 * limit IOC at that price.
 *
 * The ladder is what the buyer fills against (the caller leaves its own resting asks
 * out: self-trade prevention expires them, `OrderBook.depth`), so the IOC fills exactly
 * the walk. A quote total is what the user spends, fee included, as on the large
 * exchanges. A market buy only takes, so it pays the taker rate on its whole notional
 * (`incrementalFee`): the walk takes, cheapest first, every lot whose notional with that
 * fee still fits the total. What is left is less than one more lot at the best ask the
 * buy left in the book, with its fee: the total is spent as far as the lot size allows.
 * The order holds the smaller of the total and every lot at the worst price with the fee
 * (`holdFor`), so no fill can take more than it holds, nor the user more than the total.
 */
export function planMarketBuy(
  spec: InstrumentSpec,
  units: PairUnits,
  asks: ReadonlyArray<readonly [number, number]>,
  want: MarketBuyWant,
): MarketBuyPlan | null {
  const budget = "quote" in want ? netOfTakerFee(want.quote, want.rates.takerPpm) : 0n;
  let lots = 0;
  let capTicks = 0;
  let spent = 0n;
  for (const [ticks, levelLots] of asks) {
    let take = levelLots;
    if ("lots" in want) take = Math.min(take, want.lots - lots);
    else {
      const perLot = quoteOf(spec, units, ticks, 1);
      const affordable = budget > spent ? (budget - spent) / perLot : 0n;
      if (affordable < BigInt(take)) take = Number(affordable);
    }
    if (take <= 0) break;
    lots += take;
    capTicks = ticks;
    spent += quoteOf(spec, units, ticks, take);
    if ("lots" in want && lots >= want.lots) break;
  }
  if (lots === 0) return null;
  if ("lots" in want) return { lots, capTicks };
  // Every lot at the worst price with its fee, unless that passes the total.
  let held = holdFor(spec, units, 0, capTicks, lots, want.rates);
  if (held > want.quote) held = want.quote;
  return { lots, capTicks, held };
}
