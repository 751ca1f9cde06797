import {
  MARGIN_MODES_SPOT,
  MARGIN_RECORD_TYPES,
  MARGIN_SIDE_EFFECTS,
  type MarginAccountModeValue,
  type MarginRecordType,
  WALLETS,
} from "./margin-values.ts";
import {
  checkSpotOrder,
  clientTransferId,
  decimal,
  issueOn,
  listPage,
  spotOrderFields,
  symbol,
} from "./order-fields.ts";
import type { PaperOrder, PaperTrade } from "./trading.ts";
import { z } from "./zod-csp.ts";

export * from "./margin-values.ts";

const asset = z
  .string()
  .regex(/^[A-Za-z0-9]{2,10}$/, "asset")
  .transform((s) => s.toUpperCase());

/** `mode` and, for isolated, the pair. */
const scope = {
  mode: z.enum(MARGIN_MODES_SPOT).default("cross"),
  symbol: symbol.optional(),
};
const needsSymbol = (b: { mode: MarginAccountModeValue; symbol?: string | undefined }) =>
  b.mode === "cross" || b.symbol !== undefined;
const symbolIssue = { path: ["symbol"], message: "required" };

export const marginAccountQuerySchema = z.object(scope).refine(needsSymbol, symbolIssue);
export type MarginAccountQuery = z.input<typeof marginAccountQuerySchema>;

export const marginAssetQuerySchema = z.object({ ...scope, asset }).refine(needsSymbol, symbolIssue);
export type MarginAssetQuery = z.input<typeof marginAssetQuerySchema>;

export const borrowRepayBodySchema = z
  .object({ ...scope, asset, amount: decimal })
  .refine(needsSymbol, symbolIssue);
export type BorrowRepayBody = z.input<typeof borrowRepayBodySchema>;

/**
 * A margin order: the spot order body of `/v1/paper/orders` (LIMIT, MARKET,
 * LIMIT_MAKER, STOP_LIMIT, STOP_MARKET) plus the account it trades from. Side effects
 * as Binance: MARGIN_BUY borrows what the hold lacks before placing; AUTO_REPAY repays
 * the debt in the received asset from each fill's proceeds.
 */
export const marginOrderBodySchema = z
  .object({
    mode: z.enum(MARGIN_MODES_SPOT).default("cross"),
    ...spotOrderFields,
    sideEffectType: z.enum(MARGIN_SIDE_EFFECTS).default("NO_SIDE_EFFECT"),
  })
  .superRefine((o, ctx) => checkSpotOrder(o, issueOn(ctx)));
export type MarginOrderBody = z.input<typeof marginOrderBodySchema>;

export const marginOrdersQuerySchema = z.object({
  mode: z.enum(MARGIN_MODES_SPOT).optional(),
  ...listPage,
});
export type MarginOrdersQuery = z.input<typeof marginOrdersQuerySchema>;

export const marginRecordsQuerySchema = marginOrdersQuerySchema.extend({
  type: z.enum(MARGIN_RECORD_TYPES).optional(),
  asset: asset.optional(),
});
export type MarginRecordsQuery = z.input<typeof marginRecordsQuerySchema>;

/** Moves `amount` of `asset` between two of the user's wallets; `symbol` names the isolated pair. */
export const walletTransferBodySchema = z
  .object({
    from: z.enum(WALLETS),
    to: z.enum(WALLETS),
    asset,
    amount: decimal,
    symbol: symbol.optional(),
    /**
     * Unique per account among wallet transfers (this one and the futures transfer): sent
     * again, it answers the first transfer's id and moves nothing.
     */
    clientTransferId: clientTransferId.optional(),
  })
  .refine(
    (b) => (b.from !== "ISOLATED_MARGIN" && b.to !== "ISOLATED_MARGIN") || b.symbol !== undefined,
    symbolIssue,
  );
export type WalletTransferBody = z.input<typeof walletTransferBodySchema>;

/** What a wallet transfer answers: the id of its record. */
export interface WalletTransferResult {
  tranId: number;
}

export const marginTestPriceBodySchema = z.object({ symbol, price: decimal.nullable() });
export type MarginTestPriceBody = z.input<typeof marginTestPriceBodySchema>;

export interface MarginPairInfo {
  symbol: string;
  base: string;
  quote: string;
  crossLeverage: number;
  isolatedLeverage: number;
}

export interface MarginInterestRate {
  asset: string;
  /** Daily rate, decimal ("0.0002" = 0.02 %). */
  dailyRate: string;
  /** Hourly rate charged on the principal (daily / 24). */
  hourlyRate: string;
}

export interface MarginPairs {
  pairs: MarginPairInfo[];
  rates: MarginInterestRate[];
  marginCallLevel: string;
  liquidationLevel: string;
}

export interface MarginAssetView {
  asset: string;
  /** Free to trade, repay or transfer. */
  free: string;
  /** Held for open margin orders. */
  locked: string;
  /** Outstanding principal. */
  borrowed: string;
  /** Outstanding interest. */
  interest: string;
  /** free + locked - borrowed - interest (may be negative). */
  netAsset: string;
}

export type MarginLevelStatus = "NORMAL" | "MARGIN_CALL" | "FORCE_LIQUIDATION";

export interface MarginAccountView {
  mode: MarginAccountModeValue;
  /** The isolated pair, null for cross. */
  symbol: string | null;
  leverage: number;
  /** Total asset value / total debt, 2+ decimals; null when nothing is owed (shown as 999). */
  marginLevel: string | null;
  status: MarginLevelStatus;
  totalAsset: string;
  totalDebt: string;
  netAsset: string;
  /** Isolated only: the base price at which the level reaches 1.1 (null without debt or when no price can). */
  liquidationPrice: string | null;
  assets: MarginAssetView[];
}

export interface MaxAmount {
  asset: string;
  amount: string;
}

/** A margin order is a spot order carrying its account. */
export interface MarginOrder extends PaperOrder {
  mode: MarginAccountModeValue;
  sideEffectType: (typeof MARGIN_SIDE_EFFECTS)[number];
}

export interface MarginTrade extends PaperTrade {
  mode: MarginAccountModeValue;
}

export interface MarginRecord {
  id: number;
  type: MarginRecordType;
  mode: MarginAccountModeValue;
  /** Isolated pair, or null for cross. */
  symbol: string | null;
  asset: string;
  /** Positive amount moved (for LIQUIDATION: USDT returned to the account). */
  amount: string;
  /** REPAY: the part that paid interest; INTEREST: the interest charged. */
  interest: string | null;
  /** REPAY: the part that paid principal. */
  principal: string | null;
  time: number;
}

export interface MarginPlaceResult {
  order: MarginOrder;
  fills: MarginTrade[];
  duplicate: boolean;
  /** MARGIN_BUY: what was borrowed before placing (null when nothing). */
  borrowed: MaxAmount | null;
}

/**
 * Pushed on `/v1/ws/user` (next to the spot events) after anything that changes a
 * margin account (transfer, borrow, repay, fill, interest, liquidation) and when marks
 * move its level, at most once a second per account.
 */
export type MarginStreamPush =
  | { event: "margin"; data: MarginAccountView }
  | { event: "marginOrder"; data: MarginOrder }
  | { event: "marginFill"; data: MarginTrade };
