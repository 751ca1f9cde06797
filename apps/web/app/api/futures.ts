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
  PerpFamilyValue,
  PositionMarginBody,
  PositionMarginInfo,
  PositionMarginQuery,
  PositionSideValue,
} from "@meridian/contracts";
import { FuturesPath } from "@meridian/contracts";
import { deferredApi } from "./deferred-api.ts";
import { del } from "./paper.ts";

const api = () => deferredApi;
const name = (path: string) => path.replace(/^\//, "");
const opts = { silent: true };

/** Browser calls of the futures screens (`paptrading: 1` comes from the account client in simulation mode). */
export const futuresApi = {
  /** The USDT-M wallet, or with a coin (`BTC`) that coin's coin-M wallet. */
  account: (marginCoin?: string) =>
    api().get<FuturesAccount>(
      name(FuturesPath.ACCOUNT),
      marginCoin === undefined || marginCoin === "USDT" ? undefined : { marginCoin },
      opts,
    ),
  /** Every futures wallet of one family (`coin`: one per coin), or of both. */
  wallets: (family?: "usdt" | "coin") =>
    api().get<FuturesAccount[]>(name(FuturesPath.WALLETS), family ? { family } : undefined, opts),
  // The lists of one margin family (the server answers both without one).
  positions: (family: PerpFamilyValue = "usdt") =>
    api().get<FuturesPosition[]>(name(FuturesPath.POSITIONS), { family }, opts),
  openOrders: (family: PerpFamilyValue = "usdt") =>
    api().get<FuturesOrder[]>(name(FuturesPath.OPEN_ORDERS), { family }, opts),
  orderHistory: (family: PerpFamilyValue = "usdt") =>
    api().get<FuturesOrder[]>(name(FuturesPath.ORDER_HISTORY), { family }, opts),
  trades: (family: PerpFamilyValue = "usdt") =>
    api().get<FuturesTrade[]>(name(FuturesPath.TRADES), { family }, opts),
  funding: (family: PerpFamilyValue = "usdt") =>
    api().get<FundingRecord[]>(name(FuturesPath.FUNDING), { family }, opts),
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
  /** Spot <-> the futures wallet of `asset` (USDT: the USDT-M one; a coin: its coin-M one). */
  transfer: (direction: "IN" | "OUT", amount: string, asset = "USDT", clientTransferId?: string) =>
    api().post<FuturesAccount>(
      name(FuturesPath.TRANSFER),
      {
        direction,
        amount,
        ...(asset === "USDT" ? {} : { asset }),
        ...(clientTransferId ? { clientTransferId } : {}),
      },
      opts,
    ),
  /** Both families' marks (a page reads its contract's by symbol). */
  marks: () => api().get<FuturesMark[]>(name(FuturesPath.MARKS), undefined, opts),
  insuranceFund: () => api().get<InsuranceFund>(name(FuturesPath.INSURANCE_FUND), undefined, opts),
  /** Signed like every trading write: the API client sends the DELETE. */
  cancel: (id: number) => del<unknown>(FuturesPath.ORDER.replace(":id", String(id))).then(() => undefined),
};
