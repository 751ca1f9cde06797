import { Code, TG_APPS_API, type TgSubmission } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { AdminNav } from "../features/admin-tools/admin-nav.tsx";
import adminToolsHref from "../features/admin-tools/admin-tools.css?url";
import adminStylesHref from "../features/tg-apps/admin/admin.css?url";
import type { AdminAppRow, AdminArticleRow } from "../features/tg-apps/admin/admin-api.ts";
import { TgAppsAdminPage } from "../features/tg-apps/admin/admin-page.tsx";
import { serverOf } from "../features/tg-apps/api.server.ts";
import tgAppsStylesHref from "../features/tg-apps/tg-apps.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import adminAntdHref from "../styles/admin-antd.generated.css?url";
import mediaStylesHref from "../ui/media.css?url";
import type { Route } from "./+types/admin.tg-apps";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: adminToolsHref },
  { rel: "stylesheet", href: adminAntdHref },
  { rel: "stylesheet", href: tgAppsStylesHref },
  { rel: "stylesheet", href: adminStylesHref },
  { rel: "stylesheet", href: mediaStylesHref },
];

/**
 * Administrators only: the admin API's own guard (the accounts module's requireAdmin)
 * decides, so the page and the API can never disagree. Anonymous visitors get 401 with
 * a login link, logged-in non-administrators 403.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = serverOf(context);
  const i18n = loadI18n(locale, ["tgApps", "tgAppsAdmin", "adminTools", "media"]);
  const [apps, articles, submissions] = await Promise.all([
    server.api<AdminAppRow[]>(TG_APPS_API.adminApps),
    server.api<AdminArticleRow[]>(TG_APPS_API.adminArticles),
    server.api<TgSubmission[]>(TG_APPS_API.adminSubmissions),
  ]);
  const refused = [apps, articles, submissions].find((a) => a.code !== Code.OK);
  if (refused) {
    const status = refused.code === Code.FORBIDDEN ? 403 : 401;
    return data({ locale, i18n, admin: null }, { status });
  }
  return { locale, i18n, admin: { apps: apps.data, articles: articles.data, submissions: submissions.data } };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const bundle = loaderData?.i18n.bundles.tgAppsAdmin as { metaTitle?: string } | undefined;
  return [
    { title: `${bundle?.metaTitle ?? "Administration"} | Meridian` },
    { name: "robots", content: "noindex, nofollow" },
  ];
};

export default function TgAppsAdmin({ loaderData }: Route.ComponentProps) {
  if (!loaderData.admin) return <AdminForbidden locale={loaderData.locale} />;
  return (
    <>
      <div className="at-page at-nav-only">
        <AdminNav locale={loaderData.locale} current="tgApps" />
      </div>
      <TgAppsAdminPage data={loaderData.admin} />
    </>
  );
}

function AdminForbidden({ locale }: { locale: string }) {
  const { t } = useTranslation("tgAppsAdmin");
  const login = `${localizePath(locale, "/login")}?redirect=${encodeURIComponent(localizePath(locale, "/admin/tg-apps"))}`;
  return (
    <section className="tga-page tga-admin">
      <h1>{t("title")}</h1>
      <p role="alert">{t("forbidden")}</p>
      <p>
        <a href={login}>{t("logIn")}</a>
      </p>
    </section>
  );
}
