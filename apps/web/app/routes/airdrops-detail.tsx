import type { AirdropDetailResult } from "@meridian/contracts";
import { AIRDROPS_API } from "@meridian/contracts/airdrop-rules";
import stylesHref from "../features/airdrops/airdrops.css?url";
import { apiGet, serverOf } from "../features/airdrops/api.server.ts";
import { cleanDetail } from "../features/airdrops/clean.server.ts";
import { AirdropDetailPage } from "../features/airdrops/detail-page.tsx";
import { airdropSeo, crumbLabels } from "../features/airdrops/page-seo.server.ts";
import { canonicalUrl, seoMeta } from "../features/seo/seo.ts";
import { ISLANDS_PAGE_HANDLE } from "../features/shell/islands.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/airdrops-detail";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: stylesHref }];

/**
 * No antd and no hydration: the server HTML with the islands bundle only (no React in the
 * browser; features/shell/islands.ts).
 */
export const handle = ISLANDS_PAGE_HANDLE;

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = serverOf(context);
  const detail = cleanDetail(
    await apiGet<AirdropDetailResult>(
      server,
      `${AIRDROPS_API.detail}${encodeURIComponent(params.slug)}?locale=${encodeURIComponent(locale)}`,
    ),
  );
  const a = detail.airdrop;
  const crumbs = crumbLabels(locale);
  const path = `/airdrops/${a.slug}`;
  // The cover (modules/media) as the social card, absolute like every card URL.
  const cover = a.images?.cover?.src;
  const seo = await airdropSeo({
    server,
    locale,
    key: "detail",
    path,
    type: "article",
    ...(cover ? { image: `${server.origin}${cover}` } : {}),
    vars: { name: a.name, ticker: a.ticker },
    contentLanguages: a.contentLanguages,
    breadcrumbs: [
      { name: crumbs.home, path: "/" },
      { name: crumbs.airdrops, path: "/airdrops" },
      { name: crumbs.list, path: "/airdrops/list" },
      { name: a.name, path },
    ],
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Article",
        headline: `${a.name} (${a.ticker})`,
        description: a.description,
        ...(cover ? { image: `${server.origin}${cover}` } : {}),
        dateModified: new Date(a.updatedAt).toISOString(),
        datePublished: new Date(a.startAt).toISOString(),
        inLanguage: a.contentLocale,
        mainEntityOfPage: canonicalUrl(server.origin, locale, path),
        author: { "@type": "Organization", name: "Meridian" },
        publisher: { "@type": "Organization", name: "Meridian" },
      },
    ],
  });
  return { locale, i18n: loadI18n(locale, ["airdrops"]), detail, seo };
}

export const meta: Route.MetaFunction = ({ loaderData }) => seoMeta(loaderData?.seo);

export default function AirdropDetail({ loaderData }: Route.ComponentProps) {
  return <AirdropDetailPage locale={loaderData.locale} detail={loaderData.detail} />;
}
