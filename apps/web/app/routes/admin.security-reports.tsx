import { ADMIN_CONTENT_API, type SecurityReportPage } from "@meridian/contracts";
import { data } from "react-router";
import { adminRead } from "../features/admin-tools/admin.server.ts";
import { AdminForbidden } from "../features/admin-tools/admin-nav.tsx";
import stylesHref from "../features/admin-tools/admin-tools.css?url";
import { type ReportFilters, SecurityReportsPage } from "../features/admin-tools/security-reports-page.tsx";
import { serverOf } from "../features/tg-apps/api.server.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import adminAntdHref from "../styles/admin-antd.generated.css?url";
import type { Route } from "./+types/admin.security-reports";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: adminAntdHref },
  { rel: "stylesheet", href: stylesHref },
];

const EMPTY: SecurityReportPage = { items: [], total: 0, page: 1, pageSize: 50, counts: [] };

/**
 * Administrators only: the admin API's guard decides (401 anonymous, 403 non-admin). The
 * filters live in the URL (`?event=&from=&to=&page=`), so a filtered view can be shared.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const i18n = loadI18n(locale, ["adminTools"]);
  const url = new URL(request.url);
  const filters: ReportFilters = {
    event: url.searchParams.get("event") ?? "",
    from: url.searchParams.get("from") ?? "",
    to: url.searchParams.get("to") ?? "",
  };
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v !== "") query.set(k, v);
  const page = url.searchParams.get("page");
  if (page) query.set("page", page);
  const read = await adminRead<SecurityReportPage>(
    serverOf(context),
    `${ADMIN_CONTENT_API.securityReports}?${query}`,
  );
  if (read.kind === "refused")
    return data({ locale, i18n, filters, admin: null, error: null }, { status: read.status });
  if (read.kind === "invalid") return { locale, i18n, filters, admin: EMPTY, error: read.msg };
  return { locale, i18n, filters, admin: read.data, error: null };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const bundle = loaderData?.i18n.bundles.adminTools as { reports?: { title?: string } } | undefined;
  return [
    { title: `${bundle?.reports?.title ?? "Security reports"} | Meridian` },
    { name: "robots", content: "noindex, nofollow" },
  ];
};

export default function AdminSecurityReports({ loaderData }: Route.ComponentProps) {
  const { locale, admin, filters, error, i18n } = loaderData;
  if (!admin) {
    const title = (i18n.bundles.adminTools as { reports?: { title?: string } }).reports?.title ?? "";
    return <AdminForbidden locale={locale} title={title} path="/admin/security-reports" />;
  }
  return <SecurityReportsPage locale={locale} filters={filters} data={admin} error={error} />;
}
