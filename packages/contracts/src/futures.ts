import {
  FUTURES_ORDER_TYPES,
  type FuturesOrderType,
  MARGIN_ADJUST_TYPES,
  MARGIN_MODES,
  type MarginModeValue,
  POSITION_SIDES,
  type PositionSideValue,
} from "./futures-values.ts";
import {
  clientOrderId,
  clientTransferId,
  decimal,
  idParamsSchema,
  listPage,
  symbol,
} from "./order-fields.ts";
import { z } from "./zod-csp.ts";

export * from "./futures-values.ts";

export const futuresOrderBodySchema = z
  .object({
    symbol,
    side: z.enum(["BUY", "SELL"]),
    type: z.enum(FUTURES_ORDER_TYPES),
    positionSide: z.enum(POSITION_SIDES).default("BOTH"),
    quantity: decimal.optional(),
    price: decimal.optional(),
    /** Trigger price on the mark (STOP_MARKET, TAKE_PROFIT_MARKET). */
    stopPrice: decimal.optional(),
    reduceOnly: z.boolean().default(false),
    /** Trigger orders: close the whole position when triggered (no quantity). */
    closePosition: z.boolean().default(false),
    /**
     * Unique per account among futures orders: placing again with an id already used
     * answers the order first placed with it (safe to retry; docs/trading.md).
     */
    clientOrderId: clientOrderId.optional(),
  })
  .refine((b) => b.type !== "LIMIT" || b.price !== undefined, { path: ["price"], message: "required" })
  .refine((b) => !b.type.endsWith("_MARKET") || b.stopPrice !== undefined, {
    path: ["stopPrice"],
    message: "required",
  })
  .refine((b) => b.closePosition || b.quantity !== undefined, { path: ["quantity"], message: "required" });
export type FuturesOrderBody = z.input<typeof futuresOrderBodySchema>;

export const futuresQuerySchema = z.object(listPage);
export type FuturesQuery = z.input<typeof futuresQuerySchema>;

export const futuresOrderIdParamsSchema = idParamsSchema;

export const leverageBodySchema = z.object({ symbol, leverage: z.number().int().min(1).max(125) });
export const marginModeBodySchema = z.object({ symbol, marginMode: z.enum(MARGIN_MODES) });
export const positionModeBodySchema = z.object({ dualSidePosition: z.boolean() });
export const settingsQuerySchema = z.object({ symbol });
export const transferBodySchema = z.object({
  /** IN: spot -> futures wallet; OUT: futures wallet -> spot. */
  direction: z.enum(["IN", "OUT"]),
  amount: decimal,
  /** Unique per account among wallet transfers: sent again, the transfer is not made twice. */
  clientTransferId: clientTransferId.optional(),
});
export type FuturesTransferBody = z.input<typeof transferBodySchema>;
export const closeAllBodySchema = z.object({ symbol: symbol.optional() });
export const tpslBodySchema = z
  .object({
    symbol,
    positionSide: z.enum(POSITION_SIDES).default("BOTH"),
    takeProfit: decimal.optional(),
    stopLoss: decimal.optional(),
  })
  .refine((b) => b.takeProfit !== undefined || b.stopLoss !== undefined, {
    path: ["takeProfit"],
    message: "required",
  });
export type TpslBody = z.input<typeof tpslBodySchema>;
/** Binance's "Adjust Margin" on an isolated position: ADD from the futures wallet, REDUCE back to it. */
export const positionMarginBodySchema = z.object({
  symbol,
  positionSide: z.enum(POSITION_SIDES).default("BOTH"),
  type: z.enum(MARGIN_ADJUST_TYPES),
  amount: decimal,
});
export type PositionMarginBody = z.input<typeof positionMarginBodySchema>;
/** The preview: with `type` and `amount`, also the margin and liquidation price after the change. */
export const positionMarginQuerySchema = z.object({
  symbol,
  positionSide: z.enum(POSITION_SIDES).default("BOTH"),
  type: z.enum(MARGIN_ADJUST_TYPES).optional(),
  amount: decimal.optional(),
});
export type PositionMarginQuery = z.input<typeof positionMarginQuerySchema>;
export const testMarkBodySchema = z.object({ symbol, price: decimal.nullable() });

export interface FuturesAccount {
  /** Cross wallet balance. */
  wallet: string;
  unrealisedPnl: string;
  marginBalance: string;
  /** What a new cross order may use (margin balance less cross initial margin). */
  available: string;
  /** Most that can go back to spot now. */
  maxTransferOut: string;
  maintenanceMargin: string;
  /** Cross margin ratio, percent ("12.34"); null past zero margin balance. */
  marginRatio: string | null;
  isolatedMargin: string;
  dualSidePosition: boolean;
}

