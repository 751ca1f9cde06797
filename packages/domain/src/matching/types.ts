import type { DomainError } from "../errors.ts";
import type { Lots, Ticks } from "../units.ts";

/** Order side. Small integers keep the hot path monomorphic. */
export const Side = { Buy: 0, Sell: 1 } as const;
export type Side = (typeof Side)[keyof typeof Side];

/** Time in force. GTX is post-only: rejected if it would take (Binance behaviour). */
export const Tif = { GTC: 0, IOC: 1, FOK: 2, GTX: 3 } as const;
export type Tif = (typeof Tif)[keyof typeof Tif];

/** Self-trade prevention: what happens when a taker meets its own account's resting order. */
export const Stp = { ExpireMaker: 0, ExpireTaker: 1, ExpireBoth: 2 } as const;
export type Stp = (typeof Stp)[keyof typeof Stp];

export type OrderType = "limit" | "market" | "stop-limit" | "stop-market";

/** One leg of an attached take-profit / stop-loss: a trigger order placed when the parent fills. */
export interface TpSlLeg {
  readonly id: number;
  /** Trigger price (last trade price crossing it fires the leg). */
  readonly triggerPrice: Ticks;
  /** Limit price once triggered; absent means a market order. */
  readonly price?: Ticks;
}

export interface TpSl {
  readonly takeProfit?: TpSlLeg;
  readonly stopLoss?: TpSlLeg;
}

/** A new order, already converted to ticks and lots at the service boundary. */
export interface PlaceOrder {
  readonly id: number;
  readonly account: number;
  readonly side: Side;
  readonly type: OrderType;
  readonly qty: Lots;
  /** Limit price (limit, stop-limit). */
  readonly price?: Ticks;
  /** Trigger price (stop-limit, stop-market). */
  readonly stopPrice?: Ticks;
  readonly tif?: Tif;
  readonly stp?: Stp;
  readonly tpsl?: TpSl;
  /** Caller's clock (ms); the engine never reads a clock. */
  readonly ts: number;
}

export const CancelReason = { User: "USER", Oco: "OCO" } as const;
export type CancelReason = (typeof CancelReason)[keyof typeof CancelReason];

export const ExpireReason = {
  /** IOC or market remainder with no more liquidity in range. */
  Ioc: "IOC",
  Fok: "FOK",
  Market: "MARKET",
  StpTaker: "STP_TAKER",
  StpMaker: "STP_MAKER",
} as const;
export type ExpireReason = (typeof ExpireReason)[keyof typeof ExpireReason];

/**
 * Receives engine events as positional arguments, so the hot path allocates
 * nothing. `seq` is the book's own event sequence: strictly increasing, gap-free.
 * NOTE: quantities are `Lots` and prices `Ticks`; the service converts with the spec
 * (`ticksToPrice`, `lotsToQty`).
 */
export interface BookListener {
  onAccepted(seq: number, id: number, ts: number): void;
  onRejected(seq: number, id: number, error: DomainError, ts: number): void;
  onTrade(
    seq: number,
    makerId: number,
    takerId: number,
    price: Ticks,
    qty: Lots,
    makerSide: Side,
    makerLeft: Lots,
    takerLeft: Lots,
    ts: number,
  ): void;
  onCancelled(seq: number, id: number, left: Lots, reason: CancelReason, ts: number): void;
  onExpired(seq: number, id: number, left: Lots, reason: ExpireReason, ts: number): void;
  onTriggered(seq: number, id: number, ts: number): void;
  /** New total resting quantity at a level (0 = level gone), for depth streams. */
  onDelta(seq: number, side: Side, price: Ticks, levelQty: Lots): void;
}

export type BookEvent =
  | { readonly type: "accepted"; readonly seq: number; readonly id: number; readonly ts: number }
  | {
      readonly type: "rejected";
      readonly seq: number;
      readonly id: number;
      readonly error: DomainError;
      readonly ts: number;
    }
  | {
      readonly type: "trade";
      readonly seq: number;
      readonly makerId: number;
      readonly takerId: number;
      readonly price: Ticks;
      readonly qty: Lots;
      readonly makerSide: Side;
      readonly makerLeft: Lots;
      readonly takerLeft: Lots;
      readonly ts: number;
    }
  | {
      readonly type: "cancelled";
      readonly seq: number;
      readonly id: number;
      readonly left: Lots;
      readonly reason: CancelReason;
      readonly ts: number;
    }
  | {
      readonly type: "expired";
      readonly seq: number;
      readonly id: number;
      readonly left: Lots;
      readonly reason: ExpireReason;
      readonly ts: number;
    }
  | { readonly type: "triggered"; readonly seq: number; readonly id: number; readonly ts: number }
  | {
      readonly type: "delta";
      readonly seq: number;
      readonly side: Side;
      readonly price: Ticks;
      readonly levelQty: Lots;
    };

/** A live order as the snapshot carries it; restoring these in `seq` order rebuilds the book. */
export interface OrderSnapshot {
  readonly id: number;
  readonly account: number;
  readonly side: Side;
  readonly type: OrderType;
  /** Limit price; 0 for stop-market. */
  readonly price: Ticks;
  /** Trigger price; 0 unless a trigger order. */
  readonly stopPrice: Ticks;
  /** True: fires when last >= stopPrice; false: when last <= stopPrice. */
  readonly triggerAbove: boolean;
  readonly qty: Lots;
  readonly origQty: Lots;
  readonly tif: Tif;
  readonly stp: Stp;
  /** Priority: the sequence at which the order joined the book or trigger list. */
  readonly seq: number;
  readonly ts: number;
  /** The other leg of an OCO pair, if any. */
  readonly ocoId: number | null;
  readonly tpsl: TpSl | null;
}

export interface BookSnapshot {
  readonly symbol: string;
  /** The last event sequence issued. */
  readonly seq: number;
  /** Last trade price; 0 before the first trade. */
  readonly lastPrice: Ticks;
  /** The last priority (`OrderSnapshot.seq`) handed out. */
  readonly priority: number;
  /** Resting and trigger orders, in `seq` order. */
  readonly orders: readonly OrderSnapshot[];
}
