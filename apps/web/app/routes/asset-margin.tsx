import { useRouteLoaderData } from "react-router";
import assetsStyles from "../features/assets/assets.css?url";
import marginStyles from "../features/margin/margin.css?url";
import { MarginAssetsPage } from "../features/margin/margin-assets.tsx";
import { loadMarginListPage } from "../features/margin/page.server.ts";
import recordsStyles from "../features/trade/records.css?url";
import tradeStyles from "../features/trade/trade.css?url";
import tradeFormStyles from "../features/trade/trade-form.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/asset-margin";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: tradeFormStyles },
  { rel: "stylesheet", href: recordsStyles },
  { rel: "stylesheet", href: assetsStyles },
  { rel: "stylesheet", href: marginStyles },
];

export function loader({ params, context }: Route.LoaderArgs) {
  return loadMarginListPage(localeFromParams(params), "assets", context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData ? [{ title: loaderData.title }, { name: "robots", content: "noindex" }] : [];
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return <MarginAssetsPage locale={loaderData.locale} loggedIn={Boolean(root?.user)} />;
}
