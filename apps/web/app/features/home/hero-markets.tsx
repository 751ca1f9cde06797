import { localizePath } from "@meridian/contracts/locales";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useIslandsPage } from "../shell/islands.ts";
import { followHeroPrices, type HeroCoin, type HeroQuote } from "./hero-feed.ts";

export type { HeroCoin } from "./hero-feed.ts";

/**
 * The hero's popular cryptocurrencies: server-rendered prices, then live from the market
 * socket (`ticker@SYMBOL`), each a link to its spot page. Without hydration the islands
 * bundle follows the same socket (app/islands/markets.ts) with each row's `data-decimals`.
 */
export function HeroMarkets({ coins, locale }: { coins: HeroCoin[]; locale: string }) {
  const { t } = useTranslation("home");
  const islands = useIslandsPage();
  const [live, setLive] = useState<Record<string, HeroQuote>>({});
  useEffect(
    () => followHeroPrices(coins, (symbol, quote) => setLive((prev) => ({ ...prev, [symbol]: quote }))),
    [coins],
  );
  if (coins.length === 0) return null;
  return (
    <aside className="home-markets" aria-labelledby="home-markets-title" data-testid="home-markets">
      <h2 id="home-markets-title">{t("markets.title")}</h2>
      <ul>
        {coins.map((c) => {
          const now = live[c.symbol] ?? { price: c.price, change: c.change };
          const down = now.change.startsWith("-");
          return (
            <li
              key={c.symbol}
              className="home-markets-item"
              data-symbol={c.symbol}
              data-decimals={islands ? c.decimals : undefined}
            >
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
