/**
 * Perpetuals on paper, both margin families: `/v1/paper/futures/*` (logged in,
 * `paptrading: 1`) and the `/v1/ws/futures` stream. USDT-M contracts (BTCUSDT) keep
 * amounts in USDT (8 decimals), quantities in the base coin; coin-M contracts (BTCUSD)
 * keep amounts in their margin coin (its ledger decimals: BTC 8, XRP and ADA 6) and
 * quantities in whole contracts. Prices use the contract's tick (see `PERP_CONTRACTS`
 * and `COIN_PERP_CONTRACTS` in `@meridian/domain`; docs/trading.md). Codes in the 14xxx
 * range are ours.
 *
 * The codes, paths and enumerations, free of zod: the futures page needs them at load and
 * must not build the schemas for them (futures.ts re-exports them and holds the schemas).
 */
export const FuturesCode = {
  UNKNOWN_SYMBOL: "14001",
  /**
   * Not enough available margin (data: required, available, asset: the margin coin whose
   * wallet lacks it; adding isolated margin: max).
   */
  MARGIN_INSUFFICIENT: "14002",
  /** Leverage above what the risk bracket allows (data: leverage, max). */
  LEVERAGE_TOO_HIGH: "14003",
  /** Reduce-only would open or increase a position, or there is no position to close. */
  REDUCE_ONLY_REJECTED: "14004",
  /** Price or quantity off the contract's tick, lot (coin-M: a whole contract, at least one) or minimum notional (data: field). */
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
  /** Spot <-> a futures wallet: the USDT-M one, or with `asset` a coin's coin-M wallet. */
  TRANSFER: "/v1/paper/futures/transfer",
  /** Every futures wallet of the account as `FuturesAccount[]` (`?family=usdt|coin`). */
  WALLETS: "/v1/paper/futures/wallets",
  /** Public: the insurance fund balance (the /protection-fund page). */
  INSURANCE_FUND: "/v1/paper/futures/insurance-fund",
  /** Public: mark, index, funding rate and next funding time per contract. */
  MARKS: "/v1/paper/futures/marks",
  /** Test-only: pins a mark price (see README, FUTURES_TEST_MARKS). */
  TEST_MARK: "/v1/paper/futures/test/mark",
  WS: "/v1/ws/futures",
} as const;

/**
 * `STOP_LIMIT` and `TAKE_PROFIT_LIMIT` rest as a limit at `price` once the mark reaches
 * `stopPrice`; `TRAILING_STOP_MARKET` follows the best mark since it was placed and fires
 * at market when the mark comes back `callbackRate` percent from it (once the best mark
 * has reached `stopPrice`, its activation price).
 */
export const FUTURES_ORDER_TYPES = [
  "LIMIT",
  "MARKET",
  "STOP_MARKET",
  "TAKE_PROFIT_MARKET",
  "STOP_LIMIT",
  "TAKE_PROFIT_LIMIT",
  "TRAILING_STOP_MARKET",
] as const;
export type FuturesOrderType = (typeof FUTURES_ORDER_TYPES)[number];
/** A futures LIMIT order's time in force (GTX: post-only). */
export const FUTURES_TIME_IN_FORCE = ["GTC", "IOC", "FOK", "GTX"] as const;
export type FuturesTimeInForce = (typeof FUTURES_TIME_IN_FORCE)[number];
export const POSITION_SIDES = ["BOTH", "LONG", "SHORT"] as const;
export type PositionSideValue = (typeof POSITION_SIDES)[number];
export const MARGIN_MODES = ["cross", "isolated"] as const;
export type MarginModeValue = (typeof MARGIN_MODES)[number];
export const MARGIN_ADJUST_TYPES = ["ADD", "REDUCE"] as const;
export type MarginAdjustType = (typeof MARGIN_ADJUST_TYPES)[number];

/** Margin families: USDT-margined (linear, BTCUSDT) and coin-margined (inverse, BTCUSD). */
export const PERP_FAMILIES = ["usdt", "coin"] as const;
export type PerpFamilyValue = (typeof PERP_FAMILIES)[number];
/** The coins with a coin-margined wallet, one per coin-M contract (`<COIN>USD`). */
export const COIN_MARGIN_COINS = ["BTC", "ETH", "SOL", "XRP", "DOGE", "ADA", "LTC"] as const;
/** Every futures wallet's asset: USDT (USDT-M) and the coin-M coins. */
export const FUTURES_MARGIN_COINS = ["USDT", ...COIN_MARGIN_COINS] as const;
export type FuturesMarginCoin = (typeof FUTURES_MARGIN_COINS)[number];
