import type { TgArticlesResult } from "@meridian/contracts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { textLangOf } from "../seo/seo.ts";
import { Disclaimer } from "./faq.tsx";
import { articleAnchor, detailHref, detailPath } from "./links.ts";
import { Breadcrumb } from "./parts.tsx";

/** Every article about one app, bodies in full (sanitised HTML from the API). */
export function ArticlesPage({
  locale,
  data,
  dates,
}: {
  locale: string;
  data: TgArticlesResult;
  dates: Record<string, string>;
}) {
  const { t } = useTranslation("tgApps");
  const { app, articles } = data;
  const textLang = textLangOf(locale, data.contentLocale);
  return (
    <div className="tga-page">
      <Breadcrumb
        locale={locale}
        items={[
          { name: t("breadcrumb.home"), path: "/" },
          { name: t("breadcrumb.center"), path: "/telegram-apps" },
          { name: app.name, path: detailPath(app.slug) },
          { name: t("breadcrumb.articles") },
        ]}
      />
      <header className="tga-app-head">
        <img className="tga-app-icon" src={app.iconUrl} alt="" width={64} height={64} />
        <div className="tga-app-title">
          <h1>{t("articles.title", { name: app.name })}</h1>
          <p>
            <Link to={detailHref(locale, app.slug)}>{t("articles.back", { name: app.name })}</Link>
          </p>
        </div>
      </header>
      {articles.length === 0 ? <p className="tga-empty">{t("empty")}</p> : null}
      {articles.map((a) => (
        <article
          key={a.slug}
          id={articleAnchor(a.slug)}
          className="tga-section tga-article"
          data-track-expose="b9642"
          data-track-ext={JSON.stringify({ article: a.slug })}
          {...textLang}
        >
          <h2>{a.title}</h2>
          <p className="tga-muted">
            <time dateTime={new Date(a.publishedAt).toISOString()}>
              {t("articles.published", { date: dates[a.slug] ?? "" })}
            </time>
          </p>
          {a.summary ? <p className="tga-lead">{a.summary}</p> : null}
          <div
            className="tga-prose"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: stored sanitised by the server (cleanStoredHtml on write)
            dangerouslySetInnerHTML={{ __html: a.body }}
          />
        </article>
      ))}
      <Disclaimer />
    </div>
  );
}
