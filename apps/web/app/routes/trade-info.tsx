import { PERP_CONTRACTS } from "@meridian/domain";
import pagesStyles from "../features/account-records/pages.css?url";
import { loadTradeInfo } from "../features/trade-info/page.server.ts";
import { TradeInfoPage } from "../features/trade-info/trade-info-page.tsx";
import tradeStyles from "../features/trading-screen/trade.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import assetsStyles from "../styles/assets.css?url";
import type { Route } from "./+types/trade-info";

export const links: Route.LinksFunction = () =>
  [tradeStyles, assetsStyles, pagesStyles].map((href) => ({ rel: "stylesheet", href }));

/** /trade-info(?symbol=) and /trade-info/{symbol}: the pair's information, phone first. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const raw = params.symbol ?? new URL(request.url).searchParams.get("symbol") ?? "BTCUSDT";
  const page = await loadTradeInfo(localeFromParams(params), raw.toUpperCase(), context);
  return { ...page, perpetuals: PERP_CONTRACTS.map((c) => c.symbol) };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData ? [{ title: loaderData.title }] : [];
}

export default function TradeInfo({ loaderData }: Route.ComponentProps) {
  return (
    <TradeInfoPage
      locale={loaderData.locale}
      symbol={loaderData.symbol}
      info={loaderData.info}
      symbols={loaderData.symbols}
      ticker={loaderData.ticker}
      cap={loaderData.cap}
      extremes={loaderData.extremes}
      perpetuals={loaderData.perpetuals}
    />
  );
}
