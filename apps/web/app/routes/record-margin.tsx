import { useRouteLoaderData } from "react-router";
import assetsStyles from "../features/assets/assets.css?url";
import { MarginRecordsPage } from "../features/margin/history-pages.tsx";
import marginStyles from "../features/margin/margin.css?url";
import { loadMarginListPage } from "../features/margin/page.server.ts";
import recordsStyles from "../features/trade/records.css?url";
import tradeStyles from "../features/trade/trade.css?url";
import tradeFormStyles from "../features/trade/trade-form.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/record-margin";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: tradeFormStyles },
  { rel: "stylesheet", href: recordsStyles },
  { rel: "stylesheet", href: assetsStyles },
  { rel: "stylesheet", href: marginStyles },
];

export function loader({ params, context }: Route.LoaderArgs) {
  return loadMarginListPage(localeFromParams(params), "records", context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData ? [{ title: loaderData.title }, { name: "robots", content: "noindex" }] : [];
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return (
    <MarginRecordsPage
      locale={loaderData.locale}
      loggedIn={Boolean(root?.user)}
      symbols={loaderData.symbols}
    />
  );
}
