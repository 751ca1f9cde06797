import {
  FUTURES_MARGIN_COINS,
  FUTURES_ORDER_TYPES,
  FUTURES_TIME_IN_FORCE,
  type FuturesOrderType,
  type FuturesTimeInForce,
  MARGIN_ADJUST_TYPES,
  MARGIN_MODES,
  type MarginModeValue,
  PERP_FAMILIES,
  type PerpFamilyValue,
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
    /** Trigger price on the mark (the trigger types); a trailing stop's activation price. */
    stopPrice: decimal.optional(),
    /** TRAILING_STOP_MARKET: how far back from the best mark it fires, in percent (0.1 to 10). */
    callbackRate: decimal.optional(),
    reduceOnly: z.boolean().default(false),
    /** Trigger orders: close the whole position when triggered (no quantity). */
    closePosition: z.boolean().default(false),
    /**
     * Unique per account among futures orders: placing again with an id already used
     * answers the order first placed with it (safe to retry; docs/trading.md).
     */
    clientOrderId: clientOrderId.optional(),
    /**
     * LIMIT only: GTC rests what does not fill at once (the default); IOC expires it; FOK
     * fills whole at once or expires with nothing filled; GTX (post-only) is refused when it
     * would take.
     */
    timeInForce: z.enum(FUTURES_TIME_IN_FORCE).optional(),
  })
  .refine((b) => b.timeInForce === undefined || b.type === "LIMIT", {
    path: ["timeInForce"],
    message: "limit orders only",
  })
  .refine((b) => !b.type.endsWith("LIMIT") || b.price !== undefined, { path: ["price"], message: "required" })
  .refine((b) => b.type === "LIMIT" || b.type === "MARKET" || b.stopPrice !== undefined, {
    path: ["stopPrice"],
    message: "required",
  })
  .refine((b) => b.type !== "TRAILING_STOP_MARKET" || b.callbackRate !== undefined, {
    path: ["callbackRate"],
    message: "required",
  })
  .refine((b) => b.closePosition || b.quantity !== undefined, { path: ["quantity"], message: "required" });
export type FuturesOrderBody = z.input<typeof futuresOrderBodySchema>;

/** Restricts a list to one margin family (`usdt`: BTCUSDT..., `coin`: BTCUSD...); both when absent. */
const family = z.enum(PERP_FAMILIES).optional();
/** A futures wallet by its asset: USDT (the USDT-M wallet) or a coin (its coin-M wallet). */
const marginCoin = z.enum(FUTURES_MARGIN_COINS);

export const futuresQuerySchema = z.object({ ...listPage, family });
export type FuturesQuery = z.input<typeof futuresQuerySchema>;

export const futuresOrderIdParamsSchema = idParamsSchema;

export const leverageBodySchema = z.object({ symbol, leverage: z.number().int().min(1).max(125) });
export const marginModeBodySchema = z.object({ symbol, marginMode: z.enum(MARGIN_MODES) });
export const positionModeBodySchema = z.object({ dualSidePosition: z.boolean() });
export const settingsQuerySchema = z.object({ symbol });
/** GET FuturesPath.ACCOUNT: the USDT-M wallet, or with `marginCoin=BTC` the BTC coin-M wallet. */
export const accountQuerySchema = z.object({ marginCoin: marginCoin.default("USDT") });
/** GET FuturesPath.POSITIONS, WALLETS, MARKS: both families, or one. */
export const familyQuerySchema = z.object({ family });
/** GET FuturesPath.INSURANCE_FUND: one fund per margin asset. */
export const insuranceFundQuerySchema = z.object({ asset: marginCoin.default("USDT") });
export const transferBodySchema = z.object({
  /** IN: spot -> futures wallet; OUT: futures wallet -> spot. */
  direction: z.enum(["IN", "OUT"]),
  /** Which futures wallet, named by its asset: USDT (USDT-M) or a coin (its coin-M wallet). */
  asset: marginCoin.default("USDT"),
  /** In `asset`, at most its ledger decimals. */
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

/** One futures wallet: the USDT-M one, or one coin's coin-M one (amounts in `marginCoin`). */
export interface FuturesAccount {
  family: PerpFamilyValue;
  /** The wallet's asset: "USDT", or the coin ("BTC") of a coin-M wallet. */
  marginCoin: string;
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

/** Amounts (notional, margin, PnL) are in `marginCoin`; coin-M quantities are whole contracts. */
export interface FuturesPosition {
  symbol: string;
  family: PerpFamilyValue;
  marginCoin: string;
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
  family: PerpFamilyValue;
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
  /** LIMIT orders: how long the order may rest (GTC unless the order said otherwise). */
  timeInForce?: FuturesTimeInForce;
  /** TRAILING_STOP_MARKET: the callback in percent. */
  callbackRate?: string;
  /** A trigger order: when the mark reached it (a limit one then rests as a limit). */
  triggerTime?: number;
  /** The client's id for the order, or `#<id>` when it was placed without one. */
  clientOrderId: string;
  status: FuturesOrderStatus;
  /** Why it ended, when it ended other than filled or cancelled by the user. */
  reason: string | null;
  time: number;
  updateTime: number;
}

/** `realisedPnl` and `fee` are in `marginCoin`. */
export interface FuturesTrade {
  id: number;
  orderId: number;
  symbol: string;
  family: PerpFamilyValue;
  marginCoin: string;
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

/** `amount` is in `marginCoin`. */
export interface FundingRecord {
  id: number;
  symbol: string;
  family: PerpFamilyValue;
  marginCoin: string;
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
  family: PerpFamilyValue;
  /** The asset margin and PnL are in: USDT, or the base coin of a coin-M contract. */
  marginCoin: string;
  /** Coin-M: US dollars per contract ("100" for BTCUSD); null for USDT-M (sizes in the base coin). */
  contractValue: string | null;
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
  asset: string;
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
/** PnL and fees in `marginCoin`. */
export interface ClosedPositionRecord {
  symbol: string;
  family: PerpFamilyValue;
  marginCoin: string;
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
  family,
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Closed before this time (ms; paging backwards). */
  before: z.coerce.number().int().min(1).optional(),
});
export type PositionHistoryQuery = z.input<typeof positionHistoryQuerySchema>;
