import type { MarketSymbolInfo } from "@meridian/contracts";
import { isSuccessCode, MarketPath } from "@meridian/contracts";
import { useRouteLoaderData } from "react-router";
import recordsStyles from "../features/trading-screen/records.css?url";
import { RecordsPage } from "../features/trading-screen/records-page.tsx";
import tradeStyles from "../features/trading-screen/trade.css?url";
import tradeFormStyles from "../features/trading-screen/trade-form.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import { readServerContext } from "../lib/server-context.server.ts";
import assetsStyles from "../styles/assets.css?url";
import type { Route } from "./+types/record-exchange";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: tradeFormStyles },
  { rel: "stylesheet", href: recordsStyles },
  { rel: "stylesheet", href: assetsStyles },
];

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const i18n = loadI18n(locale, ["trade", "assets"]);
  const server = readServerContext(context);
  const answer = await server?.api<MarketSymbolInfo[]>(MarketPath.SYMBOLS).catch(() => undefined);
  const symbols = answer && isSuccessCode(answer.code) ? answer.data : [];
  const title = (i18n.bundles.trade as { meta?: { recordsTitle?: string } }).meta?.recordsTitle ?? "Meridian";
  return { locale, i18n, symbols, title };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData ? [{ title: loaderData.title }, { name: "robots", content: "noindex" }] : [];
}

export default function RecordExchange({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  return (
    <RecordsPage locale={loaderData.locale} loggedIn={Boolean(root?.user)} symbols={loaderData.symbols} />
  );
}
