/**
 * Paper (simulation) trading: `/v1/paper/*` and the `/v1/ws/user` stream. Every call
 * needs a logged-in user and the header `paptrading: 1` (docs/product.md §4, "Simulation
 * mode"); without the header the answer is PAPER_ONLY: only simulation trading exists.
 *
 * Prices and quantities are exact decimal strings, never JS numbers. Balances carry
 * the asset's ledger precision (USDT and BTC 8 decimals; see `ASSET_DECIMALS` in
 * `@meridian/domain`). Fees are charged in the quote asset.
 * Codes in the 13xxx range are ours.
 *
 * The codes, paths and limits, free of zod: the trading pages need them at load and must
 * not build the schemas for them (trading.ts re-exports them and holds the schemas).
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
