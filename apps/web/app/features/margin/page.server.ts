import type { MarketSymbolInfo } from "@meridian/contracts";
import { isSuccessCode, MarketPath } from "@meridian/contracts";
import type { RouterContextProvider } from "react-router";
import { loadI18n } from "../../i18n/resources.server.ts";
import { readServerContext } from "../../lib/server-context.server.ts";
import { loadTradePage } from "../trading-screen/page.server.ts";
import { fill } from "../trading-screen/snapshot.server.ts";

type MarginMeta = { meta?: Record<string, string> };

/** Loader body of /trade-margin(/:symbol): the spot snapshot, the margin namespace and a title with the price. */
export async function loadMarginPage(
  locale: string,
  symbol: string,
  context: Readonly<RouterContextProvider> | undefined,
) {
  const page = await loadTradePage(locale, symbol, context);
  const i18n = loadI18n(locale, ["trade", "margin"]);
  const meta = (i18n.bundles.margin as MarginMeta).meta ?? {};
  const info = page.snapshot.symbols.find((s) => s.symbol === symbol);
  const values = { base: info?.base ?? symbol, quote: info?.quote ?? "", symbol };
  return { ...page, i18n, title: fill(meta.trade ?? "{{base}}/{{quote}} Margin | Meridian", values) };
}

/**
 * Loader body of the margin history and asset pages: the market symbols (pair names and
 * precisions; empty when the market is unreachable) and the translations.
 */
export async function loadMarginListPage(
  locale: string,
  page: "orders" | "records" | "assets",
  context: Readonly<RouterContextProvider> | undefined,
) {
  const i18n = loadI18n(locale, ["trade", "assets", "margin"]);
  const server = readServerContext(context);
  const answer = await server?.api<MarketSymbolInfo[]>(MarketPath.SYMBOLS).catch(() => undefined);
  const symbols = answer && isSuccessCode(answer.code) ? answer.data : [];
  const title = (i18n.bundles.margin as MarginMeta).meta?.[page] ?? "Meridian";
  return { locale, i18n, symbols, title };
}
