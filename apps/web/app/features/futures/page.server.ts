import type { RouterContextProvider } from "react-router";
import { loadI18n } from "../../i18n/resources.server.ts";
import { loadTradePage } from "../trading-screen/page.server.ts";

/** Loader body of /futures/usdt/:symbol and /trade-swap: the spot snapshot plus the futures namespace. */
export async function loadFuturesPage(
  locale: string,
  symbol: string,
  context: Readonly<RouterContextProvider> | undefined,
) {
  const page = await loadTradePage(locale, symbol, context);
  const i18n = loadI18n(locale, ["trade", "futures", "margin"]);
  const meta = (i18n.bundles.futures as { meta?: { title?: string; description?: string } }).meta ?? {};
  return {
    ...page,
    i18n,
    title: (meta.title ?? "{{symbol}} Perpetual | Meridian").replace("{{symbol}}", symbol),
    description: (meta.description ?? "").replaceAll("{{symbol}}", symbol),
  };
}
