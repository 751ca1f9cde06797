import { useRouteLoaderData } from "react-router";
import { AssetOverviewPage } from "../features/assets/assets-pages.tsx";
import { loadAssetsPage } from "../features/assets/page.server.ts";
import { assetsLinks, assetsMeta } from "../features/assets/route.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/asset";

export const links: Route.LinksFunction = assetsLinks;

export function loader({ params }: Route.LoaderArgs) {
  return loadAssetsPage(localeFromParams(params), "overview");
}

export function meta({ loaderData }: Route.MetaArgs) {
  return assetsMeta(loaderData);
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return <AssetOverviewPage locale={loaderData.locale} loggedIn={Boolean(root?.user)} />;
}
