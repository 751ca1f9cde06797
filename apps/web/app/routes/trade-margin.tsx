import { localizePath } from "@meridian/contracts/locales";
import { redirect, useRouteLoaderData } from "react-router";
import marginStyles from "../features/margin/margin.css?url";
import { MarginPage } from "../features/margin/margin-page.tsx";
import { loadMarginPage } from "../features/margin/page.server.ts";
import { NO_ANTD_HANDLE } from "../features/shell/antd-settings.ts";
import type { PaintFirstRouteHandle } from "../features/shell/paint-first.ts";
import tradeStyles from "../features/trading-screen/trade.css?url";
import tradeFormStyles from "../features/trading-screen/trade-form.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/trade-margin";

/**
 * The server HTML (ticker, book, trades, forms) paints before any script loads; hydration
 * follows. No antd until a user's button or a trader's dialog brings it (antd-island.tsx).
 */
export const handle = { ...NO_ANTD_HANDLE, paintFirst: true } satisfies PaintFirstRouteHandle;

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: tradeFormStyles },
  { rel: "stylesheet", href: marginStyles },
];

/** /trade-margin (BTCUSDT) and /trade-margin/:symbol: one responsive screen for desktop and phones. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const symbol = params.symbol ?? "BTCUSDT";
  if (symbol !== symbol.toUpperCase())
    throw redirect(localizePath(locale, `/trade-margin/${symbol.toUpperCase()}`), 301);
  return loadMarginPage(locale, symbol, context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData ? [{ title: loaderData.title }, { name: "robots", content: "noindex" }] : [];
}

export default function TradeMargin({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ theme?: string; user?: unknown }>("root");
  const { locale, symbol, snapshot } = loaderData;
  return (
    <MarginPage
      key={`${locale}:${symbol}`}
      locale={locale}
      symbol={symbol}
      snapshot={snapshot}
      dark={root?.theme === "black"}
      loggedIn={Boolean(root?.user)}
      hrefFor={(s) => localizePath(locale, `/trade-margin/${s}`)}
    />
  );
}
