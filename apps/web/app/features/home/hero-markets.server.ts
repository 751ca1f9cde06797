import { isSuccessCode, MarketPath, type Ticker } from "@meridian/contracts";
import { compare, decimalsOf, formatDecimal, MARKET_LISTINGS, mul } from "@meridian/domain";
import type { ServerContext } from "../../server-context.ts";
import { changeText, type HeroCoin } from "./hero-feed.ts";

/** The spec's popular cryptocurrencies: the top 8 by market cap. */
const COUNT = 8;

/**
 * The listed coins with the largest market cap (circulating supply x last price), with
 * their last price and 24 h change, read in process for the home hero's first paint.
 * Empty when the market does not answer: the hero then shows its text alone.
 */
export async function loadHeroCoins(server: ServerContext | undefined): Promise<HeroCoin[]> {
  if (!server) return [];
  let tickers: Ticker[] = [];
  try {
    const answer = await server.api<Ticker[]>(MarketPath.TICKERS);
    if (isSuccessCode(answer.code)) tickers = answer.data;
  } catch {
    return [];
  }
  const bySymbol = new Map(tickers.map((t) => [t.symbol, t]));
  const coins: Array<HeroCoin & { cap: string }> = [];
  for (const l of MARKET_LISTINGS) {
    const symbol = String(l.instrument.symbol);
    const t = bySymbol.get(symbol);
    if (!t) continue;
    const decimals = decimalsOf(l.instrument.tickSize);
    coins.push({
      symbol,
      base: l.instrument.base,
      name: l.name,
      price: formatDecimal(t.lastPrice, decimals),
      change: changeText(t.priceChangePercent, formatDecimal),
      decimals,
      cap: mul(l.circulatingSupply, t.lastPrice),
    });
  }
  coins.sort((a, b) => compare(b.cap, a.cap));
  return coins.slice(0, COUNT).map(({ cap: _cap, ...coin }) => coin);
}
