/**
 * USDT-M perpetuals on paper: `/v1/paper/futures/*` (logged in, `paptrading: 1`) and
 * the `/v1/ws/futures` stream. Amounts are USDT decimal strings with 8 decimals; prices
 * and quantities use the contract's tick and lot (see `PERP_CONTRACTS` in
 * `@meridian/domain`). Codes in the 14xxx range are ours.
 *
 * The codes, paths and enumerations, free of zod: the futures page needs them at load and
 * must not build the schemas for them (futures.ts re-exports them and holds the schemas).
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
export const MARGIN_ADJUST_TYPES = ["ADD", "REDUCE"] as const;
export type MarginAdjustType = (typeof MARGIN_ADJUST_TYPES)[number];