export interface FuturesPosition {
  symbol: string;
  positionSide: PositionSideValue;
  marginMode: MarginModeValue;
  leverage: number;
  /** Signed quantity (negative short). */
  quantity: string;
  entryPrice: string;
  markPrice: string;
  liquidationPrice: string | null;
  notional: string;
  /** Isolated margin, or initial margin at the mark for cross. */
  margin: string;
  maintenanceMargin: string;
  /** Percent; null past zero margin balance. */
  marginRatio: string | null;
  unrealisedPnl: string;
  realisedPnl: string;
  /** Percent of the entry margin. */
  roe: string;
  takeProfit: string | null;
  stopLoss: string | null;
}

export interface PositionMarginInfo {
  symbol: string;
  positionSide: PositionSideValue;
  /** The position's isolated margin now. */
  margin: string;
  /** Most that may be added (the wallet's available margin). */
  maxAdd: string;
  /** Most that may be removed (what stays covers the initial margin at the mark after any loss). */
  maxRemove: string;
  liquidationPrice: string | null;
  /** With a valid type and amount within the bound: the margin and liquidation price after the change. */
  after: { margin: string; liquidationPrice: string | null } | null;
}

export type FuturesOrderStatus = "NEW" | "PARTIALLY_FILLED" | "FILLED" | "CANCELED" | "EXPIRED" | "REJECTED";

export interface FuturesOrder {
  id: number;
  symbol: string;
  side: "BUY" | "SELL";
  positionSide: PositionSideValue;
  type: FuturesOrderType;
  price: string | null;
  stopPrice: string | null;
  quantity: string;
  executedQty: string;
  avgPrice: string;
  reduceOnly: boolean;
  closePosition: boolean;
  /** The client's id for the order, or `#<id>` when it was placed without one. */
  clientOrderId: string;
  status: FuturesOrderStatus;
  /** Why it ended, when it ended other than filled or cancelled by the user. */
  reason: string | null;
  time: number;
  updateTime: number;
}

export interface FuturesTrade {
  id: number;
  orderId: number;
  symbol: string;
  side: "BUY" | "SELL";
  positionSide: PositionSideValue;
  price: string;
  quantity: string;
  realisedPnl: string;
  fee: string;
  maker: boolean;
  /** True for the liquidation engine's close. */
  liquidation: boolean;
  time: number;
}

export interface FundingRecord {
  id: number;
  symbol: string;
  positionSide: PositionSideValue;
  /** Rate of the interval (decimal, e.g. "0.00010000"). */
  rate: string;
  markPrice: string;
  /** Signed: negative paid, positive received. */
  amount: string;
  time: number;
}

export interface FuturesSettings {
  symbol: string;
  leverage: number;
  maxLeverage: number;
  marginMode: MarginModeValue;
  dualSidePosition: boolean;
  /** The account's rates on this contract in parts per million (its VIP level's), for the order form's cost. */
  makerPpm: number;
  takerPpm: number;
}

export interface FuturesMark {
  symbol: string;
  markPrice: string;
  indexPrice: string;
  /** Estimated rate of the running interval. */
  fundingRate: string;
  nextFundingTime: number;
  tickSize: string;
  stepSize: string;
  minNotional: string;
  maxLeverage: number;
}

export interface InsuranceFund {
  asset: "USDT";
  balance: string;
  time: number;
}

export type FuturesStreamPush =
  | { event: "account"; data: FuturesAccount }
  | { event: "positions"; data: FuturesPosition[] }
  | { event: "order"; data: FuturesOrder }
  | { event: "fill"; data: FuturesTrade }
  | { event: "funding"; data: FundingRecord }
  | { event: "marks"; data: FuturesMark[] }
  | { event: "ping"; time: number }
  | { event: "pong"; time: number }
  | { event: "error"; code: string; msg: string };

/** GET FuturesPath.ORDER: one order of the user with its fills (/order/mcp). */
export interface FuturesOrderDetail {
  order: FuturesOrder;
  fills: FuturesTrade[];
  /** Sums over the fills. */
  realisedPnl: string;
  fee: string;
}

/** One closed position (position history). */
export interface ClosedPositionRecord {
  symbol: string;
  positionSide: PositionSideValue;
  direction: "LONG" | "SHORT";
  openTime: number;
  closeTime: number;
  maxQty: string;
  entryPrice: string;
  closePrice: string;
  realisedPnl: string;
  fee: string;
  /** Realised PnL net of the fees. */
  netPnl: string;
  liquidated: boolean;
}

export const positionHistoryQuerySchema = z.object({
  symbol: symbol.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Closed before this time (ms; paging backwards). */
  before: z.coerce.number().int().min(1).optional(),
});
export type PositionHistoryQuery = z.input<typeof positionHistoryQuerySchema>;
