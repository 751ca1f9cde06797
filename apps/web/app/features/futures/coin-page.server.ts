import { coinPerpContract } from "@meridian/domain";
import type { RouterContextProvider } from "react-router";
import { data } from "react-router";
import { loadI18n } from "../../i18n/resources.server.ts";
import { readServerContext } from "../../lib/server-context.server.ts";
import { fill, loadMarketSnapshot } from "../trading-screen/snapshot.server.ts";
import { COIN_MARKETS, coinContractOfMarket, coinMarketOf, coinScreenInfo } from "./families.ts";

/**
 * Loader body of /futures/coin/:symbol: a listed coin-margined contract, else the site's
 * 404. The chart, book and trades are the coin's spot market against USDT (the market its
 * index follows), priced in USD; the symbol picker lists the coin-margined contracts.
 */
export async function loadCoinFuturesPage(
  locale: string,
  symbol: string,
  context: Readonly<RouterContextProvider> | undefined,
) {
  const contract = coinPerpContract(symbol);
  if (contract === undefined) throw data(null, { status: 404 });
  const market = coinMarketOf(contract);
  const loaded = await loadMarketSnapshot(readServerContext(context), market);
  const spot = new Map(loaded.symbols.map((s) => [s.symbol, s]));
  const snapshot = {
    ...loaded,
    // Every coin-M contract in the picker, under its spot market's id (the feed's).
    symbols: [...COIN_MARKETS].flatMap((m) => {
      const c = coinContractOfMarket(m);
      return c ? [coinScreenInfo(c, spot.get(m))] : [];
    }),
  };
  const i18n = loadI18n(locale, ["trade", "futures", "margin"]);
  const meta =
    (i18n.bundles.futures as { coin?: { meta?: { title?: string; description?: string } } }).coin?.meta ?? {};
  const values = { symbol: contract.symbol, coin: contract.marginAsset };
  return {
    locale,
    symbol: contract.symbol,
    market,
    snapshot,
    i18n,
    title: fill(meta.title ?? "{{symbol}} | Meridian", values),
    description: fill(meta.description ?? "", values),
  };
}
