import { ORDER_SIDES, ORDER_TYPES, TIME_IN_FORCE } from "./order-values.ts";
import { z } from "./zod-csp.ts";

/**
 * Internal: the zod pieces the spot (trading.ts), margin and futures contracts share.
 * Not exported from the package index; each contract module exports its own names.
 */

/** An exact decimal string (never a JS number): up to 20 integer and 18 fraction digits. */
export const decimal = z.string().regex(/^\d{1,20}(\.\d{1,18})?$/, "decimal");
/** A pair or contract name, upper-cased ("btcusdt" -> "BTCUSDT"). */
export const symbol = z
  .string()
  .regex(/^[A-Za-z0-9]{2,20}$/, "symbol")
  .transform((s) => s.toUpperCase());
/** A client's own id for an order or a transfer: at most 36 of letters, digits and `._:-`. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,36}$/;
export const clientOrderId = z.string().regex(CLIENT_ID, "clientOrderId");
export const clientTransferId = z.string().regex(CLIENT_ID, "clientTransferId");
/** A stored row's id in a path (`/orders/:id`). */
export const idParamsSchema = z.object({
  id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});

/** One page of a list, newest first: `limit` rows (default 100, at most 500) with an id below `before`. */
export const listPage = {
  symbol: symbol.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** Orders (or trades) with an id below this (paging backwards). */
  before: z.coerce.number().int().min(1).optional(),
};

export { ORDER_SIDES, ORDER_TYPES, TIME_IN_FORCE };

/** The fields of a spot order body (`/v1/paper/orders`), which a margin order body carries too. */
export const spotOrderFields = {
  symbol,
  side: z.enum(ORDER_SIDES),
  type: z.enum(ORDER_TYPES),
  price: decimal.optional(),
  quantity: decimal.optional(),
  quoteQty: decimal.optional(),
  stopPrice: decimal.optional(),
  timeInForce: z.enum(TIME_IN_FORCE).optional(),
  clientOrderId: clientOrderId.optional(),
};

type SpotOrderShape = {
  side: (typeof ORDER_SIDES)[number];
  type: (typeof ORDER_TYPES)[number];
  price?: string | undefined;
  quantity?: string | undefined;
  quoteQty?: string | undefined;
  stopPrice?: string | undefined;
  timeInForce?: string | undefined;
};

/** Adds an issue on the named field (a `superRefine` context). */
export type IssueOn = (path: string, message: string) => void;

export function issueOn(ctx: z.RefinementCtx): IssueOn {
  return (path, message) => ctx.addIssue({ code: "custom", path: [path], message });
}

/**
 * Which of the spot order fields each order type needs or refuses: `price` for LIMIT,
 * LIMIT_MAKER and STOP_LIMIT; `stopPrice` for the stop types; `quoteQty` on market buys
 * only, instead of `quantity`; `timeInForce` on LIMIT and STOP_LIMIT.
 */
export function checkSpotOrder(o: SpotOrderShape, issue: IssueOn): void {
  const priced = o.type === "LIMIT" || o.type === "LIMIT_MAKER" || o.type === "STOP_LIMIT";
  const stopped = o.type === "STOP_LIMIT" || o.type === "STOP_MARKET";
  if (priced !== (o.price !== undefined)) issue("price", priced ? "required" : "not allowed");
  if (stopped !== (o.stopPrice !== undefined)) issue("stopPrice", stopped ? "required" : "not allowed");
  const byQuote = o.type === "MARKET" && o.side === "BUY" && o.quoteQty !== undefined;
  if (o.quoteQty !== undefined && !(o.type === "MARKET" && o.side === "BUY"))
    issue("quoteQty", "market buys only");
  if (byQuote === (o.quantity !== undefined)) issue("quantity", byQuote ? "not with quoteQty" : "required");
  if (o.timeInForce !== undefined && !(o.type === "LIMIT" || o.type === "STOP_LIMIT"))
    issue("timeInForce", "limit orders only");
}
