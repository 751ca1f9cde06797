import { ADMIN_CONTENT_API } from "@meridian/contracts";
import { data } from "react-router";
import { adminRead } from "../features/admin-tools/admin.server.ts";
import { AdminForbidden } from "../features/admin-tools/admin-nav.tsx";
import stylesHref from "../features/admin-tools/admin-tools.css?url";
import { type PageMetaAdminData, PageMetaPage } from "../features/admin-tools/page-meta-page.tsx";
import { serverOf } from "../features/tg-apps/api.server.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import adminAntdHref from "../styles/admin-antd.generated.css?url";
import type { Route } from "./+types/admin.page-meta";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: adminAntdHref },
  { rel: "stylesheet", href: stylesHref },
];

/** Administrators only: the admin API's guard decides (401 anonymous, 403 non-admin). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const i18n = loadI18n(locale, ["adminTools"]);
  const read = await adminRead<PageMetaAdminData>(serverOf(context), ADMIN_CONTENT_API.pageMeta);
  if (read.kind !== "ok")
    return data({ locale, i18n, admin: null }, { status: read.kind === "refused" ? read.status : 500 });
  return { locale, i18n, admin: read.data };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const bundle = loaderData?.i18n.bundles.adminTools as { meta?: { title?: string } } | undefined;
  return [
    { title: `${bundle?.meta?.title ?? "Page metadata"} | Meridian` },
    { name: "robots", content: "noindex, nofollow" },
  ];
};

export default function AdminPageMeta({ loaderData }: Route.ComponentProps) {
  const { locale, admin, i18n } = loaderData;
  if (!admin) {
    const title = (i18n.bundles.adminTools as { meta?: { title?: string } }).meta?.title ?? "";
    return <AdminForbidden locale={locale} title={title} path="/admin/page-meta" />;
  }
  return <PageMetaPage locale={locale} data={admin} />;
}
