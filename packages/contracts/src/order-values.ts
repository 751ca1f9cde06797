/**
 * Internal: the order enumerations the spot, margin and futures contracts share, free of
 * zod so that a page which needs only the values does not load the schema library
 * (order-fields.ts builds the schemas from them and re-exports them).
 */

export const ORDER_SIDES = ["BUY", "SELL"] as const;
/** LIMIT_MAKER is post-only (refused if it would take). */
export const ORDER_TYPES = ["LIMIT", "MARKET", "LIMIT_MAKER", "STOP_LIMIT", "STOP_MARKET"] as const;
export const TIME_IN_FORCE = ["GTC", "IOC", "FOK"] as const;
/** Every order's status, spot, margin and futures alike. */
export const ORDER_STATUSES = [
  "NEW",
  "PARTIALLY_FILLED",
  "FILLED",
  "CANCELED",
  "EXPIRED",
  "REJECTED",
] as const;
/** The statuses of an order still on the book (or waiting for its trigger). */
export const OPEN_ORDER_STATUSES: ReadonlySet<string> = new Set<(typeof ORDER_STATUSES)[number]>([
  "NEW",
  "PARTIALLY_FILLED",
]);
export const isOpenOrderStatus = (status: string): boolean => OPEN_ORDER_STATUSES.has(status);
