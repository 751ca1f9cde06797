import type { MarketSymbolInfo } from "@meridian/contracts";
import { formatDecimal } from "@meridian/domain";
import { useTranslation } from "react-i18next";
import { clockTime } from "./clock.ts";
import { type MarketStore, useTrades } from "./use-market.ts";
import { useMounted } from "./use-mounted.ts";

/** The market's latest trades (at most `limit`): a buyer-taker trade green, a seller-taker trade red. */
export function RecentTrades({
  info,
  market,
  limit,
  hidden = false,
}: {
  info: MarketSymbolInfo;
  market: MarketStore;
  limit?: number | undefined;
  /** Behind another phone tab: the list stops following the stream until shown. */
  hidden?: boolean;
}) {
  const { t } = useTranslation("trade");
  const all = useTrades(market, info.symbol, hidden);
  const trades = limit === undefined ? all : all.slice(0, limit);
  const mounted = useMounted();
  return (
    <section className="trade-panel trade-trades" aria-label={t("trades.title")} data-testid="recent-trades">
      <header className="trade-panel-head">
        <h2>{t("trades.title")}</h2>
      </header>
      <div className="trade-trades-cols" aria-hidden="true">
        <span>{t("book.price", { asset: info.quote })}</span>
        <span>{t("book.amount", { asset: info.base })}</span>
        <span>{t("trades.time")}</span>
      </div>
      <ol className="trade-trades-list">
        {trades.map((tr) => (
          <li key={tr.id} className={tr.isBuyerMaker ? "is-down" : "is-up"}>
            <span className="trade-trades-price">{formatDecimal(tr.price, info.priceDecimals)}</span>
            <span>{formatDecimal(tr.qty, info.qtyDecimals)}</span>
            <span className="trade-muted">{mounted ? clockTime(tr.time) : "--:--:--"}</span>
          </li>
        ))}
        {trades.length === 0 ? <li className="trade-empty">{t("trades.empty")}</li> : null}
      </ol>
    </section>
  );
}
