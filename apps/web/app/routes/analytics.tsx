import { data, useRouteLoaderData } from "react-router";
import stylesHref from "../features/analytics/analytics.css?url";
import { type DashboardAnswer, loadDashboard } from "../features/analytics/api.server.ts";
import { DashboardDenied, DashboardPage } from "../features/analytics/dashboard-page.tsx";
import { readFilters } from "../features/analytics/range.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import { readServerContext } from "../lib/server-context.server.ts";
import type { Route } from "./+types/analytics";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: stylesHref }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const now = Date.now();
  const filters = readFilters(new URL(request.url).searchParams, now);
  const answer: DashboardAnswer = await loadDashboard(readServerContext(context), filters);
  const i18n = loadI18n(locale, ["analytics"]);
  const title = (i18n.bundles.analytics as { meta?: { title?: string } }).meta?.title ?? "Analytics";
  const body = { locale, i18n, title, filters, now, answer };
  return answer.ok ? body : data(body, { status: answer.status });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? "Analytics" }, { name: "robots", content: "noindex, nofollow" }];
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ theme?: string }>("root");
  const { answer } = loaderData;
  if (!answer.ok) return <DashboardDenied status={answer.status} />;
  return (
    <DashboardPage
      data={answer.data}
      filters={loaderData.filters}
      locale={loaderData.locale}
      now={loaderData.now}
      dark={root?.theme === "black"}
    />
  );
}
