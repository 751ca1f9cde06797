import type { AirdropNewsItem, AirdropStatus } from "@meridian/contracts";
import type { ResponsiveImage } from "@meridian/contracts/media-rules";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate } from "../../ui/money.ts";
import { ResponsiveImg } from "../../ui/responsive-img.tsx";
import { type TextLang, textLangOf } from "../seo/seo.ts";
import { feedHref, newsHref } from "./links.ts";

/** A small label (antd Tag's look without its code on the first load). */
export function Chip({ children }: { children: ReactNode }) {
  return <span className="ad-tag">{children}</span>;
}

export function StatusTag({ status }: { status: AirdropStatus }) {
  const { t } = useTranslation("airdrops");
  return (
    <span className="ad-tag ad-status" data-status={status}>
      {t(`status.${status}`)}
    </span>
  );
}

/** A coloured disc with the ticker's initials: no image request, fixed size, no layout shift. */
export function CoinAvatar({
  ticker,
  size = 40,
  image,
}: {
  ticker: string;
  size?: number;
  /** The project's logo (modules/media); the ticker badge when it has none. */
  image?: ResponsiveImage | null | undefined;
}) {
  if (image) {
    return (
      <ResponsiveImg
        className="ad-avatar ad-avatar-img"
        image={image}
        sizes={`${size}px`}
        alt=""
        width={size}
        height={size}
      />
    );
  }
  let hash = 0;
  for (const c of ticker) hash = (hash * 31 + c.charCodeAt(0)) % 360;
  return (
    <span
      className="ad-avatar"
      aria-hidden
      style={{ width: size, height: size, fontSize: size * 0.36, background: `hsl(${hash} 60% 28%)` }}
    >
      {ticker.slice(0, 3)}
    </span>
  );
}

export function Breadcrumbs({ items }: { items: { name: string; href?: string }[] }) {
  const { t } = useTranslation("airdrops");
  return (
    <nav aria-label={t("breadcrumb.label")} className="ad-breadcrumbs">
      <ol>
        {items.map((item, i) => (
          <li key={item.name}>
            {item.href && i < items.length - 1 ? (
              <Link to={item.href}>{item.name}</Link>
            ) : (
              <span aria-current="page">{item.name}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function NewsList({ items, locale }: { items: AirdropNewsItem[]; locale: string }) {
  const { t } = useTranslation("airdrops");
  if (items.length === 0) return <p className="ad-muted">{t("list.empty")}</p>;
  return (
    <ul className="ad-news">
      {items.map((n) => (
        // An item not written in the page's language says its text is English.
        <li key={n.slug}>
          <h3 dir="auto" lang={textLangOf(locale, n.textLocale).lang}>
            <Link to={newsHref(locale, n.slug)}>{n.title}</Link>
          </h3>
          <p dir="auto" lang={textLangOf(locale, n.textLocale).lang}>
            {n.summary}
          </p>
          <time dateTime={new Date(n.publishedAt).toISOString()} className="ad-muted">
            {formatDate(n.publishedAt, locale)}
          </time>
        </li>
      ))}
    </ul>
  );
}

/** docs/product.md §1: educational content only; third-party sites at the visitor's own risk. */
/** The closing notes of every airdrop page, with the library's Atom feed. */
export function Disclaimer({ locale }: { locale: string }) {
  const { t } = useTranslation("airdrops");
  return (
    <aside className="ad-disclaimer" aria-labelledby="ad-disclaimer-title">
      <h2 id="ad-disclaimer-title">{t("disclaimer.title")}</h2>
      <p>{t("disclaimer.educational")}</p>
      <p>{t("disclaimer.thirdParty")}</p>
      <p className="ad-feed">
        {/* A document, not a route: a plain link, so the browser opens the XML. */}
        <a href={feedHref(locale)} type="application/atom+xml" data-testid="airdrop-feed-link">
          {t("disclaimer.feed")}
        </a>
      </p>
    </aside>
  );
}

/** Sanitised HTML from the API (cleaned on save and again by the loader). */
export { type TextLang, textLangOf } from "../seo/seo.ts";

export function RichText({
  html,
  className,
  textLang,
}: {
  html: string;
  className?: string;
  textLang?: TextLang;
}) {
  if (!html) return null;
  return (
    <div
      lang={textLang?.lang}
      dir={textLang?.dir ?? "auto"}
      className={`ad-rich ${className ?? ""}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: stored sanitised by the server (cleanStoredHtml on write).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
