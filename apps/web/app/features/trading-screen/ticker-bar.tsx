import type { MarketSymbolInfo } from "@meridian/contracts";
import { compare, formatCompact, formatDecimal } from "@meridian/domain";
import { useTranslation } from "react-i18next";
import { FeedBadge } from "./feed-status.tsx";
import type { FrameStore } from "./frame-store.ts";
import { SymbolSwitcher } from "./symbol-switcher.tsx";
import { type LinkState, type MarketStore, useLinkStatus, useTicker } from "./use-market.ts";

interface TickerBarProps {
  info: MarketSymbolInfo;
  market: MarketStore;
  symbols: readonly MarketSymbolInfo[];
  link: FrameStore<LinkState>;
  hrefFor: (symbol: string) => string;
  /** Simulation badge or call to action, at the end of the bar. */
  extra?: React.ReactNode;
  /** Under the pair instead of the coin's name (SymbolSwitcher). */
  subtitle?: string | undefined;
}

/** The symbol (opening the switcher), last price and the 24 h figures. */
export function TickerBar({ info, market, symbols, link, hrefFor, extra, subtitle }: TickerBarProps) {
  const { t } = useTranslation("trade");
  const ticker = useTicker(market, info.symbol);
  const status = useLinkStatus(link);
  const up = ticker ? compare(ticker.priceChange, "0") >= 0 : true;
  const dir = up ? "is-up" : "is-down";
  const stat = (label: string, value: string, testId?: string) => (
    <div className="trade-stat" data-testid={testId}>
      <span>{label}</span>
      <strong>
        <bdi dir="ltr">{value}</bdi>
      </strong>
    </div>
  );
  return (
    <section className="trade-panel trade-bar" aria-label={t("bar.title")}>
      <SymbolSwitcher
        current={info}
        symbols={symbols}
        market={market}
        hrefFor={hrefFor}
        subtitle={subtitle}
      />
      <div className={`trade-bar-last ${dir}`} data-testid="ticker-last">
        <strong>{ticker ? formatDecimal(ticker.lastPrice, info.priceDecimals) : "--"}</strong>
        <span className="trade-live" data-status={status} title={t(`bar.status.${status}`)}>
          <i aria-hidden="true" />
          <span className="trade-visually-hidden">{t(`bar.status.${status}`)}</span>
        </span>
        <FeedBadge symbol={info.symbol} />
      </div>
      <div className="trade-bar-stats">
        {stat(
          t("bar.change"),
          ticker
            ? `${up ? "+" : ""}${formatDecimal(ticker.priceChange, info.priceDecimals)} ${up ? "+" : ""}${formatDecimal(ticker.priceChangePercent, 2)}%`
            : "--",
          "ticker-change",
        )}
        {stat(t("bar.high"), ticker ? formatDecimal(ticker.highPrice, info.priceDecimals) : "--")}
        {stat(t("bar.low"), ticker ? formatDecimal(ticker.lowPrice, info.priceDecimals) : "--")}
        {stat(t("bar.volumeBase", { asset: info.base }), ticker ? formatCompact(ticker.volume) : "--")}
        {stat(t("bar.volumeQuote", { asset: info.quote }), ticker ? formatCompact(ticker.quoteVolume) : "--")}
      </div>
      {extra ? <div className="trade-bar-extra">{extra}</div> : null}
    </section>
  );
}
