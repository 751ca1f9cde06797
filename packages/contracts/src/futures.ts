import {
  clientOrderId,
  clientTransferId,
  decimal,
  idParamsSchema,
  listPage,
  symbol,
} from "./order-fields.ts";
import { z } from "./zod-csp.ts";

/**
 * USDT-M perpetuals on paper: `/v1/paper/futures/*` (logged in, `paptrading: 1`) and
 * the `/v1/ws/futures` stream. Amounts are USDT decimal strings with 8 decimals; prices
 * and quantities use the contract's tick and lot (see `PERP_CONTRACTS` in
 * `@meridian/domain`). Codes in the 14xxx range are ours.
 */
export const FuturesCode = {
  UNKNOWN_SYMBOL: "14001",
  /** Not enough available margin (data: required, available; adding isolated margin: max, USDT). */
  MARGIN_INSUFFICIENT: "14002",
  /** Leverage above what the risk bracket allows (data: leverage, max). */
  LEVERAGE_TOO_HIGH: "14003",
  /** Reduce-only would open or increase a position, or there is no position to close. */
  REDUCE_ONLY_REJECTED: "14004",
  /** Price or quantity off the contract's tick, lot or minimum notional (data: field). */
  ORDER_INVALID: "14005",
  ORDER_NOT_FOUND: "14006",
  ORDER_NOT_OPEN: "14007",
  /** The book had nothing to trade against. */
  NO_LIQUIDITY: "14008",
  /** Margin mode, leverage or position mode cannot change while positions or orders are open. */
  SETTING_LOCKED: "14009",
  /** Transfer more than the wallet can spare (data: max). */
  TRANSFER_EXCEEDS: "14010",
  /** The test mark endpoint is off (production without FUTURES_TEST_MARKS=1). */
  TEST_MARKS_OFF: "14011",
  /** Isolated margin reduce above what the position can spare (data: max, USDT). */
  MARGIN_REDUCE_EXCEEDS: "14012",
  /** Isolated margin change on a cross position or no open position on that side. */
  NOT_ISOLATED: "14013",
} as const;
export type FuturesCode = (typeof FuturesCode)[keyof typeof FuturesCode];

export const FuturesPath = {
  ACCOUNT: "/v1/paper/futures/account",
  POSITIONS: "/v1/paper/futures/positions",
  CLOSE_ALL: "/v1/paper/futures/positions/close-all",
  TPSL: "/v1/paper/futures/positions/tpsl",
  /** POST: add or reduce an isolated position's margin; GET: the most each way and the liquidation price estimate. */
  POSITION_MARGIN: "/v1/paper/futures/positions/margin",
  ORDERS: "/v1/paper/futures/orders",
  ORDER: "/v1/paper/futures/orders/:id",
  OPEN_ORDERS: "/v1/paper/futures/orders/open",
  ORDER_HISTORY: "/v1/paper/futures/orders/history",
  TRADES: "/v1/paper/futures/trades",
  FUNDING: "/v1/paper/futures/funding",
  /** Closed positions replayed from the fills (GET; /record/mcp). */
  POSITION_HISTORY: "/v1/paper/futures/positions/history",
  SETTINGS: "/v1/paper/futures/settings",
  LEVERAGE: "/v1/paper/futures/leverage",
  MARGIN_MODE: "/v1/paper/futures/margin-mode",
  POSITION_MODE: "/v1/paper/futures/position-mode",
  TRANSFER: "/v1/paper/futures/transfer",
  /** Public: the insurance fund balance (the /protection-fund page). */
  INSURANCE_FUND: "/v1/paper/futures/insurance-fund",
  /** Public: mark, index, funding rate and next funding time per contract. */
  MARKS: "/v1/paper/futures/marks",
  /** Test-only: pins a mark price (see README, FUTURES_TEST_MARKS). */
  TEST_MARK: "/v1/paper/futures/test/mark",
  WS: "/v1/ws/futures",
} as const;

export const FUTURES_ORDER_TYPES = ["LIMIT", "MARKET", "STOP_MARKET", "TAKE_PROFIT_MARKET"] as const;
export type FuturesOrderType = (typeof FUTURES_ORDER_TYPES)[number];
export const POSITION_SIDES = ["BOTH", "LONG", "SHORT"] as const;
export type PositionSideValue = (typeof POSITION_SIDES)[number];
export const MARGIN_MODES = ["cross", "isolated"] as const;
export type MarginModeValue = (typeof MARGIN_MODES)[number];

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
export const MARGIN_ADJUST_TYPES = ["ADD", "REDUCE"] as const;
export type MarginAdjustType = (typeof MARGIN_ADJUST_TYPES)[number];
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
