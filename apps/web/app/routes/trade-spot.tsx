import { localizePath } from "@meridian/contracts/locales";
import { useRouteLoaderData } from "react-router";
import { NO_ANTD_HANDLE } from "../features/shell/antd-settings.ts";
import { TradePage } from "../features/trade/trade-page.tsx";
import { loadTradePage } from "../features/trading-screen/page.server.ts";
import tradeStyles from "../features/trading-screen/trade.css?url";
import tradeFormStyles from "../features/trading-screen/trade-form.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/trade-spot";

/** No antd until a user's button or a trader's dialog brings it (antd-island.tsx). */
export const handle = NO_ANTD_HANDLE;

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: tradeFormStyles },
];

/**
 * The phone layout of the spot page (app webviews link here): /trade-spot/{symbol}, or
 * /trade-spot with `?symbol=` (BTCUSDT when absent).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const raw = params.symbol ?? new URL(request.url).searchParams.get("symbol") ?? "BTCUSDT";
  return loadTradePage(locale, raw.toUpperCase(), context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [
    { title: loaderData.title },
    { name: "description", content: loaderData.description },
    { name: "robots", content: "noindex" },
  ];
}

export default function TradeSpot({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ theme?: string; user?: unknown; nonce?: string }>("root");
  const { locale, symbol, snapshot } = loaderData;
  return (
    <TradePage
      locale={locale}
      symbol={symbol}
      snapshot={snapshot}
      layout="phone"
      dark={root?.theme === "black"}
      loggedIn={Boolean(root?.user)}
      nonce={root?.nonce}
      hrefFor={(s) => localizePath(locale, `/trade-spot/${s}`)}
    />
  );
}
