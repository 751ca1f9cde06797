import { type MarketListing, tokenListing } from "@meridian/domain";
import type { Queryable } from "../../platform/db/types.ts";

/** A published airdrop whose token has listed: what the market needs to list its pair. */
export interface ListedToken {
  symbol: string;
  ticker: string;
  name: string;
  price: string;
  marketCap: string;
  listingAt: number;
}

/**
 * Airdrops whose listing date has passed, with a ticker and a price above zero. The pair
 * is the stored market symbol, or `{TICKER}USDT` when none was stored (an airdrop that
 * listed after it was written).
 */
export async function listedTokens(db: Queryable, now: number): Promise<ListedToken[]> {
  const rows = await db.all<{
    ticker: string;
    name: string;
    market_symbol: string;
    seed_price: string;
    market_cap: string;
    listing_at: number | string;
  }>(
    `SELECT ticker, name, market_symbol, seed_price, market_cap, listing_at FROM airdrops
     WHERE published = 1 AND ticker <> '' AND listing_at IS NOT NULL AND listing_at <= ?
     ORDER BY listing_at, id`,
    [now],
  );
  return rows.map((r) => ({
    symbol: r.market_symbol || `${r.ticker.toUpperCase()}USDT`,
    ticker: r.ticker.toUpperCase(),
    name: r.name,
    price: r.seed_price,
    marketCap: r.market_cap,
    listingAt: Number(r.listing_at),
  }));
}

/** The USDT spot pairs of the listed tokens, anchored at each airdrop's current price. */
export async function listedTokenPairs(db: Queryable, now: number): Promise<MarketListing[]> {
  const out: MarketListing[] = [];
  for (const token of await listedTokens(db, now)) {
    if (token.symbol !== `${token.ticker}USDT`) continue;
    const listing = tokenListing({
      base: token.ticker,
      name: token.name,
      price: token.price,
      marketCap: token.marketCap,
    });
    if (listing) out.push(listing);
  }
  return out;
}
