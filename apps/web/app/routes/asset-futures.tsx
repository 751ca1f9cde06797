import { useRouteLoaderData } from "react-router";
import futuresStyles from "../features/futures/futures.css?url";
import { FuturesAssetsPage } from "../features/futures/futures-assets.tsx";
import tradeStyles from "../features/trading-screen/trade.css?url";
import tradeFormStyles from "../features/trading-screen/trade-form.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import assetsStyles from "../styles/assets.css?url";
import type { Route } from "./+types/asset-futures";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: tradeFormStyles },
  { rel: "stylesheet", href: assetsStyles },
  { rel: "stylesheet", href: futuresStyles },
];

export function loader({ params }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const i18n = loadI18n(locale, ["assets", "futures", "margin"]);
  const meta = (i18n.bundles.futures as { assets?: { meta?: { title?: string; description?: string } } })
    .assets?.meta;
  return { locale, i18n, title: meta?.title ?? "Meridian", description: meta?.description ?? "" };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [
    { title: loaderData.title },
    { name: "description", content: loaderData.description },
    { name: "robots", content: "noindex" },
  ];
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return <FuturesAssetsPage locale={loaderData.locale} loggedIn={Boolean(root?.user)} />;
}
