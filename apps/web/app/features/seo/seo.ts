import {
  CONTENT_ONLY_LOCALES,
  getLocale,
  isContentPath,
  localizePath,
  VISIBLE_LOCALES,
} from "@meridian/contracts/locales";
import type { MetaDescriptor } from "react-router";
import { type CanonicalParams, canonicalQuery } from "./canonical.ts";

/**
 * Search-engine tags for one page, built on the server in the loader and turned into
 * `<head>` tags by the route's `meta`. Shared by every content section:
 *
 * ```ts
 * // loader
 * const seo = buildSeo({ origin, locale, path: "/airdrops", title, description, keywords,
 *   breadcrumbs: [{ name: t.home, path: "/" }, { name: t.airdrops, path: "/airdrops" }] });
 * return { seo, ... };
 * // route module
 * export const meta: Route.MetaFunction = ({ loaderData }) => seoMeta(loaderData?.seo);
 * ```
 *
 * NOTE: the root layout already writes `<link rel="canonical">` and the hreflang set
 * (every visible locale plus x-default, absolute, from the request origin) for every
 * page, with the same rule as `canonicalUrl`/`alternateUrls` here; `seoMeta` does not
 * repeat them. A page whose query names a distinct page (a tab, a page number) passes
 * `canonicalParams`; the root appends `seo.canonicalQuery` to those links. Sitemaps use these functions for their `xhtml:link` alternates.
 */
export interface Breadcrumb {
  name: string;
  /** Path without the language prefix. */
  path: string;
}

export interface SeoInput {
  /** Scheme and host of the request (`serverContext.origin`), so regional domains link to themselves. */
  origin: string;
  locale: string;
  /** Path without the language prefix, e.g. `/airdrops/notcoin`. */
  path: string;
  title: string;
  description: string;
  keywords?: string | undefined;
  /** `article` for news and detail pages. */
  type?: "website" | "article";
  breadcrumbs?: Breadcrumb[];
  /** Extra JSON-LD objects (an Article, an FAQPage...). */
  jsonLd?: Record<string, unknown>[];
  /** Absolute image URL for cards, when the page has one. */
  image?: string;
  noindex?: boolean;
  /**
   * Query parameters that belong to the canonical address, in order (`{ tab, page }`),
   * undefined or "" for defaults. Never search terms: search results stay `noindex`.
   */
  canonicalParams?: CanonicalParams;
  /** Atom feeds of the page, announced as `<link rel="alternate" type="application/atom+xml">`. */
  feeds?: readonly Feed[];
  /**
   * Content languages the page's body is written in (docs/content.md). When given, the
   * hreflang set lists only locales reading one of them, and a page shown in a language
   * it is not written in (the English body under a translated interface) is `noindex`.
   */
  contentLanguages?: readonly string[] | undefined;
}

/** A feed a page announces: absolute address and title. */
export interface Feed {
  href: string;
  title: string;
}

export interface Seo {
  title: string;
  description: string;
  keywords: string;
  url: string;
  type: "website" | "article";
  ogLocale: string;
  ogLocaleAlternates: string[];
  image: string | undefined;
  noindex: boolean;
  jsonLd: Record<string, unknown>[];
  /** `?tab=games&page=2` or "": what the root layout appends to canonical and hreflang links. */
  canonicalQuery: string;
  /** The page's written content languages, or null for a page of interface strings only. */
  contentLanguages: string[] | null;
  feeds: Feed[];
}

export const SITE_NAME = "Meridian";

/** The page's address in a locale (English unprefixed; hidden bg canonicalises to English). */
export function canonicalUrl(origin: string, locale: string, path: string, query = ""): string {
  const entry = getLocale(locale);
  return `${origin}${localizePath(entry.hidden && !entry.contentOnly ? "en" : entry.code, path)}${query}`;
}

/**
 * Locales that get an hreflang entry (and a sitemap): one per language tag, as the root
 * layout does, since `asia` speaks plain `en`, which the en site already claims.
 */
export const HREFLANG_LOCALES = VISIBLE_LOCALES.filter(
  (l, i) => VISIBLE_LOCALES.findIndex((other) => other.htmlLang === l.htmlLang) === i,
);

/** HREFLANG_LOCALES plus the content-only languages, which exist on content pages only. */
export const CONTENT_HREFLANG_LOCALES = [...HREFLANG_LOCALES, ...CONTENT_ONLY_LOCALES];

/**
 * The hreflang locales of a page: on a content page (`isContentPath`) those whose
 * content language its body is written in (every one for a page of interface strings
 * only, content-only languages included); elsewhere the site's locales.
 */
