import type { TgAppDetailResult } from "@meridian/contracts";
import { TG_APPS_API, tgAppsPath } from "@meridian/contracts/tg-app-rules";
import { useRouteLoaderData } from "react-router";
import { resolvePageText } from "../features/seo/page-meta.server.ts";
import { buildSeo, seoMeta } from "../features/seo/seo.ts";
import { ISLANDS_PAGE_HANDLE } from "../features/shell/islands.ts";
import { apiGet, serverOf } from "../features/tg-apps/api.server.ts";
import { DetailPage } from "../features/tg-apps/detail-page.tsx";
import { formatDate, languageNames } from "../features/tg-apps/format.ts";
import { detailPath } from "../features/tg-apps/links.ts";
import { tgT } from "../features/tg-apps/page-text.server.ts";
import { softwareApplicationLd } from "../features/tg-apps/seo.server.ts";
import tgAppsStyles from "../features/tg-apps/tg-apps.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/telegram-apps.$app";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: tgAppsStyles }];

/**
 * No antd and no hydration: the server HTML with the islands bundle only (no React in the
 * browser; features/shell/islands.ts).
 */
export const handle = ISLANDS_PAGE_HANDLE;

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = serverOf(context);
  const detail = await apiGet<TgAppDetailResult>(
    server,
    `${tgAppsPath(TG_APPS_API.detail, { slug: params.app })}?locale=${encodeURIComponent(locale)}`,
  );
  const { app } = detail;
  const i18n = loadI18n(locale, ["tgApps"]);
  const t = tgT(i18n);
  const text = await resolvePageText(
    server,
    locale,
    "tg-app-detail",
    { title: t("meta.detailTitle", { name: app.name }), description: app.shortDescription, keywords: "" },
    { name: app.name, description: app.shortDescription },
  );
  const dates: Record<string, string> = {};
  for (const a of [...detail.relatedArticles, ...detail.latestArticles])
    dates[a.slug] = formatDate(a.publishedAt, locale);
  const seo = buildSeo({
    origin: server.origin,
    locale,
    path: detailPath(app.slug),
    contentLanguages: app.contentLanguages,
    title: text.title,
    description: text.description,
    keywords: text.keywords,
    image: (app.images?.logo?.src ?? app.iconUrl).startsWith("/")
      ? `${server.origin}${app.images?.logo?.src ?? app.iconUrl}`
      : app.iconUrl,
    breadcrumbs: [
      { name: t("breadcrumb.home"), path: "/" },
      { name: t("breadcrumb.center"), path: "/telegram-apps" },
      { name: app.name, path: detailPath(app.slug) },
    ],
    jsonLd: [softwareApplicationLd(server.origin, locale, app)],
  });
  return {
    locale,
    i18n,
    detail,
    languageNames: languageNames(app.languages, locale),
    updated: formatDate(app.updatedAt, locale),
    dates,
    seo,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => seoMeta(loaderData?.seo);

export default function TelegramAppDetail({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData("root") as { user?: unknown } | undefined;
  return (
    <DetailPage
      key={loaderData.detail.app.slug}
      locale={loaderData.locale}
      detail={loaderData.detail}
      languageNames={loaderData.languageNames}
      updated={loaderData.updated}
      dates={loaderData.dates}
      loggedIn={Boolean(root?.user)}
    />
  );
}
