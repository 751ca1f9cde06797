import { useRouteLoaderData } from "react-router";
import { marginListLinks, privatePageMeta } from "../features/margin/list-route.ts";
import { MarginAssetsPage } from "../features/margin/margin-assets.tsx";
import { loadMarginListPage } from "../features/margin/page.server.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/asset-margin";

export const links: Route.LinksFunction = marginListLinks;

export function loader({ params, context }: Route.LoaderArgs) {
  return loadMarginListPage(localeFromParams(params), "assets", context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return privatePageMeta(loaderData);
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return <MarginAssetsPage locale={loaderData.locale} loggedIn={Boolean(root?.user)} />;
}
