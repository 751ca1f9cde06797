import type { Ticker } from "@meridian/contracts";

/** One popular coin as the hero shows it, formatted on the server; `decimals` is its pair's tick. */
export interface HeroCoin {
  symbol: string;
  base: string;
  name: string;
  /** Grouped at the pair's tick ("97,012.05"). */
  price: string;
  /** 24 h change, percent with two decimals and its sign ("+1.25", "-0.40"). */
  change: string;
  decimals: number;
}

/** A coin's live figures, formatted as the server formats them. */
export type HeroQuote = Pick<HeroCoin, "price" | "change">;

/** The change as shown: two decimals, a plus sign when not negative. */
export const changeText = (percent: string, format: (v: string, d: number) => string) =>
  `${percent.startsWith("-") ? "" : "+"}${format(percent, 2)}`;

/**
 * The hero's live prices from the market socket (`ticker@SYMBOL`), for the hydrated hero
 * (hero-markets.tsx) and the island of the page without hydration (app/islands/markets.ts).
 * React-free; the socket and the formatter load here, after the page is up (the home
 * page's first-load script has a budget). Returns the stop, which also cancels a start
 * still loading.
 */
export function followHeroPrices(
  coins: readonly Pick<HeroCoin, "symbol" | "decimals">[],
  onQuote: (symbol: string, quote: HeroQuote) => void,
): () => void {
  if (coins.length === 0) return () => {};
  let stop: (() => void) | null = null;
  let cancelled = false;
  void Promise.all([import("../trading-screen/market-feed.ts"), import("@meridian/domain/decimal")]).then(
    ([{ MarketFeed }, { formatDecimal }]) => {
      if (cancelled) return;
      const feed = new MarketFeed();
      const offs = coins.map((c) =>
        feed.on(`ticker@${c.symbol}`, (data) => {
          const tk = data as Ticker;
          onQuote(c.symbol, {
            price: formatDecimal(tk.lastPrice, c.decimals),
            change: changeText(tk.priceChangePercent, formatDecimal),
          });
        }),
      );
      feed.start();
      stop = () => {
        for (const off of offs) off();
        feed.stop();
      };
    },
  );
  return () => {
    cancelled = true;
    stop?.();
  };
}
