import { loadFuturesPage } from "../features/futures/page.server.ts";
import { FuturesRoutePage, futuresLinks } from "../features/futures/route-page.tsx";
import { NO_ANTD_HANDLE } from "../features/shell/antd-settings.ts";
import type { PaintFirstRouteHandle } from "../features/shell/paint-first.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/futures.$symbol";

/**
 * The server HTML (ticker, book, trades, forms) paints before any script loads; hydration
 * follows. No antd until a user's button or a trader's dialog brings it (antd-island.tsx).
 */
export const handle = { ...NO_ANTD_HANDLE, paintFirst: true } satisfies PaintFirstRouteHandle;

export const links: Route.LinksFunction = futuresLinks;

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadFuturesPage(localeFromParams(params), (params.symbol ?? "BTCUSDT").toUpperCase(), context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData
    ? [{ title: loaderData.title }, { name: "description", content: loaderData.description }]
    : [];
}

export default function Futures({ loaderData }: Route.ComponentProps) {
  const { locale, symbol, snapshot } = loaderData;
  return <FuturesRoutePage locale={locale} symbol={symbol} snapshot={snapshot} layout="auto" />;
}
