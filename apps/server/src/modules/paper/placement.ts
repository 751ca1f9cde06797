import { PaperCode } from "@meridian/contracts";
import { AppError } from "../../platform/errors.ts";
import { type OrderRow, type OrderWallet, type PlaceOutcome, rejected, type TradeRow } from "./rows.ts";
import type { OrderReader, Placement } from "./spot-for-margin.ts";

/** A client order id already names an order of another wallet (ids are unique per account). */
export function clientIdInUse(): AppError {
  return new AppError(
    PaperCode.ORDER_REJECTED,
    "Order rejected: the clientOrderId is in use by another wallet",
    {
      status: 200,
      data: { reason: "DUPLICATE_CLIENT_ORDER_ID", field: "clientOrderId" },
    },
  );
}

/** An order placement's answer: the order, its fills, and whether it had been placed before. */
export interface PlacedAnswer<O, T> {
  order: O;
  fills: T[];
  duplicate: boolean;
}

/** Whose placement it was and how its module answers it (spot, margin). */
export interface PlacementAnswers<O, T> {
  accountId: number;
  /** The wallet placed for: a stored order with the client id in another wallet refuses the placement. */
  wallet: OrderWallet;
  /** Where an order placed earlier in the same commit with that client id is read once committed. */
  wallets: readonly OrderWallet[];
  rows: OrderReader;
  presentOrder(o: OrderRow): O;
  presentTrade(t: TradeRow): T;
}

/**
 * The answer to a placement on the spot engine, for spot and margin orders alike. A
 * client order id already stored answers that order with its committed fills
 * (`duplicate: true`, and `none`), unless it is another wallet's; one placed earlier in
 * the same commit is read once committed, or ORDER_NOT_FOUND; a rejection by the book
 * is thrown with the order's id; else the order placed now, its fills and the
 * command's `extra` (margin: what MARGIN_BUY borrowed).
 */
export async function answerPlacement<O, T, X extends object>(
  placed: Placement<{ outcome: PlaceOutcome; extra: X }>,
  none: X,
  how: PlacementAnswers<O, T>,
): Promise<PlacedAnswer<O, T> & X> {
  const stored = async (order: OrderRow) => {
    const fills = await how.rows.trades({
      accountId: order.accountId,
      orderId: order.id,
      limit: 500,
      wallets: [order.wallet],
    });
    return {
      order: how.presentOrder(order),
      fills: fills.reverse().map((t) => how.presentTrade(t)),
      duplicate: true,
      ...none,
    };
  };
  if (placed.stored !== undefined) {
    if (placed.stored.wallet !== how.wallet) throw clientIdInUse();
    return stored(placed.stored);
  }
  const { outcome, extra } = placed.ran;
  if (outcome.kind === "duplicate") {
    const existing = await how.rows.order(how.accountId, outcome.orderId, how.wallets);
    if (existing === undefined)
      throw new AppError(PaperCode.ORDER_NOT_FOUND, "Order not found", { status: 200 });
    return stored(existing);
  }
  if (outcome.rejection !== null) throw rejected(outcome.rejection, outcome.order.id);
  return {
    order: how.presentOrder(outcome.order),
    fills: outcome.fills.map((t) => how.presentTrade(t)),
    duplicate: false,
    ...extra,
  };
}
