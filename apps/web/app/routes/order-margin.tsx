import { useRouteLoaderData } from "react-router";
import { MarginOrdersPage } from "../features/account-records/margin-history-pages.tsx";
import { marginListLinks, privatePageMeta } from "../features/margin/list-route.ts";
import { loadMarginListPage } from "../features/margin/page.server.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/order-margin";

export const links: Route.LinksFunction = marginListLinks;

export function loader({ params, context }: Route.LoaderArgs) {
  return loadMarginListPage(localeFromParams(params), "orders", context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return privatePageMeta(loaderData);
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return (
    <MarginOrdersPage
      locale={loaderData.locale}
      loggedIn={Boolean(root?.user)}
      symbols={loaderData.symbols}
    />
  );
}
