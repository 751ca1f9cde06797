import type { AirdropNewsDetailResult } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate } from "../../ui/money.ts";
import { detailHref } from "./links.ts";
import { Breadcrumbs, Disclaimer, NewsList, RichText, textLangOf } from "./parts.tsx";

export interface AirdropNewsPageProps {
  locale: string;
  news: AirdropNewsDetailResult;
}

/** One news item (`/airdrops/news/<slug>`): headline, dates, summary, body, its airdrop, more news. */
export function AirdropNewsPage({ locale, news }: AirdropNewsPageProps) {
  const { t } = useTranslation("airdrops");
  const n = news.item;
  const changed = n.updatedAt > n.publishedAt;
  return (
    <div className="ad-page">
      <Breadcrumbs
        items={[
          { name: t("breadcrumb.home"), href: localizePath(locale, "/") },
          { name: t("breadcrumb.airdrops"), href: localizePath(locale, "/airdrops") },
          { name: t("breadcrumb.news"), href: `${localizePath(locale, "/airdrops")}#ad-news` },
          { name: n.title },
        ]}
      />
      <article className="ad-news-article" {...textLangOf(locale, n.contentLocale)}>
        <header>
          <h1 dir="auto">{n.title}</h1>
          <p className="ad-muted ad-news-dates">
            {t("news.published")}{" "}
            <time dateTime={new Date(n.publishedAt).toISOString()}>{formatDate(n.publishedAt, locale)}</time>
            {changed ? (
              <>
                {" · "}
                {t("news.updated")}{" "}
                <time dateTime={new Date(n.updatedAt).toISOString()}>{formatDate(n.updatedAt, locale)}</time>
              </>
            ) : null}
          </p>
          {n.summary ? (
            <p className="ad-lead" dir="auto">
              {n.summary}
            </p>
          ) : null}
        </header>
        <RichText html={n.body} />
        {n.airdropSlug && n.airdropName ? (
          <p>
            <Link to={detailHref(locale, n.airdropSlug)} className="shell-button shell-button-outline">
              {t("news.about", { name: n.airdropName })}
            </Link>
          </p>
        ) : null}
      </article>
      <section className="ad-section" aria-labelledby="ad-more-news">
        <h2 id="ad-more-news">{t("news.more")}</h2>
        <NewsList items={news.related} locale={locale} />
      </section>
      <Disclaimer locale={locale} />
    </div>
  );
}
