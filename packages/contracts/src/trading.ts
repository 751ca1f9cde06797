import {
  checkSpotOrder,
  clientOrderId,
  decimal,
  idParamsSchema,
  issueOn,
  listPage,
  ORDER_SIDES,
  ORDER_TYPES,
  spotOrderFields,
  symbol,
  TIME_IN_FORCE,
} from "./order-fields.ts";
import { isOpenOrderStatus, OPEN_ORDER_STATUSES, ORDER_STATUSES } from "./order-values.ts";
import { z } from "./zod-csp.ts";

/** Paper (simulation) trading: the codes, paths and limits are in paper-values.ts. */
export * from "./paper-values.ts";

/**
 * One leg of a TP/SL attached to a LIMIT, LIMIT_MAKER or MARKET order: a trigger order
 * placed when the parent fills, for the quantity the parent filled, on the other side.
 * `price` makes it a stop-limit once triggered; without it, a stop-market.
 */
export const tpslLegSchema = z.object({
  triggerPrice: decimal,
  price: decimal.optional(),
});
export type TpSlLegBody = z.input<typeof tpslLegSchema>;

/** Order types a TP/SL may be attached to. */
export const TPSL_PARENT_TYPES = ["LIMIT", "LIMIT_MAKER", "MARKET"] as const;

export { isOpenOrderStatus, OPEN_ORDER_STATUSES, ORDER_SIDES, ORDER_STATUSES, ORDER_TYPES, TIME_IN_FORCE };
export type OrderSideValue = (typeof ORDER_SIDES)[number];
/** LIMIT_MAKER is post-only (refused if it would take). */
export type OrderTypeValue = (typeof ORDER_TYPES)[number];
export type TimeInForceValue = (typeof TIME_IN_FORCE)[number];
export type OrderStatusValue = (typeof ORDER_STATUSES)[number];

/**
 * A new order. `quantity` in base units; MARKET buys may give `quoteQty` instead (spend
 * at most that much quote, fee extra). `price` for LIMIT, LIMIT_MAKER and STOP_LIMIT;
 * `stopPrice` for STOP_LIMIT and STOP_MARKET (a buy stop fires when the market's last
 * price rises to it, a sell stop when it falls to it). `clientOrderId` makes placement
 * idempotent per user: the same id again answers the first order, placing nothing.
 * `takeProfit` / `stopLoss` (LIMIT, LIMIT_MAKER, MARKET): when the order fills, the two
 * legs become an OCO pair of trigger orders for the filled quantity (one firing or being
 * cancelled cancels the other). For a buy the take-profit trigger must be above the
 * order's price (a market order: the last price) and the stop-loss below; for a sell the
 * reverse (ORDER_REJECTED, reason TPSL_INVALID, naming the field). Cancelling the order
 * before it fills places neither.
 */
export const placeOrderBodySchema = z
  .object({
    ...spotOrderFields,
    takeProfit: tpslLegSchema.optional(),
    stopLoss: tpslLegSchema.optional(),
  })
  .superRefine((o, ctx) => {
    const issue = issueOn(ctx);
    checkSpotOrder(o, issue);
    const tpslParent = (TPSL_PARENT_TYPES as readonly string[]).includes(o.type);
    if (o.takeProfit !== undefined && !tpslParent) issue("takeProfit", "limit and market orders only");
    if (o.stopLoss !== undefined && !tpslParent) issue("stopLoss", "limit and market orders only");
  });
export type PlaceOrderBody = z.input<typeof placeOrderBodySchema>;

export const orderIdParamsSchema = idParamsSchema;
export const clientOrderIdParamsSchema = z.object({ clientOrderId });

export const ordersQuerySchema = z.object({
  ...listPage,
  /** Only this side; filtered before the limit, so `before` pages stay full. */
  side: z.enum(ORDER_SIDES).optional(),
});
export type OrdersQuery = z.input<typeof ordersQuerySchema>;

export const topUpBodySchema = z.object({
  asset: z.string().regex(/^[A-Z0-9]{2,10}$/),
  amount: decimal,
});
export type TopUpBody = z.input<typeof topUpBodySchema>;

/** Test-only: one market trade at `price`; stops, TP/SL legs and marketable orders react to it. */
export const testTradeBodySchema = z.object({ symbol, price: decimal });
export type TestTradeBody = z.input<typeof testTradeBodySchema>;

export interface PaperOrder {
  orderId: number;
  clientOrderId: string;
  symbol: string;
  side: OrderSideValue;
  type: OrderTypeValue;
  timeInForce: TimeInForceValue | null;
  /** Limit price (the protective cap for market buys), or null. */
  price: string | null;
  stopPrice: string | null;
  /** Ordered base quantity (for a quoteQty market buy: what the budget bought at most). */
  origQty: string;
  quoteQty: string | null;
  executedQty: string;
  /** Quote spent or received, before fees. */
  cummulativeQuoteQty: string;
  /** Fees paid, in the quote asset. */
  fee: string;
  feeAsset: string;
  status: OrderStatusValue;
  /** A stop order whose trigger has fired. */
  triggered: boolean;
  createdAt: number;
  updatedAt: number;
  /** The TP/SL attached to this order (placed as two trigger orders once it fills). */
  takeProfit?: PaperTpSlLeg;
  stopLoss?: PaperTpSlLeg;
  /** A TP/SL trigger order: the order it protects, its role, and its OCO partner (null when only one leg was set). */
  parentOrderId?: number;
  tpslRole?: TpSlRoleValue;
  ocoOrderId?: number | null;
}

export const TPSL_ROLES = ["TAKE_PROFIT", "STOP_LOSS"] as const;
export type TpSlRoleValue = (typeof TPSL_ROLES)[number];

export interface PaperTpSlLeg {
  triggerPrice: string;
  /** Limit price once triggered; null: a market order. */
  price: string | null;
}

export interface PaperTrade {
  tradeId: number;
  orderId: number;
  symbol: string;
  side: OrderSideValue;
  price: string;
  qty: string;
  quoteQty: string;
  fee: string;
  feeAsset: string;
  isMaker: boolean;
  time: number;
}

export interface PaperBalance {
  asset: string;
  /** Free to use. */
  available: string;
  /** Held for open orders. */
  held: string;
  total: string;
}

export interface PaperAccount {
  activated: boolean;
  /** When activated now by this call (first call with `paptrading: 1`). */
  createdAt: number;
  balances: PaperBalance[];
}

export interface PaperFeeTier {
  level: number;
  /** Rates as percentages ("0.1" = 0.1 %) and in parts per million. */
  makerRate: string;
  takerRate: string;
  makerPpm: number;
  takerPpm: number;
  minVolume30d: string;
  minBalance: string;
}

export interface PaperFees {
  tiers: PaperFeeTier[];
  /** The user's tier (from their VIP level). */
  current: PaperFeeTier;
}

/** The answer to placement: the order as it stands after matching, with its fills. */
export interface PlaceOrderResult {
  order: PaperOrder;
  fills: PaperTrade[];
  /** True when this clientOrderId was already placed: nothing new happened. */
  duplicate: boolean;
}

/* ------------------------------ user stream ------------------------------ */

/**
 * `/v1/ws/user`: authenticated by the session cookie (the browser sends it on the
 * upgrade). The server pushes without subscription; clients may send `{"op":"ping"}`.
 */
export type UserStreamPush =
  | { event: "order"; data: PaperOrder }
  | { event: "fill"; data: PaperTrade }
  | { event: "balance"; data: PaperBalance[] }
  | { event: "ping"; time: number }
  | { event: "pong"; time: number }
  | { event: "error"; code: string; msg: string };
