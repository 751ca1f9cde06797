import type { TgArticlesResult } from "@meridian/contracts";
import { TG_APPS_API, tgAppsPath } from "@meridian/contracts/tg-app-rules";
import { buildSeo, seoMeta } from "../features/seo/seo.ts";
import { CONTENT_PAGE_HANDLE } from "../features/shell/paint-first.ts";
import { apiGet, serverOf } from "../features/tg-apps/api.server.ts";
import { ArticlesPage } from "../features/tg-apps/articles-page.tsx";
import { formatDate } from "../features/tg-apps/format.ts";
import { articlesPath, detailPath } from "../features/tg-apps/links.ts";
import { tgT } from "../features/tg-apps/page-text.server.ts";
import { articleLd } from "../features/tg-apps/seo.server.ts";
import tgAppsStyles from "../features/tg-apps/tg-apps.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/telegram-apps.$app.articles";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: tgAppsStyles }];

/** No antd on this page: it loads neither antd's code nor its stylesheet (see AntdGate in root.tsx). */
export const handle = CONTENT_PAGE_HANDLE;

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = serverOf(context);
  const data = await apiGet<TgArticlesResult>(
    server,
    `${tgAppsPath(TG_APPS_API.articles, { slug: params.app })}?locale=${encodeURIComponent(locale)}`,
  );
  const i18n = loadI18n(locale, ["tgApps"]);
  const t = tgT(i18n);
  const dates: Record<string, string> = {};
  for (const a of data.articles) dates[a.slug] = formatDate(a.publishedAt, locale);
  const seo = buildSeo({
    origin: server.origin,
    locale,
    path: articlesPath(data.app.slug),
    contentLanguages: data.contentLanguages,
    title: t("meta.articlesTitle", { name: data.app.name }),
    description: data.articles[0]?.summary || data.app.shortDescription,
    type: "article",
    breadcrumbs: [
      { name: t("breadcrumb.home"), path: "/" },
      { name: t("breadcrumb.center"), path: "/telegram-apps" },
      { name: data.app.name, path: detailPath(data.app.slug) },
      { name: t("breadcrumb.articles"), path: articlesPath(data.app.slug) },
    ],
    jsonLd: data.articles.map((a) => articleLd(server.origin, locale, data.app.name, a)),
  });
  return { locale, i18n, data, dates, seo };
}

export const meta: Route.MetaFunction = ({ loaderData }) => seoMeta(loaderData?.seo);

export default function TelegramAppArticles({ loaderData }: Route.ComponentProps) {
  return <ArticlesPage locale={loaderData.locale} data={loaderData.data} dates={loaderData.dates} />;
}
