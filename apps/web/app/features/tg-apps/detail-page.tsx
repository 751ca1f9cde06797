import type { TgAppDetailResult } from "@meridian/contracts";
import { tgCategoryKey } from "@meridian/contracts/tg-app-rules";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ResponsiveImg } from "../../ui/responsive-img.tsx";
import { textLangOf } from "../seo/seo.ts";
import { AppRail } from "./app-card.tsx";
import { ArticleList } from "./article-list.tsx";
import { Disclaimer } from "./faq.tsx";
import { articlesHref, detailPath } from "./links.ts";
import { Breadcrumb } from "./parts.tsx";
import { RatingBlock } from "./rating.tsx";
import { ReadMore } from "./read-more.tsx";
import { Screenshots } from "./screenshots.tsx";

export interface DetailPageProps {
  locale: string;
  detail: TgAppDetailResult;
  languageNames: string[];
  updated: string;
  dates: Record<string, string>;
  loggedIn: boolean;
}

/** One app: header with Open, about, screenshots, ratings, information, articles and rails. */
export function DetailPage({ locale, detail, languageNames, updated, dates, loggedIn }: DetailPageProps) {
  const { t } = useTranslation("tgApps");
  const { app } = detail;
  const category = tgCategoryKey(app.category);
  const textLang = textLangOf(locale, app.contentLocale);
  return (
    <div className="tga-page">
      <Breadcrumb
        locale={locale}
        items={[
          { name: t("breadcrumb.home"), path: "/" },
          { name: t("breadcrumb.center"), path: "/telegram-apps" },
          { name: app.name },
        ]}
      />
      <header className="tga-app-head">
        {app.images?.logo ? (
          <ResponsiveImg
            className="tga-app-icon"
            image={app.images.logo}
            sizes="96px"
            alt=""
            width={96}
            height={96}
            eager
          />
        ) : (
          <img className="tga-app-icon" src={app.iconUrl} alt="" width={96} height={96} />
        )}
        <div className="tga-app-title">
          <h1>{app.name}</h1>
          <p className="tga-card-meta">
            {category ? <span>{t(`categories.${category}`)}</span> : null}
            {app.tags.map((tag) => (
              <span key={tag} className={`tga-tag tga-tag-${tag}`}>
                {t(`tags.${tag}`)}
              </span>
            ))}
          </p>
          <p {...textLang}>{app.shortDescription}</p>
        </div>
        {app.openUrl ? (
          <a
            className="tga-button tga-button-primary tga-open"
            href={app.openUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t("detail.openLabel", { name: app.name })}
            data-track-click="b9331"
            data-track-ext={JSON.stringify({ app: app.slug, action: "open" })}
          >
            {t("detail.open")}
          </a>
        ) : null}
      </header>

      <section className="tga-section" aria-labelledby="tga-about">
        <h2 id="tga-about">{t("detail.about", { name: app.name })}</h2>
        <ReadMore html={app.longDescription} textLang={textLang} />
      </section>

      <Screenshots
        name={app.name}
        shots={
          app.images && app.images.screenshots.length > 0
            ? app.images.screenshots
            : app.screenshots.map((src) => ({ src }))
        }
      />

      <RatingBlock
        slug={app.slug}
        locale={locale}
        rating={app.rating}
        ratingCount={app.ratingCount}
        myRating={detail.myRating}
        loggedIn={loggedIn}
        returnTo={detailPath(app.slug)}
      />

      <section className="tga-section" aria-labelledby="tga-info">
        <h2 id="tga-info">{t("detail.information")}</h2>
        <dl className="tga-info">
          <dt>{t("detail.category")}</dt>
          <dd>{category ? t(`categories.${category}`) : ""}</dd>
          <dt>{t("detail.languages")}</dt>
          <dd>{languageNames.join(", ")}</dd>
          <dt>{t("detail.platforms")}</dt>
          <dd>{app.platforms.map((p) => t(`platforms.${p}`)).join(", ")}</dd>
          <dt>{t("detail.tokenLaunch")}</dt>
          <dd>{app.tokenLaunch ? t("detail.yes") : t("detail.no")}</dd>
          <dt>{t("detail.website")}</dt>
          <dd>
            {app.website ? (
              <a href={app.website} target="_blank" rel="noopener noreferrer nofollow">
                {app.website.replace(/^https?:\/\//, "").replace(/\/$/, "")}
              </a>
            ) : (
              "-"
            )}
          </dd>
          <dt>{t("detail.updated")}</dt>
          <dd>
            <time dateTime={new Date(app.updatedAt).toISOString()}>{updated}</time>
          </dd>
        </dl>
      </section>

      <ArticleList
        id="tga-related"
        title={t("detail.relatedArticles")}
        articles={detail.relatedArticles}
        locale={locale}
        dates={dates}
        empty={t("detail.noArticles")}
      />
      {detail.relatedArticles.length > 0 ? (
        <p>
          <Link to={articlesHref(locale, app.slug)}>{t("detail.allArticles")}</Link>
        </p>
      ) : null}
      <ArticleList
        id="tga-latest"
        title={t("detail.latestArticles")}
        articles={detail.latestArticles}
        locale={locale}
        dates={dates}
        empty={t("detail.noArticles")}
      />
      <AppRail
        id="tga-alike"
        title={t("detail.youMightAlsoLike")}
        apps={detail.youMightAlsoLike}
        locale={locale}
      />
      <AppRail id="tga-hot" title={t("detail.hotApps")} apps={detail.hotApps} locale={locale} />
      <AppRail id="tga-more" title={t("detail.moreApps")} apps={detail.moreApps} locale={locale} />
      <Disclaimer />
    </div>
  );
}
