import type { AirdropHomeResult, AirdropSummary, ContentPageResult, PopularCoin } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatCompactUsd, formatFiat, formatMoney } from "../../ui/money.ts";
import { useFiat } from "../shell/fiat.tsx";
import { BuyPrompt, SignupField } from "./buy-prompt.tsx";
import { Faq } from "./faq.tsx";
import { detailHref, spotHref } from "./links.ts";
import { Breadcrumbs, CoinAvatar, Disclaimer, NewsList, StatusTag, textLangOf } from "./parts.tsx";

export interface AirdropHomeProps {
  locale: string;
  home: AirdropHomeResult;
  /** The written texts: heading, introduction and FAQ (docs/content.md). */
  page: ContentPageResult;
}

/** Airdrop home (docs/product.md §2): title, description, popular coins, news, this year's predictions, FAQ of 8. */
export function AirdropHomePage({ locale, home, page }: AirdropHomeProps) {
  const { t } = useTranslation("airdrops");
  const textLang = textLangOf(locale, page.contentLocale);
  return (
    <div className="ad-page">
      <Breadcrumbs
        items={[
          { name: t("breadcrumb.home"), href: localizePath(locale, "/") },
          { name: t("breadcrumb.airdrops") },
        ]}
      />
      <header className="ad-hero">
        <div>
          <h1 {...textLang}>{page.title}</h1>
          <p className="ad-lead" {...textLang}>
            {page.description}
          </p>
          <ul className="ad-counts">
            {(["active", "upcoming", "closed"] as const).map((s) => (
              <li key={s}>
                <Link to={`${localizePath(locale, "/airdrops/list")}?status=${s}`}>
                  <strong>{home.counts[s]}</strong> {t(`status.${s}`)}
                </Link>
              </li>
            ))}
          </ul>
          <Link
            className="shell-button shell-button-primary shell-button-lg"
            to={localizePath(locale, "/airdrops/list")}
          >
            {t("home.seeAll")}
          </Link>
        </div>
        <SignupField locale={locale} />
      </header>

      <section className="ad-section" aria-labelledby="ad-featured">
        <h2 id="ad-featured">{t("home.featured")}</h2>
        <ul className="ad-cards">
          {home.featured.map((a) => (
            <FeaturedCard key={a.slug} airdrop={a} locale={locale} />
          ))}
        </ul>
      </section>

      <div className="ad-columns">
        <PopularCoins coins={home.popular} locale={locale} />
        <section className="ad-section" aria-labelledby="ad-news">
          <h2 id="ad-news">{t("home.news")}</h2>
          <NewsList items={home.news} locale={locale} />
        </section>
      </div>

      <Predictions airdrops={home.featured} locale={locale} year={new Date(home.now).getUTCFullYear()} />
      <Faq id="ad-faq" title={t("home.faq")} items={page.faq} textLang={textLang} />
      <BuyPrompt locale={locale} symbol="BTCUSDT" listingAt={null} />
      <Disclaimer locale={locale} />
    </div>
  );
}

function FeaturedCard({ airdrop: a, locale }: { airdrop: AirdropSummary; locale: string }) {
  const { t } = useTranslation("airdrops");
  const { fiat } = useFiat();
  return (
    <li className="ad-card">
      <div className="ad-card-head">
        <CoinAvatar ticker={a.ticker} image={a.images?.logo} />
        <div>
          <h3>
            <Link to={detailHref(locale, a.slug)}>{a.name}</Link>
          </h3>
          <span className="ad-muted">
            {a.ticker} · {a.chain}
          </span>
        </div>
        <StatusTag status={a.status} />
      </div>
      <p className="ad-card-text" lang={textLangOf(locale, a.textLocale).lang} dir="auto">
        {a.description}
      </p>
      <dl className="ad-card-facts">
        <div>
          <dt>{t("columns.estValue")}</dt>
          <dd>{formatFiat(a.estValue, fiat, locale)}</dd>
        </div>
        <div>
          <dt>{a.status === "upcoming" ? t("columns.startAt") : t("detail.countdown")}</dt>
          <dd>{a.status === "upcoming" ? t("detail.soon") : t("detail.daysLeft", { count: a.daysLeft })}</dd>
        </div>
      </dl>
    </li>
  );
}

function PopularCoins({ coins, locale }: { coins: PopularCoin[]; locale: string }) {
  const { t } = useTranslation("airdrops");
  const { fiat } = useFiat();
  return (
    <section className="ad-section" aria-labelledby="ad-popular">
      <h2 id="ad-popular">{t("home.popular")}</h2>
      <table className="ad-coins">
        <caption className="ad-muted">{t("home.popularCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("popular.coin")}</th>
            <th scope="col">{t("popular.price")}</th>
            <th scope="col">{t("popular.change")}</th>
            <th scope="col" className="ad-hide-phone">
              {t("popular.marketCap")}
            </th>
          </tr>
        </thead>
        <tbody>
          {coins.map((c) => (
            <tr key={c.symbol}>
              <th scope="row">
                {c.marketSymbol ? (
                  <Link to={spotHref(locale, c.marketSymbol)} className="ad-coin">
                    <CoinAvatar ticker={c.symbol} size={24} />
                    <span>{c.name}</span> <span className="ad-muted">{c.symbol}</span>
                  </Link>
                ) : (
                  <span className="ad-coin">
                    <CoinAvatar ticker={c.symbol} size={24} />
                    <span>{c.name}</span> <span className="ad-muted">{c.symbol}</span>
                  </span>
                )}
              </th>
              <td>{formatFiat(c.price, fiat, locale)}</td>
              <td className={c.change24h.startsWith("-") ? "ad-down" : "ad-up"}>
                {c.change24h.startsWith("-") ? "" : "+"}
                {c.change24h}%
              </td>
              <td className="ad-hide-phone">{formatCompactUsd(c.marketCap, fiat, locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Predictions({
  airdrops,
  locale,
  year,
}: {
  airdrops: AirdropSummary[];
  locale: string;
  year: number;
}) {
  const { t } = useTranslation("airdrops");
  return (
    <section className="ad-section" aria-labelledby="ad-prediction">
      <h2 id="ad-prediction">{t("home.prediction", { year })}</h2>
      <p>{t("home.predictionIntro")}</p>
      <ul className="ad-predictions">
        {airdrops.map((a) => (
          <li key={a.slug}>
            <Link to={detailHref(locale, a.slug)}>
              {a.name} ({a.ticker})
            </Link>
            <span>
              {t("detail.predictionLabel")}: <strong>{formatMoney(a.predictedPrice, "USD", locale)}</strong>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
