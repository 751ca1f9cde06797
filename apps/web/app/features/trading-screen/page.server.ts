import { formatDecimal } from "@meridian/domain";
import type { RouterContextProvider } from "react-router";
import { data } from "react-router";
import { loadI18n } from "../../i18n/resources.server.ts";
import { readServerContext } from "../../lib/server-context.server.ts";
import { fill, loadMarketSnapshot } from "./snapshot.server.ts";

/**
 * Loader body shared by /spot/:symbol and /trade-spot: the market snapshot, the trade
 * translations and a title with the live price. An unknown symbol is a 404.
 */
export async function loadTradePage(
  locale: string,
  symbol: string,
  context: Readonly<RouterContextProvider> | undefined,
) {
  const snapshot = await loadMarketSnapshot(readServerContext(context), symbol);
  const info = snapshot.symbols.find((s) => s.symbol === symbol);
  if (snapshot.symbols.length > 0 && !info) throw data(null, { status: 404 });
  const i18n = loadI18n(locale, ["trade"]);
  const meta = (i18n.bundles.trade as { meta?: { title?: string; description?: string } }).meta ?? {};
  const ticker = snapshot.tickers.find((t) => t.symbol === symbol);
  const values = {
    price: ticker && info ? formatDecimal(ticker.lastPrice, info.priceDecimals) : "",
    base: info?.base ?? symbol,
    quote: info?.quote ?? "",
    name: info?.name ?? symbol,
  };
  return {
    locale,
    symbol,
    snapshot,
    i18n,
    title: fill(meta.title ?? "{{price}} {{base}}/{{quote}} | Meridian", values),
    description: fill(meta.description ?? "", values),
  };
}
