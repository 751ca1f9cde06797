/**
 * Margin trading on paper (Binance-style cross and isolated margin for spot pairs):
 * `/v1/paper/margin/*` (logged in, `paptrading: 1`), plus the wallet transfer between
 * spot, futures and margin accounts. Amounts are decimal strings at the asset's ledger
 * precision; values ("totalAsset", "totalDebt", "netAsset") are in USDT.
 *
 * Cross: one account holding every asset, 3x. Isolated: one account per pair holding
 * only that pair's base and quote, 10x. Interest accrues every hour on the principal
 * (MARGIN_INTEREST_INTERVAL_MS shortens the hour for demos). Below a margin level of
 * 1.1 the account is liquidated: everything is sold, every debt repaid, the insurance
 * fund takes a 2 % fee (or pays the shortfall). Codes in the 15xxx range are ours.
 *
 * The codes, paths and enumerations, free of zod: the margin page needs them at load and
 * must not build the schemas for them (margin.ts re-exports them and holds the schemas).
 */
export const MarginCode = {
  /** The pair is not tradable on margin. */
  UNKNOWN_PAIR: "15001",
  /** More than the margin level allows (data: max). */
  BORROW_EXCEEDS_MAX: "15002",
  /** Nothing owed, more than owed, or more than the free balance (data: owed, balance). */
  REPAY_INVALID: "15003",
  /** Moving that much out would take the margin level below 2 (data: max). */
  TRANSFER_EXCEEDS: "15004",
  /** The asset is not held in that account (isolated accounts carry base and quote only). */
  ASSET_NOT_ALLOWED: "15005",
  /** From and to are the same wallet, or a wallet that cannot carry the asset. */
  TRANSFER_INVALID: "15006",
  /** The test price endpoint is off (production without MARGIN_TEST_PRICES=1). */
  TEST_PRICES_OFF: "15007",
} as const;
export type MarginCode = (typeof MarginCode)[keyof typeof MarginCode];

export const MarginPath = {
  /** Public: marginable pairs, leverages and interest rates. */
  PAIRS: "/v1/paper/margin/pairs",
  /** One account: `?mode=cross` or `?mode=isolated&symbol=BTCUSDT`. */
  ACCOUNT: "/v1/paper/margin/account",
  /** Every isolated account the user has opened. */
  ISOLATED_ACCOUNTS: "/v1/paper/margin/isolated",
  MAX_BORROWABLE: "/v1/paper/margin/max-borrowable",
  MAX_TRANSFERABLE: "/v1/paper/margin/max-transferable",
  BORROW: "/v1/paper/margin/borrow",
  REPAY: "/v1/paper/margin/repay",
  ORDERS: "/v1/paper/margin/orders",
  ORDER: "/v1/paper/margin/orders/:id",
  OPEN_ORDERS: "/v1/paper/margin/orders/open",
  ORDER_HISTORY: "/v1/paper/margin/orders/history",
  TRADES: "/v1/paper/margin/trades",
  /** Borrow, repay, interest, liquidation and transfer records (`?type=`). */
  RECORDS: "/v1/paper/margin/records",
  /** Wallet transfer between SPOT, FUTURES, CROSS_MARGIN and ISOLATED_MARGIN. */
  TRANSFER: "/v1/paper/asset/transfer",
  /**
   * Test-only: pins (or with `price: null` unpins) the price margin accounts are valued
   * at for one pair's base asset, then runs the liquidation check (see README, MARGIN_TEST_PRICES).
   */
  TEST_PRICE: "/v1/paper/margin/test/price",
} as const;

/** Margin level at or below which the account is in margin call (Binance: 1.3). */
export const MARGIN_CALL_LEVEL = "1.3";
/** Forced liquidation below this margin level. */
export const MARGIN_LIQUIDATION_LEVEL = "1.1";

export const MARGIN_MODES_SPOT = ["cross", "isolated"] as const;
export type MarginAccountModeValue = (typeof MARGIN_MODES_SPOT)[number];

export const MARGIN_SIDE_EFFECTS = ["NO_SIDE_EFFECT", "MARGIN_BUY", "AUTO_REPAY"] as const;

export const MARGIN_RECORD_TYPES = [
  "BORROW",
  "REPAY",
  "INTEREST",
  "LIQUIDATION",
  "TRANSFER_IN",
  "TRANSFER_OUT",
] as const;
export type MarginRecordType = (typeof MARGIN_RECORD_TYPES)[number];

export const WALLETS = ["SPOT", "FUTURES", "CROSS_MARGIN", "ISOLATED_MARGIN"] as const;
export type WalletValue = (typeof WALLETS)[number];
