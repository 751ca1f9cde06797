import { ApiError } from "@meridian/client/api-error";
import type {
  Depth,
  Kline,
  KlineIntervalValue,
  MarketStatus,
  MarketSymbolInfo,
  MarketTrade,
  PaperBalance,
  PaperFees,
  PaperOrder,
  PaperTrade,
  PlaceOrderBody,
  PlaceOrderResult,
  Ticker,
} from "@meridian/contracts";
import { MarketPath, PAPER_HEADER, PaperPath } from "@meridian/contracts";
import { deferredApi } from "./deferred-api.ts";

/**
 * Browser calls for the trade screens. Market data is public; paper calls go through
 * the account client, which adds `paptrading: 1` while simulation mode is on.
 */
const api = () => deferredApi;
const name = (path: string) => path.replace(/^\//, "");

export const marketApi = {
  symbols: () => api().get<MarketSymbolInfo[]>(name(MarketPath.SYMBOLS), undefined, { silent: true }),
  tickers: () => api().get<Ticker[]>(name(MarketPath.TICKERS), undefined, { silent: true }),
  klines: (symbol: string, interval: KlineIntervalValue, limit = 500, endTime?: number) =>
    api().get<Kline[]>(name(MarketPath.KLINES), { symbol, interval, limit, endTime }, { silent: true }),
  depth: (symbol: string, limit = 50) =>
    api().get<Depth>(name(MarketPath.DEPTH), { symbol, limit }, { silent: true }),
  trades: (symbol: string, limit = 50) =>
    api().get<MarketTrade[]>(name(MarketPath.TRADES), { symbol, limit }, { silent: true }),
  status: () => api().get<MarketStatus>(name(MarketPath.STATUS), undefined, { silent: true }),
};

type Query = {
  symbol?: string | undefined;
  limit?: number;
  before?: number | undefined;
  side?: "BUY" | "SELL" | undefined;
};
const query = (q: Query = {}) => ({ symbol: q.symbol, limit: q.limit, before: q.before, side: q.side });

/**
 * `DELETE` through the API client, so a cancel is signed like every other trading write
 * (the sign config covers `/v1/paper/orders/`), with the simulation header it needs.
 */
export function del<T>(path: string): Promise<T> {
  return api().request<T>("DELETE", name(path), undefined, {
    silent: true,
    headers: { [PAPER_HEADER]: "1" },
  });
}

export const paperApi = {
  place: (body: PlaceOrderBody) =>
    api().post<PlaceOrderResult>(name(PaperPath.ORDERS), body, { silent: true }),
  cancel: (orderId: number) => del<PaperOrder>(PaperPath.ORDER.replace(":id", String(orderId))),
  openOrders: (q?: Query) => api().get<PaperOrder[]>(name(PaperPath.OPEN_ORDERS), query(q), { silent: true }),
  orderHistory: (q?: Query) =>
    api().get<PaperOrder[]>(name(PaperPath.ORDER_HISTORY), query(q), { silent: true }),
  trades: (q?: Query) => api().get<PaperTrade[]>(name(PaperPath.TRADES), query(q), { silent: true }),
  balances: () => api().get<PaperBalance[]>(name(PaperPath.BALANCES), undefined, { silent: true }),
  topUp: (asset: string, amount: string) =>
    api().post<PaperBalance[]>(name(PaperPath.TOPUP), { asset, amount }, { silent: true }),
  reset: () => api().post<PaperBalance[]>(name(PaperPath.RESET), {}, { silent: true }),
  fees: () => api().get<PaperFees>(name(PaperPath.FEES), undefined, { silent: true }),
};

/** The error's envelope code, or "" for transport failures. */
export function errorCode(error: unknown): string {
  return error instanceof ApiError ? error.code : "";
}
