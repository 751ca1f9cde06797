import type { ContentPageResult, TgAppListResult } from "@meridian/contracts";
import { TG_APP_TABS, TG_APPS_API, type TgAppTab } from "@meridian/contracts/tg-app-rules";
import { resolvePageText } from "../features/seo/page-meta.server.ts";
import { buildSeo, seoMeta } from "../features/seo/seo.ts";
import { ISLANDS_PAGE_HANDLE } from "../features/shell/islands.ts";
import { apiGet, serverOf } from "../features/tg-apps/api.server.ts";
import { ListPage } from "../features/tg-apps/list-page.tsx";
import { tgT } from "../features/tg-apps/page-text.server.ts";
import { faqLd, itemListLd } from "../features/tg-apps/seo.server.ts";
import tgAppsStyles from "../features/tg-apps/tg-apps.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import type { Route } from "./+types/telegram-apps";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: tgAppsStyles }];

/**
 * No antd and no hydration: the server HTML with the islands bundle only (no React in the
 * browser; features/shell/islands.ts).
 */
export const handle = ISLANDS_PAGE_HANDLE;

function readState(url: URL): { tab: TgAppTab; q: string; page: number } {
  const tabParam = url.searchParams.get("tab") ?? "all";
  const tab = (TG_APP_TABS as readonly string[]).includes(tabParam) ? (tabParam as TgAppTab) : "all";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 80);
  const page = Math.min(1000, Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  return { tab, q, page };
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = serverOf(context);
  const state = readState(new URL(request.url));
  const query = new URLSearchParams({ tab: state.tab, q: state.q, page: String(state.page), locale });
  const [result, page] = await Promise.all([
    apiGet<TgAppListResult>(server, `${TG_APPS_API.list}?${query}`),
    apiGet<ContentPageResult>(server, `/v1/content/pages/tg-apps-home?locale=${encodeURIComponent(locale)}`),
  ]);
  const i18n = loadI18n(locale, ["tgApps"]);
  const t = tgT(i18n);
  const count = String(result.totalApps);
  const text = await resolvePageText(
    server,
    locale,
    "tg-apps",
    {
      title: t("meta.listTitle"),
      description: t("meta.listDescription", { count: result.totalApps }),
      keywords: "",
    },
    { count },
  );
  const seo = buildSeo({
    origin: server.origin,
    locale,
    path: "/telegram-apps",
    title: text.title,
    description: text.description,
    keywords: text.keywords,
    breadcrumbs: [
      { name: t("breadcrumb.home"), path: "/" },
      { name: t("breadcrumb.center"), path: "/telegram-apps" },
    ],
    jsonLd: [
      itemListLd(server.origin, locale, result.items),
      faqLd(page.faq.map((f) => ({ q: f.question, a: f.answer }))),
    ],
    contentLanguages: page.contentLanguages,
    // Each tab and page is its own indexable list; a search result is not (noindex) and
    // canonicalises to the tab it searched.
    canonicalParams: {
      tab: state.tab === "all" ? undefined : state.tab,
      page: state.page > 1 ? state.page : undefined,
    },
    noindex: state.q !== "",
  });
  return { locale, i18n, ...state, result, page, seo };
}

export const meta: Route.MetaFunction = ({ loaderData }) => seoMeta(loaderData?.seo);

export default function TelegramApps({ loaderData }: Route.ComponentProps) {
  return (
    <ListPage
      locale={loaderData.locale}
      tab={loaderData.tab}
      q={loaderData.q}
      result={loaderData.result}
      page={loaderData.page}
    />
  );
}
