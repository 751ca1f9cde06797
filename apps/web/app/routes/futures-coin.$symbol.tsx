import { loadCoinFuturesPage } from "../features/futures/coin-page.server.ts";
import { FuturesRoutePage, futuresLinks } from "../features/futures/route-page.tsx";
import { NO_ANTD_HANDLE } from "../features/shell/antd-settings.ts";
import type { PaintFirstRouteHandle } from "../features/shell/paint-first.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/futures-coin.$symbol";

/** As /futures/usdt/:symbol: the server HTML paints first, antd only when a dialog needs it. */
export const handle = { ...NO_ANTD_HANDLE, paintFirst: true } satisfies PaintFirstRouteHandle;

export const links: Route.LinksFunction = futuresLinks;

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadCoinFuturesPage(localeFromParams(params), (params.symbol ?? "").toUpperCase(), context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData
    ? [{ title: loaderData.title }, { name: "description", content: loaderData.description }]
    : [];
}

export default function CoinFutures({ loaderData }: Route.ComponentProps) {
  const { locale, symbol, snapshot } = loaderData;
  return <FuturesRoutePage locale={locale} symbol={symbol} snapshot={snapshot} layout="auto" family="coin" />;
}