export function hreflangLocalesFor(path: string, contentLanguages?: readonly string[] | null) {
  if (!isContentPath(path)) return HREFLANG_LOCALES;
  return contentLanguages
    ? CONTENT_HREFLANG_LOCALES.filter((l) => contentLanguages.includes(l.content))
    : CONTENT_HREFLANG_LOCALES;
}

/** True when the page's body exists in the locale's content language (always, without a list). */
export function writtenIn(locale: string, contentLanguages?: readonly string[] | null): boolean {
  return !contentLanguages || contentLanguages.includes(getLocale(locale).content);
}

/**
 * hreflang (BCP 47 tag) -> URL for every language the page is written in, plus
 * x-default (the unprefixed, English path).
 */
export function alternateUrls(
  origin: string,
  path: string,
  contentLanguages?: readonly string[] | null,
): { hreflang: string; href: string }[] {
  return [
    ...hreflangLocalesFor(path, contentLanguages).map((l) => ({
      hreflang: l.htmlLang,
      href: `${origin}${localizePath(l.code, path)}`,
    })),
    { hreflang: "x-default", href: `${origin}${localizePath("en", path)}` },
  ];
}

/** `lang`/`dir` of a text block: set when its language is not the page's (docs/content.md). */
export interface TextLang {
  lang?: string;
  dir?: "ltr" | "rtl";
}

/**
 * Marks text written in `contentLocale` shown on a page in `pageLocale`: an English body
 * under an Arabic interface reads left to right and says it is English.
 */
export function textLangOf(pageLocale: string, contentLocale: string): TextLang {
  if (getLocale(pageLocale).content === contentLocale) return {};
  const content = getLocale(contentLocale);
  return { lang: content.htmlLang, dir: content.dir };
}

const ogLocaleOf = (code: string) => getLocale(code).htmlLang.replace("-", "_");

export function buildSeo(input: SeoInput): Seo {
  const query = canonicalQuery(input.canonicalParams);
  const url = canonicalUrl(input.origin, input.locale, input.path, query);
  const jsonLd = [...(input.jsonLd ?? [])];
  if (input.breadcrumbs && input.breadcrumbs.length > 0) {
    jsonLd.unshift({
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: input.breadcrumbs.map((b, i) => ({
        "@type": "ListItem",
        position: i + 1,
        name: b.name,
        item: canonicalUrl(input.origin, input.locale, b.path),
      })),
    });
  }
  const own = ogLocaleOf(input.locale);
  return {
    title: input.title.includes(SITE_NAME) ? input.title : `${input.title} | ${SITE_NAME}`,
    description: input.description,
    keywords: input.keywords ?? "",
    url,
    type: input.type ?? "website",
    ogLocale: own,
    ogLocaleAlternates: [...new Set(VISIBLE_LOCALES.map((l) => ogLocaleOf(l.code)))].filter((l) => l !== own),
    image: input.image,
    noindex: (input.noindex ?? false) || !writtenIn(input.locale, input.contentLanguages),
    jsonLd,
    canonicalQuery: query,
    contentLanguages: input.contentLanguages ? [...input.contentLanguages] : null,
    feeds: [...(input.feeds ?? [])],
  };
}

/** The `<head>` tags of a page: title, description, keywords, Open Graph, Twitter card, JSON-LD. */
export function seoMeta(seo: Seo | undefined): MetaDescriptor[] {
  if (!seo) return [];
  const tags: MetaDescriptor[] = [
    { title: seo.title },
    { name: "description", content: seo.description },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: seo.type },
    { property: "og:title", content: seo.title },
    { property: "og:description", content: seo.description },
    { property: "og:url", content: seo.url },
    { property: "og:locale", content: seo.ogLocale },
    ...seo.ogLocaleAlternates.map((l) => ({ property: "og:locale:alternate", content: l })),
    { name: "twitter:card", content: seo.image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: seo.title },
    { name: "twitter:description", content: seo.description },
  ];
  if (seo.keywords) tags.push({ name: "keywords", content: seo.keywords });
  if (seo.image) {
    tags.push({ property: "og:image", content: seo.image }, { name: "twitter:image", content: seo.image });
  }
  if (seo.noindex) tags.push({ name: "robots", content: "noindex, follow" });
  for (const feed of seo.feeds) {
    tags.push({ tagName: "link", rel: "alternate", type: "application/atom+xml", ...feed });
  }
  // Rendered as <script type="application/ld+json">: data, never executed, so CSP allows it.
  for (const data of seo.jsonLd) tags.push({ "script:ld+json": data });
  return tags;
}

/** Fills `{name}` placeholders of a page_meta template. */
export function fillTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);
}
