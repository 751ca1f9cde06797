import type { MarketSymbolInfo } from "@meridian/contracts";
import {
  COIN_PERP_CONTRACTS,
  type CoinPerpContract,
  coinPerpContract,
  PERP_CONTRACTS,
} from "@meridian/domain";

/** The two margin families of the futures pages: `/futures/usdt/:symbol` and `/futures/coin/:symbol`. */
export type MarginFamily = "usdt" | "coin";

/** The coin-margined family's default page (bare `/futures/coin` goes there). */
export const DEFAULT_COIN_FUTURES_PATH = "/futures/coin/BTCUSD";

const USDT_SYMBOLS = new Set(PERP_CONTRACTS.map((c) => c.symbol));

/** The page of `family` for the coin `base` (its own contract when listed, else the family's first). */
export function familyPath(family: MarginFamily, base: string): string {
  if (family === "usdt") {
    const s = `${base}USDT`;
    return `/futures/usdt/${USDT_SYMBOLS.has(s) ? s : "BTCUSDT"}`;
  }
  const c = coinPerpContract(`${base}USD`);
  return c ? `/futures/coin/${c.symbol}` : DEFAULT_COIN_FUTURES_PATH;
}

/**
 * The spot market a coin-margined contract's screen shows (chart, book, trades): the
 * coin against USDT, the market its index follows.
 */
export const coinMarketOf = (c: CoinPerpContract): string => `${c.base}USDT`;

/** Every coin-margined contract's spot market. */
export const COIN_MARKETS: ReadonlySet<string> = new Set(COIN_PERP_CONTRACTS.map(coinMarketOf));

/** The coin-margined contract whose spot market is `market` (BTCUSDT -> BTCUSD). */
export function coinContractOfMarket(market: string): CoinPerpContract | undefined {
  return COIN_PERP_CONTRACTS.find((c) => coinMarketOf(c) === market);
}

/**
 * The market half's symbol info on a coin-margined screen: the spot market's, priced in
 * USD; for a coin with no spot market, one made from the contract (the half stays empty).
 */
export function coinScreenInfo(c: CoinPerpContract, spot: MarketSymbolInfo | undefined): MarketSymbolInfo {
  if (spot) return { ...spot, quote: c.quote };
  return coinOrderInfo(c, undefined, coinMarketOf(c));
}

/**
 * The order panel's symbol info for a coin-margined contract: its symbol (BTCUSD), tick,
 * and whole contracts as the quantity.
 */
export function coinOrderInfo(
  c: CoinPerpContract,
  screen: MarketSymbolInfo | undefined,
  symbol = c.symbol,
): MarketSymbolInfo {
  const spec = c.instrument;
  return {
    symbol,
    base: c.base,
    quote: c.quote,
    name: screen?.name ?? c.base,
    tickSize: spec.tickSize,
    lotSize: "1",
    minNotional: "0",
    priceDecimals: spec.priceDecimals,
    qtyDecimals: 0,
    minQty: "1",
    maxQty: String(spec.maxQtyLots),
    status: "TRADING",
  };
}
