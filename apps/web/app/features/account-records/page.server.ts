import type { MarketSymbolInfo } from "@meridian/contracts";
import { isSuccessCode, MarketPath } from "@meridian/contracts";
import { COIN_PERP_CONTRACTS, PERP_CONTRACTS } from "@meridian/domain";
import type { RouterContextProvider } from "react-router";
import { loadI18n } from "../../i18n/resources.server.ts";
import { readServerContext } from "../../lib/server-context.server.ts";

/**
 * Loader body of /transac, /trade-asset-order, /order/mcp and /record/mcp: the market
 * symbols (asset filter), the perpetual contracts (contract filter), the translations.
 */
export async function loadStatementPage(
  locale: string,
  page: "transac" | "phoneRecords" | "mcpOrders" | "mcpRecords",
  context: Readonly<RouterContextProvider> | undefined,
) {
  const i18n = loadI18n(locale, ["trade", "assets", "futures", "pages"]);
  const server = readServerContext(context);
  const answer = await server?.api<MarketSymbolInfo[]>(MarketPath.SYMBOLS).catch(() => undefined);
  const symbols = answer && isSuccessCode(answer.code) ? answer.data : [];
  const titles = (i18n.bundles.pages as { titles?: Record<string, string> }).titles ?? {};
  return {
    locale,
    i18n,
    symbols,
    contracts: [...PERP_CONTRACTS, ...COIN_PERP_CONTRACTS].map((c) => c.symbol),
    title: titles[page] ?? "Meridian",
  };
}
