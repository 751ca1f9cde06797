import { loadI18n } from "../../i18n/resources.server.ts";
import type { ServerContext } from "../../server-context.ts";
import { type PageText, resolvePageText } from "../seo/page-meta.server.ts";
import { type Breadcrumb, buildSeo, type Feed, type Seo } from "../seo/seo.ts";
import { feedHref } from "./links.ts";

type PageKey = "home" | "list" | "detail" | "news";

function seoDefaults(locale: string, key: PageKey): PageText {
  const bundle = loadI18n(locale, ["seo"]).bundles.seo as { airdrops?: Record<string, Partial<PageText>> };
  const text = bundle.airdrops?.[key] ?? {};
  return {
    title: text.title ?? "Meridian",
    description: text.description ?? "",
    keywords: text.keywords ?? "",
  };
}

/** The library's Atom feed in the page's language, which every airdrop page announces. */
function airdropFeed(server: ServerContext, locale: string): Feed {
  const bundle = loadI18n(locale, ["seo"]).bundles.seo as { airdrops?: { feed?: { title?: string } } };
  return {
    href: `${server.origin}${feedHref(locale)}`,
    title: bundle.airdrops?.feed?.title ?? "Meridian airdrops",
  };
}

/** The translated UI labels a loader needs for breadcrumbs and structured data. */
export function crumbLabels(locale: string): { home: string; airdrops: string; list: string; news: string } {
  const bundle = loadI18n(locale, ["airdrops"]).bundles.airdrops as {
    breadcrumb?: { home?: string; airdrops?: string; list?: string; news?: string };
  };
  return {
    home: bundle.breadcrumb?.home ?? "Home",
    airdrops: bundle.breadcrumb?.airdrops ?? "Airdrops",
    list: bundle.breadcrumb?.list ?? "All airdrops",
    news: bundle.breadcrumb?.news ?? "News",
  };
}

export interface AirdropSeoInput {
  server: ServerContext;
  locale: string;
  key: PageKey;
  path: string;
  vars?: Record<string, string>;
  breadcrumbs: Breadcrumb[];
  jsonLd?: Record<string, unknown>[];
  type?: "website" | "article";
  noindex?: boolean;
  /** Text when no page_meta row exists, instead of the seo namespace's (a news item's own title). */
  defaults?: PageText;
  /** Absolute image URL for cards. */
  image?: string;
  /** Content languages the page is written in (hreflang set, noindex elsewhere). */
  contentLanguages?: readonly string[];
}

/** Head tags for an airdrop page: page_meta row or translated defaults, plus the shared SEO rules. */
export async function airdropSeo(input: AirdropSeoInput): Promise<Seo> {
  const text = await resolvePageText(
    input.server,
    input.locale,
    `airdrops.${input.key}`,
    input.defaults ?? seoDefaults(input.locale, input.key),
    input.vars,
  );
  return buildSeo({
    origin: input.server.origin,
    locale: input.locale,
    path: input.path,
    title: text.title,
    description: text.description,
    keywords: text.keywords,
    breadcrumbs: input.breadcrumbs,
    ...(input.jsonLd ? { jsonLd: input.jsonLd } : {}),
    ...(input.type ? { type: input.type } : {}),
    ...(input.noindex ? { noindex: true } : {}),
    ...(input.image ? { image: input.image } : {}),
    contentLanguages: input.contentLanguages,
    feeds: [airdropFeed(input.server, input.locale)],
  });
}
