import type { TgArticleSummary } from "@meridian/contracts";
import { Link } from "react-router";
import { textLangOf } from "../seo/seo.ts";
import { articleAnchor, articlesHref } from "./links.ts";

/** Article titles linking to their app's articles page; `dates` holds formatted publish dates by slug. */
export function ArticleList({
  id,
  title,
  articles,
  locale,
  dates,
  empty,
}: {
  id: string;
  title: string;
  articles: TgArticleSummary[];
  locale: string;
  dates: Record<string, string>;
  empty: string;
}) {
  return (
    <section className="tga-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {articles.length === 0 ? (
        <p className="tga-muted">{empty}</p>
      ) : (
        <ul className="tga-articles">
          {articles.map((a) => (
            <li key={a.slug}>
              <Link
                to={`${articlesHref(locale, a.appSlug)}#${articleAnchor(a.slug)}`}
                lang={textLangOf(locale, a.textLocale).lang}
                dir="auto"
              >
                {a.title}
              </Link>
              <span className="tga-muted">
                {a.appName} ·{" "}
                <time dateTime={new Date(a.publishedAt).toISOString()}>{dates[a.slug] ?? ""}</time>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
