import type { AirdropHomeResult, ContentPageResult } from "@meridian/contracts";
import { AIRDROPS_API } from "@meridian/contracts/airdrop-rules";
import stylesHref from "../features/airdrops/airdrops.css?url";
import { apiGet, serverOf } from "../features/airdrops/api.server.ts";
import { AirdropHomePage } from "../features/airdrops/home-page.tsx";
import { airdropSeo, crumbLabels } from "../features/airdrops/page-seo.server.ts";
import { seoMeta } from "../features/seo/seo.ts";
import { ISLANDS_PAGE_HANDLE } from "../features/shell/islands.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/airdrops";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: stylesHref }];

/**
 * No antd and no hydration: the server HTML with the islands bundle only (no React in the
 * browser; features/shell/islands.ts).
 */
export const handle = ISLANDS_PAGE_HANDLE;

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = serverOf(context);
  const [home, page] = await Promise.all([
    apiGet<AirdropHomeResult>(server, `${AIRDROPS_API.home}?locale=${locale}`),
    apiGet<ContentPageResult>(server, `/v1/content/pages/airdrops-home?locale=${encodeURIComponent(locale)}`),
  ]);
  const crumbs = crumbLabels(locale);
  const seo = await airdropSeo({
    server,
    locale,
    key: "home",
    path: "/airdrops",
    vars: { year: String(new Date(home.now).getUTCFullYear()) },
    contentLanguages: page.contentLanguages,
    breadcrumbs: [
      { name: crumbs.home, path: "/" },
      { name: crumbs.airdrops, path: "/airdrops" },
    ],
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        mainEntity: page.faq.map((f) => ({
          "@type": "Question",
          name: f.question,
          acceptedAnswer: { "@type": "Answer", text: f.answer },
        })),
      },
    ],
  });
  return { locale, i18n: loadI18n(locale, ["airdrops"]), home, page, seo };
}

export const meta: Route.MetaFunction = ({ loaderData }) => seoMeta(loaderData?.seo);

export default function AirdropsHome({ loaderData }: Route.ComponentProps) {
  return <AirdropHomePage locale={loaderData.locale} home={loaderData.home} page={loaderData.page} />;
}
