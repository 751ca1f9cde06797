// The spot engine's rows and outcomes: what an order, a trade and a group commit's
// batch look like, shared by the engine, the repository and the service.
import {
  type OrderStatusValue,
  type OrderTypeValue,
  PaperCode,
  type TimeInForceValue,
} from "@meridian/contracts";
import { type DomainError, firesOnRise, marginWalletOf, Side, type Wallet } from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";

/**
 * Whose funds an order trades: the spot wallet, or a margin account (cross, or the
 * isolated account of the order's pair). Spot endpoints see only spot orders, margin
 * endpoints only margin ones.
 */
export type OrderWallet = "spot" | "cross" | "isolated";

/** The ledger accounts an order holds from and settles into (undefined: the spot wallet). */
export function ledgerWallet(accountId: number, wallet: OrderWallet, symbol: string): Wallet | undefined {
  if (wallet === "spot") return undefined;
  return wallet === "cross" ? marginWalletOf(accountId) : marginWalletOf(accountId, symbol);
}

/** An order as stored (money in minor units, price and quantity in ticks and lots). */
export interface OrderRow {
  id: number;
  accountId: number;
  wallet: OrderWallet;
  /** Margin orders: NO_SIDE_EFFECT, MARGIN_BUY or AUTO_REPAY; null for spot. */
  sideEffect: string | null;
  clientOrderId: string;
  symbol: string;
  side: 0 | 1;
  type: OrderTypeValue;
  tif: TimeInForceValue | null;
  /** Limit price; for market buys the protective cap they ran at. */
  priceTicks: number | null;
  stopTicks: number | null;
  qtyLots: number;
  quoteQty: string | null;
  status: OrderStatusValue;
  triggered: boolean;
  /** Order of entry into the book (restart replays resting orders in this order). */
  bookSeq: number | null;
  filledLots: number;
  takerQuote: bigint;
  makerQuote: bigint;
  fees: bigint;
  held: bigint;
  makerPpm: number;
  takerPpm: number;
  createdAt: number;
  updatedAt: number;
  /** An attached take-profit / stop-loss (ticks), placed as trigger orders once this order fills. */
  tpTriggerTicks: number | null;
  tpPriceTicks: number | null;
  slTriggerTicks: number | null;
  slPriceTicks: number | null;
  /** A TP/SL trigger order: the order it protects, its role and its OCO partner. */
  parentId: number | null;
  tpslRole: TpSlRole | null;
  ocoId: number | null;
}

/** TP: take-profit leg, SL: stop-loss leg of an attached TP/SL. */
export type TpSlRole = "TP" | "SL";

/** Fields of an order without an attached TP/SL and not part of one. */
export const NO_TPSL = {
  tpTriggerTicks: null,
  tpPriceTicks: null,
  slTriggerTicks: null,
  slPriceTicks: null,
  parentId: null,
  tpslRole: null,
  ocoId: null,
} as const satisfies Partial<OrderRow>;

/** Fields of an order that has not entered a book (or fired) and has filled nothing yet. */
export const UNFILLED = {
  triggered: false,
  bookSeq: null,
  filledLots: 0,
  takerQuote: 0n,
  makerQuote: 0n,
  fees: 0n,
} as const satisfies Partial<OrderRow>;

/**
 * Which way a trigger order fires: true when the last price rises to its trigger. A plain
 * stop fires against its side (a buy stop on a rise); a take-profit fires the other way
 * (a sell take-profit on a rise, a buy take-profit on a fall).
 */
export const firesAbove = (row: Pick<OrderRow, "side" | "tpslRole">): boolean =>
  firesOnRise(row.side === Side.Buy, row.tpslRole === "TP");

export interface TradeRow {
  id: number;
  orderId: number;
  accountId: number;
  wallet: OrderWallet;
  symbol: string;
  side: 0 | 1;
  priceTicks: number;
  qtyLots: number;
  quote: bigint;
  fee: bigint;
  isMaker: boolean;
  counterOrderId: number;
  createdAt: number;
}

/** What the spot engine changed for one group commit (its batch writer's rows): orders, trades. */
export interface OrderBatch {
  /**
   * Orders changed by the batch's commands: the live rows while the batch collects,
   * copies of them as they were at its end once handed over (`takeBatch`).
   */
  orders: Map<number, OrderRow>;
  trades: TradeRow[];
}

export const emptyOrderBatch = (): OrderBatch => ({
  orders: new Map(),
  trades: [],
});

/** Trades change orders, so a batch without changed orders is empty. */
export const orderBatchIsEmpty = (b: OrderBatch): boolean => b.orders.size === 0 && b.trades.length === 0;

/** What the database holds on start, once the ledger is loaded (see repo.ts `loadState`). */
export interface LoadedState {
  maxIds: { order: number; trade: number; bookSeq: number };
  /** Open orders: resting ones by `bookSeq`, then untriggered stops. */
  openOrders: OrderRow[];
}

/** Margin orders: the wallet, the side effect, and a hook run before the hold is taken. */
export interface PlaceOptions {
  wallet: OrderWallet;
  sideEffect: string | null;
  /**
   * Called with what the order will hold, before anything is posted (MARGIN_BUY borrows
   * the shortfall here); throwing refuses the order with nothing changed.
   */
  beforeHold?: (asset: string, amount: bigint) => void;
}

export type PlaceOutcome =
  | { kind: "placed"; order: OrderRow; fills: TradeRow[]; rejection: DomainError | null }
  | { kind: "duplicate"; orderId: number };

/** ORDER_REJECTED (HTTP 200) with the domain reason, and the stored order's id once it has one. */
export function rejected(error: DomainError, orderId?: number): AppError {
  return new AppError(PaperCode.ORDER_REJECTED, `Order rejected: ${error.code}`, {
    status: 200,
    data: {
      reason: error.code,
      field: error.field,
      params: error.params,
      ...(orderId === undefined ? {} : { orderId }),
    },
  });
}
