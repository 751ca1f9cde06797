import type { MarketCap, MarketSymbolInfo, Ticker } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { formatDecimal } from "@meridian/domain";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { useMounted } from "../trading-screen/use-mounted.ts";
import { COIN_FACTS } from "./coin-facts.ts";
import type { PairExtremes } from "./page.server.ts";

interface TradeInfoProps {
  locale: string;
  symbol: string;
  info: MarketSymbolInfo | null;
  symbols: readonly MarketSymbolInfo[];
  ticker: Ticker | null;
  cap: MarketCap | null;
  extremes: PairExtremes | null;
  /** Symbols with a perpetual contract (the futures link). */
  perpetuals: readonly string[];
}

/** Thousands separators on the integer part of a decimal string, any locale's digits kept Latin. */
function grouped(v: string): string {
  const [int = "0", frac] = v.split(".");
  const sign = int.startsWith("-") ? "-" : "";
  const digits = sign ? int.slice(1) : int;
  const withCommas = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${withCommas}${frac ? `.${frac}` : ""}`;
}

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="tinfo-stat">
      <dt>{label}</dt>
      <dd data-testid={testId}>
        <bdi dir="ltr">{value}</bdi>
      </dd>
    </div>
  );
}

/** /trade-info: the pair's information at phone width: description, supply, links, 24 h and all-time figures. */
export function TradeInfoPage({
  locale,
  symbol,
  info,
  symbols,
  ticker,
  cap,
  extremes,
  perpetuals,
}: TradeInfoProps) {
  const { t } = useTranslation("pages");
  const { t: tc } = useTranslation("coins");
  const mounted = useMounted();
  const base = info?.base ?? symbol;
  const facts = COIN_FACTS[base];
  const pd = info?.priceDecimals ?? 2;
  const price = (v: string | undefined) => (v === undefined ? "--" : grouped(formatDecimal(v, pd)));
  const day = (ms: number) => (mounted ? dayjs(ms).format("YYYY-MM-DD") : "--");
  const change = ticker?.priceChangePercent ?? "0";
  const down = change.startsWith("-");
  return (
    <main className="tinfo" data-testid="trade-info-page">
      <header className="tinfo-head">
        <label className="tinfo-switch">
          <span className="visually-hidden">{t("tradeInfo.pair")}</span>
          <select
            className="trade-select"
            value={symbol}
            data-testid="trade-info-symbol"
            onChange={(e) => {
              window.location.href = `${localizePath(locale, "/trade-info")}?symbol=${e.target.value}`;
            }}
          >
            {symbols.map((s) => (
              <option key={s.symbol} value={s.symbol}>
                {s.base}/{s.quote}
              </option>
            ))}
          </select>
        </label>
        <h1>
          {info?.name ?? symbol} <small>({base})</small>
        </h1>
        <p className="tinfo-price">
          <strong data-testid="trade-info-price">
            <bdi dir="ltr">{price(ticker?.lastPrice)}</bdi>
          </strong>{" "}
          <span className={down ? "is-down" : "is-up"}>
            <bdi dir="ltr">
              {down ? "" : "+"}
              {change}%
            </bdi>
          </span>
        </p>
      </header>

      <section aria-labelledby="tinfo-24h">
        <h2 id="tinfo-24h">{t("tradeInfo.day")}</h2>
        <dl className="tinfo-grid">
          <Stat label={t("tradeInfo.high")} value={price(ticker?.highPrice)} testId="trade-info-high" />
          <Stat label={t("tradeInfo.low")} value={price(ticker?.lowPrice)} />
          <Stat
            label={t("tradeInfo.volume", { base })}
            value={ticker ? grouped(formatDecimal(ticker.volume, info?.qtyDecimals ?? 4)) : "--"}
          />
          <Stat
            label={t("tradeInfo.turnover")}
            value={ticker ? `${grouped(formatDecimal(ticker.quoteVolume, 2))} USDT` : "--"}
          />
        </dl>
      </section>

      <section aria-labelledby="tinfo-all">
        <h2 id="tinfo-all">{t("tradeInfo.allTime")}</h2>
        <dl className="tinfo-grid">
          <Stat
            label={t("tradeInfo.ath")}
            value={extremes ? `${price(extremes.high)} · ${day(extremes.highTime)}` : "--"}
            testId="trade-info-ath"
          />
          <Stat
            label={t("tradeInfo.atl")}
            value={extremes ? `${price(extremes.low)} · ${day(extremes.lowTime)}` : "--"}
          />
        </dl>
        {extremes ? (
          <p className="tinfo-note">{t("tradeInfo.since", { date: day(extremes.since) })}</p>
        ) : null}
      </section>

      <section aria-labelledby="tinfo-supply">
        <h2 id="tinfo-supply">{t("tradeInfo.supply")}</h2>
        <dl className="tinfo-grid">
          <Stat
            label={t("tradeInfo.marketCap")}
            value={cap ? `${grouped(formatDecimal(cap.marketCap, 0))} USDT` : "--"}
          />
          <Stat label={t("tradeInfo.rank")} value={cap ? `#${cap.rank}` : "--"} />
          <Stat
            label={t("tradeInfo.circulating")}
            value={cap ? `${grouped(cap.circulatingSupply)} ${base}` : "--"}
            testId="trade-info-circulating"
          />
          <Stat
            label={t("tradeInfo.maxSupply")}
            value={facts?.maxSupply ? `${grouped(facts.maxSupply)} ${base}` : t("tradeInfo.noCap")}
          />
        </dl>
      </section>

      <section aria-labelledby="tinfo-about">
        <h2 id="tinfo-about">{t("tradeInfo.about", { name: info?.name ?? base })}</h2>
        <p data-testid="trade-info-description">{tc(base, { defaultValue: "" })}</p>
        {facts ? (
          <>
            <p className="tinfo-note">{t("tradeInfo.launched", { year: String(facts.launched) })}</p>
            <ul className="tinfo-links" data-testid="trade-info-links">
              <li>
                <a href={facts.website} target="_blank" rel="noopener noreferrer">
                  {t("tradeInfo.website")}
                </a>
              </li>
              <li>
                <a href={facts.whitepaper} target="_blank" rel="noopener noreferrer">
                  {t("tradeInfo.whitepaper")}
                </a>
              </li>
              <li>
                <a href={facts.explorer} target="_blank" rel="noopener noreferrer">
                  {t("tradeInfo.explorer")}
                </a>
              </li>
            </ul>
          </>
        ) : null}
        <p className="tinfo-note">{t("tradeInfo.disclaimer")}</p>
      </section>

      <nav className="tinfo-actions" aria-label={t("tradeInfo.trade")}>
        <a className="assets-button is-primary" href={localizePath(locale, `/trade-spot/${symbol}`)}>
          {t("tradeInfo.spot")}
        </a>
        {perpetuals.includes(symbol) ? (
          <a className="assets-button" href={localizePath(locale, `/trade-swap/${symbol}`)}>
            {t("tradeInfo.futures")}
          </a>
        ) : null}
      </nav>
    </main>
  );
}
