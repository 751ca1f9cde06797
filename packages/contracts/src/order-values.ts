/**
 * Internal: the order enumerations the spot, margin and futures contracts share, free of
 * zod so that a page which needs only the values does not load the schema library
 * (order-fields.ts builds the schemas from them and re-exports them).
 */

export const ORDER_SIDES = ["BUY", "SELL"] as const;
/** LIMIT_MAKER is post-only (refused if it would take). */
export const ORDER_TYPES = ["LIMIT", "MARKET", "LIMIT_MAKER", "STOP_LIMIT", "STOP_MARKET"] as const;
export const TIME_IN_FORCE = ["GTC", "IOC", "FOK"] as const;
