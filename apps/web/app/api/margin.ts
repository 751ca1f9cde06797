import { ApiError } from "@meridian/client/api-error";
import type {
  BorrowRepayBody,
  MarginAccountModeValue,
  MarginAccountView,
  MarginAssetQuery,
  MarginOrder,
  MarginOrderBody,
  MarginPairs,
  MarginPlaceResult,
  MarginRecord,
  MarginRecordType,
  MarginTrade,
  MaxAmount,
  WalletTransferBody,
  WalletTransferResult,
} from "@meridian/contracts";
import { MarginPath } from "@meridian/contracts";
import type { TFunction } from "i18next";
import { trimDecimal } from "../ui/amounts.ts";
import { deferredApi } from "./deferred-api.ts";
import { del } from "./paper.ts";

const api = () => deferredApi;
const name = (path: string) => path.replace(/^\//, "");
const opts = { silent: true };

/** Which margin account: cross, or the isolated account of one pair. */
export interface MarginScope {
  mode: MarginAccountModeValue;
  symbol?: string | undefined;
}

/** The query of a scope: the pair only for isolated accounts. */
export const scopeQuery = (s: MarginScope) =>
  s.mode === "isolated" ? { mode: s.mode, symbol: s.symbol } : { mode: s.mode };

/** List filters (`z.input` of the contract's coerced numbers is `unknown`, so spelled out here). */
export type MarginListQuery = {
  mode?: MarginAccountModeValue | undefined;
  symbol?: string | undefined;
  limit?: number;
  before?: number | undefined;
};
type RecordsQuery = MarginListQuery & { type?: MarginRecordType | undefined; asset?: string | undefined };

/** Browser calls of the margin screens (`paptrading: 1` comes from the account client in simulation mode). */
export const marginApi = {
  pairs: () => api().get<MarginPairs>(name(MarginPath.PAIRS), undefined, opts),
  account: (s: MarginScope) => api().get<MarginAccountView>(name(MarginPath.ACCOUNT), scopeQuery(s), opts),
  isolated: () => api().get<MarginAccountView[]>(name(MarginPath.ISOLATED_ACCOUNTS), undefined, opts),
  maxBorrowable: (q: MarginAssetQuery) => api().get<MaxAmount>(name(MarginPath.MAX_BORROWABLE), q, opts),
  maxTransferable: (q: MarginAssetQuery) => api().get<MaxAmount>(name(MarginPath.MAX_TRANSFERABLE), q, opts),
  borrow: (body: BorrowRepayBody) => api().post<MarginAccountView>(name(MarginPath.BORROW), body, opts),
  repay: (body: BorrowRepayBody) => api().post<MarginAccountView>(name(MarginPath.REPAY), body, opts),
  place: (body: MarginOrderBody) => api().post<MarginPlaceResult>(name(MarginPath.ORDERS), body, opts),
  cancel: (id: number) => del<MarginOrder>(MarginPath.ORDER.replace(":id", String(id))),
  openOrders: (q: MarginListQuery = {}) => api().get<MarginOrder[]>(name(MarginPath.OPEN_ORDERS), q, opts),
  orderHistory: (q: MarginListQuery = {}) =>
    api().get<MarginOrder[]>(name(MarginPath.ORDER_HISTORY), q, opts),
  trades: (q: MarginListQuery = {}) => api().get<MarginTrade[]>(name(MarginPath.TRADES), q, opts),
  records: (q: RecordsQuery = {}) => api().get<MarginRecord[]>(name(MarginPath.RECORDS), q, opts),
  transfer: (body: WalletTransferBody) =>
    api().post<WalletTransferResult>(name(MarginPath.TRANSFER), body, opts),
};

/** Re-exported: the margin, records and reserves pages format amounts with it. */
export { trimDecimal };

let pairsOnce: Promise<MarginPairs> | null = null;
/** The marginable pairs, read once per page load (a failure is retried on the next call). */
export function marginPairs(): Promise<MarginPairs> {
  pairsOnce ??= marginApi.pairs().catch((e: unknown) => {
    pairsOnce = null;
    throw e;
  });
  return pairsOnce;
}

/**
 * A refusal as the user reads it: the translated reason for our 15xxx codes and 12001 (with the
 * limit the server sent), else the server's own message, and the code in brackets.
 */
export function marginErrorText(t: TFunction, error: unknown): string {
  if (!(error instanceof ApiError) || error.code === "") return t("margin:errors.network");
  const data = (error.data ?? {}) as { max?: unknown; owed?: unknown; balance?: unknown; symbol?: unknown };
  const max = typeof data.max === "string" ? trimDecimal(data.max) : "";
  const owed = typeof data.owed === "string" ? trimDecimal(data.owed) : "";
  const symbol = typeof data.symbol === "string" ? data.symbol : "";
  const text = t(`margin:errors.${error.code}`, { defaultValue: "", max, owed, symbol });
  return `${text || error.msg || t("margin:errors.generic")} (${error.code})`;
}
