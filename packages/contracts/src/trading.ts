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
import { z } from "./zod-csp.ts";

/**
 * Paper (simulation) trading: `/v1/paper/*` and the `/v1/ws/user` stream. Every call
 * needs a logged-in user and the header `paptrading: 1` (docs/product.md §4, "Simulation
 * mode"); without the header the answer is PAPER_ONLY: only simulation trading exists.
 *
 * Prices and quantities are exact decimal strings, never JS numbers. Balances carry
 * the asset's ledger precision (USDT and BTC 8 decimals; see `ASSET_DECIMALS` in
 * `@meridian/domain`). Fees are charged in the quote asset.
 * Codes in the 13xxx range are ours.
 */
export const PaperCode = {
  /** The request lacks `paptrading: 1`: only simulation trading exists here. */
  PAPER_ONLY: "13001",
  /** Not enough available balance for the hold (data: asset, required, available). */
  INSUFFICIENT_BALANCE: "13002",
  /** The engine or the instrument filters refused the order (data: domain code, field, params). */
  ORDER_REJECTED: "13003",
  UNKNOWN_SYMBOL: "13004",
  ORDER_NOT_FOUND: "13005",
  /** The order is no longer open (filled, cancelled or expired). */
  ORDER_NOT_OPEN: "13006",
  /** A market order found no liquidity to trade against. */
  NO_LIQUIDITY: "13007",
  /** A top-up beyond the cap for the asset (data: asset, max). */
  TOPUP_LIMIT: "13008",
  /** The user's open-order limit is reached. */
  TOO_MANY_OPEN_ORDERS: "13009",
  /**
   * HTTP 503: the trading writer did not answer (it is moving to another instance, or
   * stopped). Retryable: `data.committed` is "no" when the command never reached a
   * writer, "unknown" when the writer went away before answering (an order placed with a
   * `clientOrderId` is then safe to send again; see docs/architecture.md).
   */
  WRITER_UNAVAILABLE: "13010",
  /** The test trade endpoint is off (production without SPOT_TEST_TRADES=1). */
  TEST_TRADES_OFF: "13011",
} as const;
export type PaperCode = (typeof PaperCode)[keyof typeof PaperCode];

/** Header that routes a request to the paper accounts (value "1"). */
export const PAPER_HEADER = "paptrading";

export const PaperPath = {
  ACTIVATE: "/v1/paper/account/activate",
  ACCOUNT: "/v1/paper/account",
  ORDERS: "/v1/paper/orders",
  ORDER: "/v1/paper/orders/:id",
  ORDER_BY_CLIENT_ID: "/v1/paper/orders/client/:clientOrderId",
  OPEN_ORDERS: "/v1/paper/orders/open",
  ORDER_HISTORY: "/v1/paper/orders/history",
  TRADES: "/v1/paper/trades",
  BALANCES: "/v1/paper/balances",
  TOPUP: "/v1/paper/topup",
  RESET: "/v1/paper/reset",
  FEES: "/v1/paper/fees",
  /** Test-only: prints one market trade at a price (see docs/operations.md, SPOT_TEST_TRADES). */
  TEST_TRADE: "/v1/paper/test/trade",
  WS: "/v1/ws/user",
} as const;

/** What every paper account starts with (and gets back on reset). */
export const PAPER_INITIAL_BALANCES: Readonly<Record<string, string>> = Object.freeze({
  USDT: "50000",
  BTC: "0.5",
  ETH: "5",
});

/** Most a top-up may bring an asset's total (available + held) to. */
export const PAPER_TOPUP_CAP: Readonly<Record<string, string>> = Object.freeze({
  USDT: "1000000",
  BTC: "10",
  ETH: "100",
});

/** Open (resting or untriggered) orders one user may have. */
export const PAPER_MAX_OPEN_ORDERS = 200;

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

export { ORDER_SIDES, ORDER_TYPES, TIME_IN_FORCE };
export type OrderSideValue = (typeof ORDER_SIDES)[number];
/** LIMIT_MAKER is post-only (refused if it would take). */
export type OrderTypeValue = (typeof ORDER_TYPES)[number];
export type TimeInForceValue = (typeof TIME_IN_FORCE)[number];
export const ORDER_STATUSES = [
  "NEW",
  "PARTIALLY_FILLED",
  "FILLED",
  "CANCELED",
  "EXPIRED",
  "REJECTED",
] as const;
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
