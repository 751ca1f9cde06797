import type { Ticker } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

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

/** The change as shown: two decimals, a plus sign when not negative. */
export const changeText = (percent: string, format: (v: string, d: number) => string) =>
  `${percent.startsWith("-") ? "" : "+"}${format(percent, 2)}`;

/**
 * The hero's popular cryptocurrencies: server-rendered prices, then live from the market
 * socket (`ticker@SYMBOL`), each a link to its spot page.
 */
export function HeroMarkets({ coins, locale }: { coins: HeroCoin[]; locale: string }) {
  const { t } = useTranslation("home");
  const [live, setLive] = useState<Record<string, { price: string; change: string }>>({});
  // The socket and the formatter load after paint: the home page's first-load script has a budget.
  useEffect(() => {
    if (coins.length === 0) return undefined;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void Promise.all([import("../trading-screen/market-feed.ts"), import("@meridian/domain/decimal")]).then(
      ([{ MarketFeed }, { formatDecimal }]) => {
        if (cancelled) return;
        const feed = new MarketFeed();
        const offs = coins.map((c) =>
          feed.on(`ticker@${c.symbol}`, (data) => {
            const tk = data as Ticker;
            const next = {
              price: formatDecimal(tk.lastPrice, c.decimals),
              change: changeText(tk.priceChangePercent, formatDecimal),
            };
            setLive((prev) => ({ ...prev, [c.symbol]: next }));
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
  }, [coins]);
  if (coins.length === 0) return null;
  return (
    <aside className="home-markets" aria-labelledby="home-markets-title" data-testid="home-markets">
      <h2 id="home-markets-title">{t("markets.title")}</h2>
      <ul>
        {coins.map((c) => {
          const now = live[c.symbol] ?? { price: c.price, change: c.change };
          const down = now.change.startsWith("-");
          return (
            <li key={c.symbol} className="home-markets-item" data-symbol={c.symbol}>
              <Link className="home-markets-row" to={localizePath(locale, `/spot/${c.symbol}`)}>
                <span className="home-markets-coin">
                  <strong>{c.base}</strong> <span>{c.name}</span>
                </span>
                <bdi dir="ltr" className="home-markets-price" data-testid="home-market-price">
                  {now.price}
                </bdi>
                <bdi dir="ltr" className={down ? "home-markets-change is-down" : "home-markets-change is-up"}>
                  {now.change}%
                </bdi>
              </Link>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
