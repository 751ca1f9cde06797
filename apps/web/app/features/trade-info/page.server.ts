import type { Kline, MarketCap, MarketSymbolInfo, Ticker } from "@meridian/contracts";
import { isSuccessCode, KLINES_MAX_LIMIT, MarketPath } from "@meridian/contracts";
import type { RouterContextProvider } from "react-router";
import { data } from "react-router";
import { loadI18n } from "../../i18n/resources.server.ts";
import { readServerContext } from "../../lib/server-context.server.ts";
import { fill } from "../trading-screen/snapshot.server.ts";

/** Compares two non-negative decimal strings of the same pair (same decimals): no float. */
function cmp(a: string, b: string): number {
  const [ai = "0", af = ""] = a.split(".");
  const [bi = "0", bf = ""] = b.split(".");
  const width = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(width, "0"));
  const y = BigInt(bi + bf.padEnd(width, "0"));
  return x < y ? -1 : x > y ? 1 : 0;
}

export interface PairExtremes {
  high: string;
  highTime: number;
  low: string;
  lowTime: number;
  since: number;
}

/** Highest high and lowest low over the daily candles (the market's whole history here). */
export function extremes(klines: readonly Kline[]): PairExtremes | null {
  const first = klines[0];
  if (first === undefined) return null;
  let hi = first;
  let lo = first;
  for (const k of klines) {
    if (cmp(k.high, hi.high) > 0) hi = k;
    if (cmp(k.low, lo.low) < 0) lo = k;
  }
  return { high: hi.high, highTime: hi.openTime, low: lo.low, lowTime: lo.openTime, since: first.openTime };
}

/**
 * Loader body of /trade-info: the pair, its 24 h ticker, supply and market cap, and the
 * all-time high and low from the daily candles. An unknown symbol is a 404.
 */
export async function loadTradeInfo(
  locale: string,
  symbol: string,
  context: Readonly<RouterContextProvider> | undefined,
) {
  const server = readServerContext(context);
  const get = async <T>(path: string): Promise<T | null> => {
    const answer = await server?.api<T>(path).catch(() => undefined);
    return answer && isSuccessCode(answer.code) ? answer.data : null;
  };
  const [symbols, ticker, caps, klines] = await Promise.all([
    get<MarketSymbolInfo[]>(MarketPath.SYMBOLS),
    get<Ticker>(`${MarketPath.TICKER}?symbol=${encodeURIComponent(symbol)}`),
    get<MarketCap[]>(`${MarketPath.CAPS}?limit=100`),
    get<Kline[]>(
      `${MarketPath.KLINES}?symbol=${encodeURIComponent(symbol)}&interval=1d&limit=${KLINES_MAX_LIMIT}`,
    ),
  ]);
  const info = symbols?.find((s) => s.symbol === symbol);
  if (symbols !== null && info === undefined) throw data(null, { status: 404 });
  const i18n = loadI18n(locale, ["pages", "coins", "trade"]);
  const meta =
    (i18n.bundles.pages as { tradeInfo?: { meta?: string } }).tradeInfo?.meta ?? "{{name}} ({{base}})";
  return {
    locale,
    symbol,
    i18n,
    info: info ?? null,
    symbols: symbols ?? [],
    ticker,
    cap: caps?.find((c) => c.symbol === symbol) ?? null,
    extremes: extremes(klines ?? []),
    title: fill(meta, { name: info?.name ?? symbol, base: info?.base ?? symbol }),
  };
}
