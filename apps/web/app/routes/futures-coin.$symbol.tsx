import { useRouteLoaderData } from "react-router";
import { loadCoinFuturesPage } from "../features/futures/coin-page.server.ts";
import futuresStyles from "../features/futures/futures.css?url";
import { FuturesPage } from "../features/futures/futures-page.tsx";
import marginStyles from "../features/margin/margin.css?url";
import { NO_ANTD_HANDLE } from "../features/shell/antd-settings.ts";
import type { PaintFirstRouteHandle } from "../features/shell/paint-first.ts";
import tradeStyles from "../features/trading-screen/trade.css?url";
import tradeFormStyles from "../features/trading-screen/trade-form.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/futures-coin.$symbol";

/** As /futures/usdt/:symbol: the server HTML paints first, antd only when a dialog needs it. */
export const handle = { ...NO_ANTD_HANDLE, paintFirst: true } satisfies PaintFirstRouteHandle;

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: tradeFormStyles },
  { rel: "stylesheet", href: futuresStyles },
  { rel: "stylesheet", href: marginStyles },
];

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadCoinFuturesPage(localeFromParams(params), (params.symbol ?? "").toUpperCase(), context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData
    ? [{ title: loaderData.title }, { name: "description", content: loaderData.description }]
    : [];
}

export default function CoinFutures({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ theme?: string; user?: unknown }>("root");
  return (
    <FuturesPage
      locale={loaderData.locale}
      symbol={loaderData.symbol}
      snapshot={loaderData.snapshot}
      layout="auto"
      family="coin"
      dark={root?.theme === "black"}
      loggedIn={Boolean(root?.user)}
    />
  );
}
