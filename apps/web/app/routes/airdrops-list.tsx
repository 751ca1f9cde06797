import type { AirdropListResult } from "@meridian/contracts";
import { AIRDROPS_API } from "@meridian/contracts/airdrop-rules";
import stylesHref from "../features/airdrops/airdrops.css?url";
import { apiGet, serverOf } from "../features/airdrops/api.server.ts";
import { listQuery, readListState } from "../features/airdrops/links.ts";
import { AirdropListPage } from "../features/airdrops/list-page.tsx";
import { airdropSeo, crumbLabels } from "../features/airdrops/page-seo.server.ts";
import { seoMeta } from "../features/seo/seo.ts";
import { ISLANDS_PAGE_HANDLE } from "../features/shell/islands.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/airdrops-list";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: stylesHref }];

/**
 * No antd and no hydration: the server HTML with the islands bundle only (no React in the
 * browser; features/shell/islands.ts).
 */
export const handle = ISLANDS_PAGE_HANDLE;

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = serverOf(context);
  const state = readListState(new URL(request.url).searchParams);
  const query = listQuery(state);
  const result = await apiGet<AirdropListResult>(
    server,
    `${AIRDROPS_API.list}${query}${query ? "&" : "?"}locale=${encodeURIComponent(locale)}`,
  );
  const crumbs = crumbLabels(locale);
  // Filtered, sorted and later pages are views of the same list: crawl their links, index page one.
  const isPlainView = query === "";
  const seo = await airdropSeo({
    server,
    locale,
    key: "list",
    path: "/airdrops/list",
    noindex: !isPlainView,
    breadcrumbs: [
      { name: crumbs.home, path: "/" },
      { name: crumbs.airdrops, path: "/airdrops" },
      { name: crumbs.list, path: "/airdrops/list" },
    ],
  });
  return { locale, i18n: loadI18n(locale, ["airdrops"]), state, result, seo };
}

export const meta: Route.MetaFunction = ({ loaderData }) => seoMeta(loaderData?.seo);

export default function AirdropsList({ loaderData }: Route.ComponentProps) {
  return <AirdropListPage locale={loaderData.locale} state={loaderData.state} result={loaderData.result} />;
}
