import type { TgAppSummary } from "@meridian/contracts";
import { tgCategoryKey } from "@meridian/contracts/tg-app-rules";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ResponsiveImg } from "../../ui/responsive-img.tsx";
import { textLangOf } from "../seo/seo.ts";
import { formatRating } from "./format.ts";
import { detailHref } from "./links.ts";

interface AppCardProps {
  app: TgAppSummary;
  locale: string;
  /** Tracking id of the page the card is exposed on (b9332 list, b9331 detail). */
  trackId: string;
  /** Heading level inside the surrounding section. */
  level?: "h2" | "h3";
}

/** One app: icon, name, tags, category, stars and the short description; the whole card links to the detail page. */
export function AppCard({ app, locale, trackId, level = "h3" }: AppCardProps) {
  const { t } = useTranslation("tgApps");
  const Heading = level;
  const category = tgCategoryKey(app.category);
  return (
    <li
      className="tga-card"
      data-track-expose={trackId}
      data-track-ext={JSON.stringify({ app: app.slug })}
      data-track-merge
    >
      <Link to={detailHref(locale, app.slug)} className="tga-card-link">
        {app.images?.logo ? (
          <ResponsiveImg
            className="tga-card-icon"
            image={app.images.logo}
            sizes="56px"
            alt=""
            width={56}
            height={56}
          />
        ) : (
          <img
            className="tga-card-icon"
            src={app.iconUrl}
            alt=""
            width={56}
            height={56}
            loading="lazy"
            decoding="async"
          />
        )}
        <span className="tga-card-body">
          <Heading className="tga-card-name">{app.name}</Heading>
          <span className="tga-card-meta">
            {category ? <span>{t(`categories.${category}`)}</span> : null}
            <span className="tga-stars">
              <span aria-hidden>★</span> {formatRating(app.rating, locale)}
              <span className="tga-muted"> ({app.ratingCount})</span>
            </span>
          </span>
          {/* An app not written in the page's language shows English, and says so. */}
          <span className="tga-card-desc" lang={textLangOf(locale, app.textLocale).lang} dir="auto">
            {app.shortDescription}
          </span>
          {app.tags.length > 0 ? (
            <span className="tga-tags">
              {app.tags.map((tag) => (
                <span key={tag} className={`tga-tag tga-tag-${tag}`}>
                  {t(`tags.${tag}`)}
                </span>
              ))}
            </span>
          ) : null}
        </span>
      </Link>
    </li>
  );
}

/** A titled grid of cards (detail rails). Nothing when the list is empty. */
export function AppRail({
  id,
  title,
  apps,
  locale,
}: {
  id: string;
  title: string;
  apps: TgAppSummary[];
  locale: string;
}) {
  if (apps.length === 0) return null;
  return (
    <section className="tga-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="tga-grid tga-grid-compact">
        {apps.map((a) => (
          <AppCard key={a.slug} app={a} locale={locale} trackId="b9331" />
        ))}
      </ul>
    </section>
  );
}
