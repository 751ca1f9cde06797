import { useRouteLoaderData } from "react-router";
import futuresStyles from "../features/futures/futures.css?url";
import { FuturesPage } from "../features/futures/futures-page.tsx";
import { loadFuturesPage } from "../features/futures/page.server.ts";
import marginStyles from "../features/margin/margin.css?url";
import { NO_ANTD_HANDLE } from "../features/shell/antd-settings.ts";
import type { PaintFirstRouteHandle } from "../features/shell/paint-first.ts";
import tradeStyles from "../features/trading-screen/trade.css?url";
import tradeFormStyles from "../features/trading-screen/trade-form.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/futures.$symbol";

/**
 * The server HTML (ticker, book, trades, forms) paints before any script loads; hydration
 * follows. No antd until a user's button or a trader's dialog brings it (antd-island.tsx).
 */
export const handle = { ...NO_ANTD_HANDLE, paintFirst: true } satisfies PaintFirstRouteHandle;

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: tradeFormStyles },
  { rel: "stylesheet", href: futuresStyles },
  { rel: "stylesheet", href: marginStyles },
];

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadFuturesPage(localeFromParams(params), (params.symbol ?? "BTCUSDT").toUpperCase(), context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData
    ? [{ title: loaderData.title }, { name: "description", content: loaderData.description }]
    : [];
}

export default function Futures({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ theme?: string; user?: unknown }>("root");
  return (
    <FuturesPage
      locale={loaderData.locale}
      symbol={loaderData.symbol}
      snapshot={loaderData.snapshot}
      layout="auto"
      dark={root?.theme === "black"}
      loggedIn={Boolean(root?.user)}
    />
  );
}
