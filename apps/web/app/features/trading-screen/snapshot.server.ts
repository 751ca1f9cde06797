import type { Depth, MarketSymbolInfo, MarketTrade, Ticker } from "@meridian/contracts";
import { isSuccessCode, MarketPath } from "@meridian/contracts";
import type { ServerContext } from "../../server-context.ts";
import type { MarketSnapshot } from "./market-store.ts";

async function read<T>(server: ServerContext, path: string): Promise<T | null> {
  try {
    const answer = await server.api<T>(path);
    return isSuccessCode(answer.code) ? answer.data : null;
  } catch {
    return null;
  }
}

/**
 * The market as the server sees it for the first paint (symbols, every ticker, the
 * symbol's book and trades), read in-process. Missing parts render empty and fill live.
 */
export async function loadMarketSnapshot(
  server: ServerContext | undefined,
  symbol: string,
): Promise<MarketSnapshot> {
  if (!server) return { symbols: [], tickers: [], depth: null, trades: [] };
  const q = `symbol=${encodeURIComponent(symbol)}`;
  const [symbols, tickers, depth, trades] = await Promise.all([
    read<MarketSymbolInfo[]>(server, MarketPath.SYMBOLS),
    read<Ticker[]>(server, MarketPath.TICKERS),
    read<Depth>(server, `${MarketPath.DEPTH}?${q}&limit=100`),
    read<MarketTrade[]>(server, `${MarketPath.TRADES}?${q}&limit=60`),
  ]);
  return { symbols: symbols ?? [], tickers: tickers ?? [], depth, trades: trades ?? [] };
}

/** `{{name}}` placeholders filled from `values` (titles built on the server). */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => values[k] ?? "");
}
