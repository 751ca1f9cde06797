import type { TgAppDetail, TgAppSummary, TgArticle } from "@meridian/contracts";
import { canonicalUrl, SITE_NAME } from "../seo/seo.ts";
import { articlesPath, detailPath } from "./links.ts";

const CONTEXT = "https://schema.org";
const absolute = (origin: string, url: string) => (url.startsWith("/") ? `${origin}${url}` : url);

const APPLICATION_CATEGORY: Record<number, string> = {
  1: "FinanceApplication",
  2: "GameApplication",
  3: "FinanceApplication",
  4: "BusinessApplication",
  5: "UtilitiesApplication",
  6: "GameApplication",
  7: "SocialNetworkingApplication",
};
const OPERATING_SYSTEM: Record<string, string> = {
  ios: "iOS",
  android: "Android",
  desktop: "Windows, macOS, Linux",
  web: "Web",
};

/** SoftwareApplication with a free offer and, once someone rated it, the aggregate rating. */
export function softwareApplicationLd(
  origin: string,
  locale: string,
  app: TgAppDetail,
): Record<string, unknown> {
  return {
    "@context": CONTEXT,
    "@type": "SoftwareApplication",
    name: app.name,
    description: app.shortDescription,
    url: canonicalUrl(origin, locale, detailPath(app.slug)),
    // Uploaded or generated WebP (modules/media) before the SVG fallback: cards want raster images.
    image: absolute(origin, app.images?.logo?.src ?? app.iconUrl),
    screenshot: (app.images?.screenshots.length
      ? app.images.screenshots.map((s) => s.src)
      : app.screenshots
    ).map((s) => absolute(origin, s)),
    applicationCategory: APPLICATION_CATEGORY[app.category] ?? "WebApplication",
    operatingSystem: app.platforms.map((p) => OPERATING_SYSTEM[p] ?? p).join(", "),
    inLanguage: app.languages,
    dateModified: new Date(app.updatedAt).toISOString(),
    offers: { "@type": "Offer", price: "0", priceCurrency: "USD" },
    ...(app.ratingCount > 0
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: app.rating,
            ratingCount: app.ratingCount,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
}

export function articleLd(
  origin: string,
  locale: string,
  appName: string,
  a: TgArticle,
): Record<string, unknown> {
  return {
    "@context": CONTEXT,
    "@type": "Article",
    headline: a.title,
    description: a.summary,
    datePublished: new Date(a.publishedAt).toISOString(),
    about: { "@type": "SoftwareApplication", name: appName },
    mainEntityOfPage: `${canonicalUrl(origin, locale, articlesPath(a.appSlug))}#article-${a.slug}`,
    author: { "@type": "Organization", name: SITE_NAME },
    publisher: { "@type": "Organization", name: SITE_NAME },
  };
}

export function itemListLd(origin: string, locale: string, apps: TgAppSummary[]): Record<string, unknown> {
  return {
    "@context": CONTEXT,
    "@type": "ItemList",
    itemListElement: apps.map((a, i) => ({
      "@type": "ListItem",
      position: i + 1,
      url: canonicalUrl(origin, locale, detailPath(a.slug)),
      name: a.name,
    })),
  };
}

export function faqLd(items: { q: string; a: string }[]): Record<string, unknown> {
  return {
    "@context": CONTEXT,
    "@type": "FAQPage",
    mainEntity: items.map((i) => ({
      "@type": "Question",
      name: i.q,
      acceptedAnswer: { "@type": "Answer", text: i.a },
    })),
  };
}
