import type { AirdropNewsDetailResult } from "@meridian/contracts";
import { AIRDROPS_API } from "@meridian/contracts/airdrop-rules";
import stylesHref from "../features/airdrops/airdrops.css?url";
import { apiGet, serverOf } from "../features/airdrops/api.server.ts";
import { AirdropNewsPage } from "../features/airdrops/news-page.tsx";
import { airdropSeo, crumbLabels } from "../features/airdrops/page-seo.server.ts";
import { canonicalUrl, seoMeta } from "../features/seo/seo.ts";
import { ISLANDS_PAGE_HANDLE } from "../features/shell/islands.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/airdrops.news.$slug";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: stylesHref }];

/**
 * No antd and no hydration: the server HTML with the islands bundle only (no React in the
 * browser; features/shell/islands.ts).
 */
export const handle = ISLANDS_PAGE_HANDLE;

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = serverOf(context);
  // Unknown or unpublished slugs answer 404 (apiGet), inside the shell.
  const answer = await apiGet<AirdropNewsDetailResult>(
    server,
    `${AIRDROPS_API.newsDetail}${encodeURIComponent(params.slug)}?locale=${encodeURIComponent(locale)}`,
  );
  // The body is stored sanitised (server: cleanStoredHtml on write); no sanitiser per view.
  const news: AirdropNewsDetailResult = answer;
  const n = news.item;
  const crumbs = crumbLabels(locale);
  const path = `/airdrops/news/${n.slug}`;
  // News and airdrops carry no artwork of their own: cards and the Article show the site mark.
  const image = `${server.origin}/favicon.svg`;
  const seo = await airdropSeo({
    server,
    locale,
    key: "news",
    path,
    type: "article",
    image,
    defaults: { title: n.title, description: n.summary || n.title, keywords: "" },
    vars: { title: n.title, name: n.airdropName ?? "" },
    contentLanguages: n.contentLanguages,
    // The BreadcrumbList names real pages only; "News" has no page of its own.
    breadcrumbs: [
      { name: crumbs.home, path: "/" },
      { name: crumbs.airdrops, path: "/airdrops" },
      { name: n.title, path },
    ],
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Article",
        headline: n.title.slice(0, 110),
        description: n.summary,
        image: [image],
        datePublished: new Date(n.publishedAt).toISOString(),
        dateModified: new Date(Math.max(n.updatedAt, n.publishedAt)).toISOString(),
        inLanguage: n.contentLocale,
        mainEntityOfPage: canonicalUrl(server.origin, locale, path),
        author: { "@type": "Organization", name: "Meridian" },
        publisher: { "@type": "Organization", name: "Meridian" },
      },
    ],
  });
  return { locale, i18n: loadI18n(locale, ["airdrops"]), news, seo };
}

export const meta: Route.MetaFunction = ({ loaderData }) => seoMeta(loaderData?.seo);

export default function AirdropNews({ loaderData }: Route.ComponentProps) {
  return <AirdropNewsPage locale={loaderData.locale} news={loaderData.news} />;
}
