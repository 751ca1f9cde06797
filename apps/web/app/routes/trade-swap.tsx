import { loadFuturesPage } from "../features/futures/page.server.ts";
import { FuturesRoutePage, futuresLinks } from "../features/futures/route-page.tsx";
import { NO_ANTD_HANDLE } from "../features/shell/antd-settings.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/trade-swap";

/** No antd until a user's button or a trader's dialog brings it (antd-island.tsx). */
export const handle = NO_ANTD_HANDLE;

export const links: Route.LinksFunction = futuresLinks;

/** The phone layout of the futures page: /trade-swap/{symbol}, or /trade-swap with `?symbol=`. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  return loadFuturesPage(
    localeFromParams(params),
    (params.symbol ?? new URL(request.url).searchParams.get("symbol") ?? "BTCUSDT").toUpperCase(),
    context,
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData ? [{ title: loaderData.title }] : [];
}

export default function TradeSwap({ loaderData }: Route.ComponentProps) {
  const { locale, symbol, snapshot } = loaderData;
  return <FuturesRoutePage locale={locale} symbol={symbol} snapshot={snapshot} layout="phone" />;
}
