import { localizePath } from "@meridian/contracts/locales";
import { redirect, useRouteLoaderData } from "react-router";
import { NO_ANTD_HANDLE } from "../features/shell/antd-settings.ts";
import type { PaintFirstRouteHandle } from "../features/shell/paint-first.ts";
import { TradePage } from "../features/trade/trade-page.tsx";
import { loadTradePage } from "../features/trading-screen/page.server.ts";
import tradeStyles from "../features/trading-screen/trade.css?url";
import tradeFormStyles from "../features/trading-screen/trade-form.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/spot.$symbol";

/**
 * The server HTML (ticker, book, trades, forms) paints before any script loads; hydration
 * follows. No antd until a user's button or a trader's dialog brings it (antd-island.tsx).
 */
export const handle = { ...NO_ANTD_HANDLE, paintFirst: true } satisfies PaintFirstRouteHandle;

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: tradeFormStyles },
];

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const symbol = params.symbol ?? "";
  if (symbol !== symbol.toUpperCase())
    throw redirect(localizePath(locale, `/spot/${symbol.toUpperCase()}`), 301);
  return loadTradePage(locale, symbol, context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [{ title: loaderData.title }, { name: "description", content: loaderData.description }];
}

export default function Spot({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ theme?: string; user?: unknown; nonce?: string }>("root");
  const { locale, symbol, snapshot } = loaderData;
  return (
    <TradePage
      key={locale}
      locale={locale}
      symbol={symbol}
      snapshot={snapshot}
      layout="auto"
      dark={root?.theme === "black"}
      loggedIn={Boolean(root?.user)}
      nonce={root?.nonce}
      hrefFor={(s) => localizePath(locale, `/spot/${s}`)}
    />
  );
}
