import type {
  FundingRecord,
  FuturesAccount,
  FuturesMark,
  FuturesOrder,
  FuturesOrderBody,
  FuturesPosition,
  FuturesSettings,
  FuturesTrade,
  InsuranceFund,
  MarginModeValue,
  PositionMarginBody,
  PositionMarginInfo,
  PositionMarginQuery,
  PositionSideValue,
} from "@meridian/contracts";
import { FuturesPath } from "@meridian/contracts";
import { deferredApi } from "../account/deferred-api.ts";
import { del } from "../trading-screen/api.ts";

const api = () => deferredApi;
const name = (path: string) => path.replace(/^\//, "");
const opts = { silent: true };

/** Browser calls of the futures screens (`paptrading: 1` comes from the account client in simulation mode). */
export const futuresApi = {
  account: () => api().get<FuturesAccount>(name(FuturesPath.ACCOUNT), undefined, opts),
  positions: () => api().get<FuturesPosition[]>(name(FuturesPath.POSITIONS), undefined, opts),
  openOrders: () => api().get<FuturesOrder[]>(name(FuturesPath.OPEN_ORDERS), undefined, opts),
  orderHistory: () => api().get<FuturesOrder[]>(name(FuturesPath.ORDER_HISTORY), undefined, opts),
  trades: () => api().get<FuturesTrade[]>(name(FuturesPath.TRADES), undefined, opts),
  funding: () => api().get<FundingRecord[]>(name(FuturesPath.FUNDING), undefined, opts),
  settings: (symbol: string) => api().get<FuturesSettings>(name(FuturesPath.SETTINGS), { symbol }, opts),
  place: (body: FuturesOrderBody) => api().post<FuturesOrder>(name(FuturesPath.ORDERS), body, opts),
  closeAll: (symbol?: string) => api().post<FuturesOrder[]>(name(FuturesPath.CLOSE_ALL), { symbol }, opts),
  tpsl: (body: { symbol: string; positionSide: PositionSideValue; takeProfit?: string; stopLoss?: string }) =>
    api().post<FuturesOrder[]>(name(FuturesPath.TPSL), body, opts),
  leverage: (symbol: string, leverage: number) =>
    api().post<FuturesSettings>(name(FuturesPath.LEVERAGE), { symbol, leverage }, opts),
  marginMode: (symbol: string, marginMode: MarginModeValue) =>
    api().post<FuturesSettings>(name(FuturesPath.MARGIN_MODE), { symbol, marginMode }, opts),
  positionMode: (dualSidePosition: boolean) =>
    api().post<{ dualSidePosition: boolean }>(name(FuturesPath.POSITION_MODE), { dualSidePosition }, opts),
  marginInfo: (q: PositionMarginQuery) =>
    api().get<PositionMarginInfo>(name(FuturesPath.POSITION_MARGIN), { ...q }, opts),
  adjustMargin: (body: PositionMarginBody) =>
    api().post<FuturesPosition>(name(FuturesPath.POSITION_MARGIN), body, opts),
  transfer: (direction: "IN" | "OUT", amount: string) =>
    api().post<FuturesAccount>(name(FuturesPath.TRANSFER), { direction, amount }, opts),
  marks: () => api().get<FuturesMark[]>(name(FuturesPath.MARKS), undefined, opts),
  insuranceFund: () => api().get<InsuranceFund>(name(FuturesPath.INSURANCE_FUND), undefined, opts),
  /** Signed like every trading write: the API client sends the DELETE. */
  cancel: (id: number) => del<unknown>(FuturesPath.ORDER.replace(":id", String(id))).then(() => undefined),
};
