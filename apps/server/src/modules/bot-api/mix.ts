import type {
  FuturesAccount,
  FuturesOrder,
  FuturesPosition,
  FuturesTimeInForce,
  FuturesTrade,
  PositionSideValue,
} from "@meridian/contracts";
import {
  add,
  COIN_MARGIN_ASSETS,
  coinPerpContract,
  compare,
  divHalfUp,
  floorToStep,
  isPositive,
  isZero,
  mul,
  sub,
  toFixedHalfUp,
} from "@meridian/domain";
import { z } from "zod";
import type { FuturesApi, FuturesOrderRef } from "../futures/index.ts";
import { BitgetCode, BitgetError, bgDecimal, bgInt } from "./bitget.ts";
import { batch, clientOid, listFields, lower, neg, symbol, windowed } from "./common.ts";
import { COIN_FUTURES, familyOf, listedPerp, USDT_FUTURES } from "./public.ts";
import type { Caller, V2Router } from "./v2-scope.ts";

/**
 * USDT-M (USDT-FUTURES, BTCUSDT) and coin-M (COIN-FUTURES, BTCUSD) perpetuals trade here;
 * other product types answer "parameter error".
 */
const productType = z
  .string()
  .transform((s) => s.toUpperCase())
  .refine((s) => s === USDT_FUTURES || s === COIN_FUTURES, "only USDT-FUTURES and COIN-FUTURES are traded");
/** A futures wallet's coin: USDT (USDT-M) or a coin-M contract's base (BTC). */
const marginCoin = z
  .string()
  .transform((s) => s.toUpperCase())
  .refine((s) => s === "USDT" || COIN_MARGIN_ASSETS.includes(s), "USDT or a coin-M contract's coin");

/** The asset a perpetual's margin, PnL and fees are in: USDT, or a coin-M contract's base. */
export const marginCoinOf = (symbol: string): string => coinPerpContract(symbol)?.marginAsset ?? "USDT";

/**
 * Checks a request's symbol against its product type (BTCUSD is COIN-FUTURES only: 40309
 * otherwise) and its marginCoin against the symbol's (40020).
 */
export function checkProduct(b: {
  productType: string;
  symbol?: string | undefined;
  marginCoin?: string | undefined;
}): void {
  if (b.symbol !== undefined) listedPerp(b.productType, b.symbol);
  const want = b.symbol === undefined ? undefined : marginCoinOf(b.symbol);
  const coin = b.marginCoin;
  if (coin === undefined) return;
  if ((want !== undefined && coin !== want) || (familyOf(b.productType) === "usdt") !== (coin === "USDT"))
    throw new BitgetError(BitgetCode.PARAM_ERROR, `Parameter marginCoin ${coin} error`);
}

/**
 * A coin-M order's size is whole contracts, at least one (Bitget's size-scale error 40808),
 * and its price on the contract's tick (41103); both ccxt InvalidOrder. Nothing is placed.
 */
export function checkCoinOrder(sym: string, size: string, price: string | undefined): void {
  const c = coinPerpContract(sym);
  if (c === undefined) return;
  if (!/^\d+(\.0*)?$/.test(size) || compare(size, "1") < 0)
    throw new BitgetError("40808", "Parameter size must be a whole number of contracts, at least 1");
  if (price !== undefined && compare(floorToStep(price, c.instrument.tickSize), price) !== 0)
    throw new BitgetError("41103", `Parameter price must be a multiple of ${c.instrument.tickSize}`);
}

/** Whether a row (order, fill, position, funding) is of the request's product type. */
const ofProduct = (productType: string) => (row: { family: "usdt" | "coin" }) =>
  row.family === familyOf(productType);

const STATUS: Readonly<Record<FuturesOrder["status"], string>> = {
  NEW: "live",
  PARTIALLY_FILLED: "partially_filled",
  FILLED: "filled",
  CANCELED: "canceled",
  EXPIRED: "canceled",
  REJECTED: "canceled",
};

/** How far apart the stamps of one futures command's orders may be (the order, its TP/SL legs). */
const SAME_COMMAND_MS = 1_000;

/** A plan (trigger) order: Bitget lists it among plan orders, whatever became of it. */
export const isTrigger = (o: FuturesOrder) => o.type !== "LIMIT" && o.type !== "MARKET";
/** An order Bitget lists among normal orders: not a plan, or a limit plan that fired and rests as a limit. */
export const isNormal = (o: FuturesOrder) =>
  !isTrigger(o) || (o.price !== null && o.triggerTime !== undefined);
/** A plan still waiting for its trigger (`orders-plan-pending`). */
const waiting = (o: FuturesOrder) => isTrigger(o) && o.triggerTime === undefined;
const isStop = (o: FuturesOrder) => o.type === "STOP_MARKET" || o.type === "STOP_LIMIT";
/** Meridian's percent as Bitget's ratio ("12.34" -> "0.123400"). */
export const pct = (p: string | null) => (p === null ? "0" : toFixedHalfUp(divHalfUp(p, "100", 6), 6));

export interface Ctx {
  dual: boolean;
  settings: (symbol: string) => { leverage: number; marginMode: "cross" | "isolated" };
}

function posSideOf(o: { positionSide: PositionSideValue }, ctx: Ctx): string {
  if (!ctx.dual || o.positionSide === "BOTH") return "net";
  return o.positionSide === "LONG" ? "long" : "short";
}

/** Bitget's hedge-mode `side` names the position's direction; Meridian's names the trade. */
function bitgetSide(o: { side: "BUY" | "SELL"; positionSide: PositionSideValue }): string {
  if (o.positionSide === "LONG") return "buy";
  if (o.positionSide === "SHORT") return "sell";
  return o.side.toLowerCase();
}

function tradeSide(
  o: { side: "BUY" | "SELL"; positionSide: PositionSideValue; reduceOnly?: boolean },
  ctx: Ctx,
) {
  if (!ctx.dual || o.positionSide === "BOTH") return o.side === "BUY" ? "buy_single" : "sell_single";
  const closing = (o.positionSide === "LONG") === (o.side === "SELL");
  return closing ? "close" : "open";
}

export function presentMixOrder(o: FuturesOrder, ctx: Ctx): Record<string, unknown> {
  const s = ctx.settings(o.symbol);
  const filled = isPositive(o.executedQty);
  return {
    symbol: o.symbol,
    size: o.quantity,
    orderId: String(o.id),
    clientOid: o.clientOrderId,
    baseVolume: o.executedQty,
    price: o.price ?? "0",
    priceAvg: filled ? o.avgPrice : "",
    // Filled x the average price as the service prints it (exact product of the two strings).
    quoteVolume: filled ? mul(o.executedQty, o.avgPrice) : "0",
    state: STATUS[o.status],
    status: STATUS[o.status],
    side: bitgetSide(o),
    force: FORCE[o.timeInForce ?? "GTC"],
    totalProfits: "0",
    posSide: posSideOf(o, ctx),
    marginCoin: marginCoinOf(o.symbol),
    leverage: String(s.leverage),
    marginMode: s.marginMode === "cross" ? "crossed" : "isolated",
    enterPointSource: "API",
    tradeSide: tradeSide(o, ctx),
    posMode: ctx.dual ? "hedge_mode" : "one_way_mode",
    orderType: o.price === null ? "market" : "limit",
    orderSource: "normal",
    reduceOnly: o.reduceOnly || o.closePosition ? "YES" : "NO",
    ...(o.stopPrice === null ? {} : { triggerPrice: o.stopPrice }),
    cTime: String(o.time),
    uTime: String(o.updateTime),
  };
}

/** Bitget's plan type of a trigger order: a position TP/SL or a plain plan. */
export const planTypeOf = (o: FuturesOrder) =>
  o.closePosition
    ? isStop(o)
      ? "pos_loss"
      : "pos_profit"
    : o.type === "TRAILING_STOP_MARKET"
      ? "track_plan"
      : "normal_plan";

/** Whether a plan is of the kind a `planType` query asks for (Meridian: `normal_plan` also lists TP/SL). */
export function ofPlanType(o: FuturesOrder, planType: string | undefined): boolean {
  const kind = planTypeOf(o);
  switch (planType?.toLowerCase()) {
    case undefined:
    case "":
      return true;
    case "track_plan":
    case "moving_plan":
      return kind === "track_plan";
    case "profit_loss":
    case "pos_profit":
    case "pos_loss":
    case "profit_plan":
    case "loss_plan":
      return o.closePosition;
    default:
      return kind !== "track_plan";
  }
}

export function presentMixPlan(o: FuturesOrder, ctx: Ctx, planType: string): Record<string, unknown> {
  return {
    ...presentMixOrder(o, ctx),
    planType,
    planStatus:
      o.triggerTime !== undefined || o.status === "FILLED"
        ? "executed"
        : o.status === "NEW"
          ? "live"
          : "cancelled",
    triggerType: "mark_price",
    executePrice: o.price ?? "0",
    callbackRatio: o.callbackRate ?? "",
    ...(o.triggerTime === undefined ? {} : { triggerTime: String(o.triggerTime) }),
  };
}

/** What a position's own fills and TP/SL orders add to it (ids, open and update times). */
export interface PositionExtras {
  takeProfitId: string;
  stopLossId: string;
  cTime: string;
  uTime: string;
}

/**
 * When the position was opened and last changed: walking its fills newest first, the
 * quantity goes back to zero (or changes sign) at the fill that opened it. Only the fills
 * read (`trades`, newest first) are walked; an older opening shows the oldest read.
 */
export function positionTimes(
  p: Pick<FuturesPosition, "symbol" | "positionSide" | "quantity">,
  trades: readonly Pick<FuturesTrade, "symbol" | "positionSide" | "side" | "quantity" | "time">[],
): { cTime: string; uTime: string } {
  const own = trades.filter((t) => t.symbol === p.symbol && t.positionSide === p.positionSide);
  const newest = own[0];
  if (newest === undefined) return { cTime: "", uTime: "" };
  let running = p.quantity;
  let opened = newest.time;
  for (const t of own) {
    opened = t.time;
    const before = t.side === "BUY" ? sub(running, t.quantity) : add(running, t.quantity);
    if (isZero(before) || compare(before, "0") !== compare(running, "0")) break;
    running = before;
  }
  return { cTime: String(opened), uTime: String(newest.time) };
}

function presentPosition(p: FuturesPosition, ctx: Ctx, extras: PositionExtras): Record<string, unknown> {
  const qty = p.quantity.replace(/^-/, "");
  const holdSide =
    p.positionSide === "BOTH"
      ? p.quantity.startsWith("-")
        ? "short"
        : "long"
      : p.positionSide.toLowerCase();
  return {
    marginCoin: p.marginCoin,
    symbol: p.symbol,
    holdSide,
    openDelegateSize: "0",
    marginSize: p.margin,
    available: qty,
    locked: "0",
    total: qty,
    leverage: String(p.leverage),
    achievedProfits: p.realisedPnl,
    openPriceAvg: p.entryPrice,
    marginMode: p.marginMode === "cross" ? "crossed" : "isolated",
    posMode: ctx.dual ? "hedge_mode" : "one_way_mode",
    unrealizedPL: p.unrealisedPnl,
    liquidationPrice: p.liquidationPrice ?? "0",
    keepMarginRate: "0.004",
    markPrice: p.markPrice,
    marginRatio: pct(p.marginRatio),
    breakEvenPrice: p.entryPrice,
    totalFee: "0",
    deductedFee: "0",
    takeProfit: p.takeProfit ?? "",
    stopLoss: p.stopLoss ?? "",
    takeProfitId: extras.takeProfitId,
    stopLossId: extras.stopLossId,
    assetMode: "single",
    cTime: extras.cTime,
    uTime: extras.uTime,
  };
}

function presentFill(t: FuturesTrade, ctx: Ctx): Record<string, unknown> {
  return {
    tradeId: String(t.id),
    symbol: t.symbol,
    orderId: String(t.orderId),
    price: t.price,
    baseVolume: t.quantity,
    quoteVolume: mul(t.price, t.quantity),
    feeDetail: [{ deduction: "no", feeCoin: t.marginCoin, totalDeductionFee: "0", totalFee: neg(t.fee) }],
    side: bitgetSide(t),
    profit: t.realisedPnl,
    enterPointSource: "API",
    tradeSide: tradeSide(t, ctx),
    posMode: ctx.dual ? "hedge_mode" : "one_way_mode",
    tradeScope: t.maker ? "maker" : "taker",
    cTime: String(t.time),
  };
}

/** Bitget's bill type of a fill: opening or closing which side, or the liquidation's close. */
function fillBusinessType(t: FuturesTrade): string {
  const long = t.positionSide === "LONG" || (t.positionSide === "BOTH" && t.side === "BUY");
  if (isZero(t.realisedPnl) && !t.liquidation) return long ? "open_long" : "open_short";
  // A closing buy closes a short, a closing sell a long.
  const closesLong = t.positionSide === "LONG" || (t.positionSide === "BOTH" && t.side === "SELL");
  if (t.liquidation) return closesLong ? "burst_long_loss_query" : "burst_short_loss_query";
  return closesLong ? "close_long" : "close_short";
}

/** Bitget's `force` as the futures engine's time in force (post-only is GTX). */
const TIME_IN_FORCE = { gtc: "GTC", ioc: "IOC", fok: "FOK", post_only: "GTX" } as const;
/** And back, for the orders it prints. */
const FORCE: Record<FuturesTimeInForce, string> = { GTC: "gtc", IOC: "ioc", FOK: "fok", GTX: "post_only" };

const placeSchema = z.object({
  symbol,
  productType,
  marginMode: lower(["crossed", "isolated"]).optional(),
  marginCoin,
  size: bgDecimal,
  price: bgDecimal.optional(),
  side: lower(["buy", "sell"]),
  tradeSide: lower(["open", "close"]).optional(),
  orderType: lower(["limit", "market"]),
  force: lower(["gtc", "ioc", "fok", "post_only"]).default("gtc"),
  clientOid: clientOid.optional(),
  reduceOnly: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(["YES", "NO"]))
    .default("NO"),
  presetStopSurplusPrice: bgDecimal.optional(),
  presetStopLossPrice: bgDecimal.optional(),
});

const planSchema = placeSchema.extend({
  planType: lower(["normal_plan", "track_plan"]).default("normal_plan"),
  triggerPrice: bgDecimal,
  triggerType: lower(["mark_price", "fill_price"]).default("mark_price"),
  executePrice: bgDecimal.optional(),
  /** track_plan: the callback in percent (ccxt's trailingPercent). */
  callbackRatio: bgDecimal.optional(),
});

const tpslSchema = z.object({
  symbol,
  productType,
  marginCoin,
  planType: lower(["pos_profit", "pos_loss", "profit_plan", "loss_plan"]),
  triggerPrice: bgDecimal,
  triggerType: lower(["mark_price", "fill_price"]).default("mark_price"),
  holdSide: lower(["long", "short", "buy", "sell"]),
  size: bgDecimal.optional(),
  executePrice: bgDecimal.optional(),
  clientOid: clientOid.optional(),
});

/** A lookup's client id: any string (one that was never placed finds nothing). */
const lookupOid = z.string().max(64);
const listQuery = z.object({
  productType,
  ...listFields,
  planType: z.string().optional(),
  clientOid: lookupOid.optional(),
});
/** The rows with the query's `clientOid`, when it names one. */
const withOid = (rows: FuturesOrder[], q: { clientOid?: string | undefined }) =>
  q.clientOid === undefined ? rows : rows.filter((o) => o.clientOrderId === q.clientOid);

/**
 * A futures wallet's figures both account endpoints answer, in its coin; `usdtEquity` is
 * the equity at `usdPrice` (a coin-M wallet's contract mark; 1 for USDT).
 */
function accountFigures(a: FuturesAccount, usdPrice: string) {
  return {
    marginCoin: a.marginCoin,
    locked: "0",
    available: a.wallet,
    crossedMaxAvailable: a.available,
    isolatedMaxAvailable: a.available,
    maxTransferOut: a.maxTransferOut,
    accountEquity: a.marginBalance,
    usdtEquity: a.marginCoin === "USDT" ? a.marginBalance : toFixedHalfUp(mul(a.marginBalance, usdPrice), 8),
  };
}

/** What set-leverage and set-margin-mode answer. */
function leverageView(s: { symbol: string; leverage: number; marginMode: "cross" | "isolated" }) {
  return {
    symbol: s.symbol,
    marginCoin: marginCoinOf(s.symbol),
    longLeverage: String(s.leverage),
    shortLeverage: String(s.leverage),
    crossMarginLeverage: String(s.leverage),
    marginMode: s.marginMode === "cross" ? "crossed" : "isolated",
  };
}

/** What the coin-M endpoints read beyond the futures service's per-symbol calls. */
export interface MixWallets {
  /** The account's futures wallet of one margin coin (USDT: the USDT-M one; BTC: the BTC coin-M one). */
  wallet: (accountId: number, marginCoin: string) => Promise<FuturesAccount>;
  /** Every coin-M wallet of the account, one per coin. */
  coinWallets: (accountId: number) => Promise<FuturesAccount[]>;
}

// Request schemas, built once (a schema built per request is compiled again by zod on
// its first parse: ~0.1 ms each).
const orderIdList = z
  .array(z.object({ orderId: bgInt.optional(), clientOid: lookupOid.optional() }))
  .optional();
const batchPlaceOrderBody = z.object({
  symbol,
  productType,
  marginCoin,
  marginMode: lower(["crossed", "isolated"]).optional(),
  orderList: z.array(z.record(z.string(), z.unknown())).min(1).max(50),
});
const modifyOrderBody = z.object({
  symbol,
  productType,
  marginCoin: marginCoin.optional(),
  orderId: bgInt.optional(),
  clientOid: lookupOid.optional(),
  newClientOid: clientOid.optional(),
  newSize: bgDecimal.optional(),
  newPrice: bgDecimal.optional(),
  newPresetStopSurplusPrice: bgDecimal.optional(),
  newPresetStopLossPrice: bgDecimal.optional(),
});
const modifyPlanOrderBody = z.object({
  symbol,
  productType,
  orderId: bgInt.optional(),
  clientOid: lookupOid.optional(),
  newTriggerPrice: bgDecimal.optional(),
  newSize: bgDecimal.optional(),
  newPrice: bgDecimal.optional(),
  newCallbackRatio: bgDecimal.optional(),
  newClientOid: clientOid.optional(),
});
const modifyTpslOrderBody = z.object({
  symbol,
  productType,
  marginCoin: marginCoin.optional(),
  orderId: bgInt.optional(),
  clientOid: lookupOid.optional(),
  triggerPrice: bgDecimal,
  triggerType: lower(["mark_price", "fill_price"]).optional(),
  executePrice: bgDecimal.optional(),
  size: bgDecimal.optional(),
});
const batchCancelOrdersBody = z.object({
  symbol: symbol.optional(),
  productType,
  orderIdList,
});
const cancelPlanOrderBody = z.object({
  symbol: symbol.optional(),
  productType,
  orderIdList,
  orderId: bgInt.optional(),
  clientOid: lookupOid.optional(),
  planType: z.string().optional(),
});
const closePositionsBody = z.object({
  symbol: symbol.optional(),
  productType,
  holdSide: z.string().optional(),
});
const historyPositionQuery = z.object({
  symbol: symbol.optional(),
  productType: productType.optional(),
  startTime: bgInt.optional(),
  endTime: bgInt.optional(),
  limit: bgInt.optional().transform((n) => Math.min(100, Math.max(1, n ?? 20))),
});
const billQuery = z.object({
  productType,
  symbol: symbol.optional(),
  coin: z.string().optional(),
  businessType: z.string().optional(),
  startTime: bgInt.optional(),
  endTime: bgInt.optional(),
  limit: bgInt.optional().transform((n) => Math.min(100, Math.max(1, n ?? 20))),
});
const allPositionQuery = z.object({ productType, marginCoin: marginCoin.optional() });
const singlePositionQuery = z.object({ productType, symbol, marginCoin: marginCoin.optional() });
const accountsQuery = z.object({ productType });
const accountQuery = z.object({ productType, symbol, marginCoin });
const setLeverageBody = z.object({
  symbol,
  productType,
  marginCoin,
  leverage: bgInt,
  holdSide: z.string().optional(),
});
const setMarginBody = z.object({
  symbol,
  productType,
  marginCoin,
  holdSide: lower(["long", "short"]),
  amount: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => /^-?\d{1,20}(\.\d{1,18})?$/.test(v) && !isZero(v), "must be a non-zero decimal"),
});
const setMarginModeBody = z.object({
  symbol,
  productType,
  marginCoin,
  marginMode: lower(["crossed", "isolated"]),
});
const setPositionModeBody = z.object({ productType, posMode: lower(["hedge_mode", "one_way_mode"]) });

/**
 * USDT-M (USDT-FUTURES) and coin-M (COIN-FUTURES) perpetuals through the same futures
 * service as the web pages: a coin-M contract is named by its own symbol (BTCUSD), its
 * sizes are whole contracts and its money is in its coin.
 */
export function registerMix(
  r: V2Router,
  futures: FuturesApi,
  markOf: (symbol: string) => string | undefined,
  wallets: MixWallets,
): void {
  const read = { perm: "read", limit: "query" } as const;
  const trade = { perm: "futures_trade", limit: "trade" } as const;
  // The futures views are the writer's: on another instance they come over the command
  // bus (docs/architecture.md), so every read here is awaited and taken once per request.
  const ctxOf = async (c: Caller): Promise<Ctx> => {
    const [account, all] = await Promise.all([
      futures.account(c.accountId),
      futures.settingsAll(c.accountId),
    ]);
    const bySymbol = new Map(all.map((s) => [s.symbol, s]));
    return {
      dual: account.dualSidePosition,
      settings: (symbol) => {
        const s = bySymbol.get(symbol);
        if (s === undefined) throw new BitgetError(BitgetCode.PARAM_ERROR, `Unknown symbol ${symbol}`);
        return s;
      },
    };
  };
  const order = async (o: FuturesOrder, c: Caller) => presentMixOrder(o, await ctxOf(c));

  /** Meridian's side, position side and reduce-only for Bitget's side/tradeSide/reduceOnly. */
  const sides = async (
    c: Caller,
    b: { side: "buy" | "sell"; tradeSide?: "open" | "close" | undefined; reduceOnly: "YES" | "NO" },
  ) => {
    const dual = (await futures.account(c.accountId)).dualSidePosition;
    if (!dual)
      return {
        side: b.side === "buy" ? "BUY" : "SELL",
        positionSide: "BOTH",
        reduceOnly: b.reduceOnly === "YES",
      } as const;
    if (b.tradeSide === undefined)
      throw new BitgetError(
        "40774",
        "The order type for unilateral position must also be the unilateral position type.",
      );
    const positionSide = b.side === "buy" ? "LONG" : "SHORT";
    const closing = b.tradeSide === "close";
    const side = (b.side === "buy") !== closing ? "BUY" : "SELL";
    return { side, positionSide, reduceOnly: false } as const;
  };

  const markTriggerType = (side: "BUY" | "SELL", sym: string, trigger: string, limit = false) => {
    const above = compare(trigger, markOf(sym) ?? "0") > 0;
    // A buy stop fires on a rise, a sell stop on a fall; the other direction is a take-profit.
    const stop = (side === "BUY") === above;
    if (limit) return stop ? "STOP_LIMIT" : "TAKE_PROFIT_LIMIT";
    return stop ? "STOP_MARKET" : "TAKE_PROFIT_MARKET";
  };

  /**
   * A plan order's engine body: `normal_plan` with market execution is a stop or a
   * take-profit at market, with limit execution (`executePrice`, else `price`) its limit
   * kind; `track_plan` a trailing stop (activation `triggerPrice`, `callbackRatio` percent,
   * market only, as on Bitget).
   */
  const planBody = (
    b: {
      symbol: string;
      planType: string;
      orderType: string;
      triggerPrice: string;
      price?: string | undefined;
      executePrice?: string | undefined;
      callbackRatio?: string | undefined;
    },
    side: "BUY" | "SELL",
  ) => {
    if (b.planType === "track_plan") {
      if (b.callbackRatio === undefined)
        throw new BitgetError(BitgetCode.PARAM_EMPTY, "Parameter callbackRatio cannot be empty");
      if (b.orderType !== "market")
        throw new BitgetError(BitgetCode.PARAM_INVALID, "A track_plan order executes at market");
      return {
        type: "TRAILING_STOP_MARKET",
        stopPrice: b.triggerPrice,
        callbackRate: b.callbackRatio,
      } as const;
    }
    const execute = b.executePrice !== undefined && !isZero(b.executePrice) ? b.executePrice : b.price;
    if (b.orderType === "limit") {
      if (execute === undefined)
        throw new BitgetError(BitgetCode.PARAM_EMPTY, "Parameter executePrice cannot be empty");
      return {
        type: markTriggerType(side, b.symbol, b.triggerPrice, true),
        stopPrice: b.triggerPrice,
        price: execute,
      } as const;
    }
    return { type: markTriggerType(side, b.symbol, b.triggerPrice), stopPrice: b.triggerPrice } as const;
  };

  /**
   * One order with its preset TP/SL (close-position triggers on the mark, placed in the
   * same command; they do nothing if no position is open when they fire). With a
   * clientOid, sending it again answers the first order and places nothing.
   */
  const placeOne = async (c: Caller, b: z.output<typeof placeSchema>) => {
    checkProduct(b);
    checkCoinOrder(b.symbol, b.size, b.orderType === "limit" ? b.price : undefined);
    if (b.orderType === "limit" && b.price === undefined)
      throw new BitgetError(BitgetCode.PARAM_EMPTY, "Parameter price cannot be empty");
    if (b.marginMode !== undefined) {
      const want = b.marginMode === "crossed" ? "cross" : "isolated";
      if ((await futures.settings(c.accountId, b.symbol)).marginMode !== want)
        await futures.setMarginMode(c.accountId, b.symbol, want);
    }
    const s = await sides(c, b);
    const placed = await futures.place(
      c.accountId,
      {
        symbol: b.symbol,
        side: s.side,
        positionSide: s.positionSide,
        type: b.orderType === "limit" ? "LIMIT" : "MARKET",
        quantity: b.size,
        ...(b.orderType === "limit" ? { price: b.price, timeInForce: TIME_IN_FORCE[b.force] } : {}),
        reduceOnly: s.reduceOnly,
        ...(b.clientOid === undefined ? {} : { clientOrderId: b.clientOid }),
      },
      { takeProfit: b.presetStopSurplusPrice, stopLoss: b.presetStopLossPrice },
    );
    return { orderId: String(placed.id), clientOid: placed.clientOrderId };
  };

  r.post("/v2/mix/order/place-order", trade, ({ body }, c) => placeOne(c, placeSchema.parse(body)));

  r.post("/v2/mix/order/batch-place-order", trade, async ({ body }, c) => {
    const { orderList, ...shared } = batchPlaceOrderBody.parse(body);
    checkProduct(shared);
    return batch(
      orderList,
      (item) => placeOne(c, placeSchema.parse({ ...shared, ...item })),
      (item) => ({ orderId: "", clientOid: typeof item.clientOid === "string" ? item.clientOid : "" }),
    );
  });

  r.post("/v2/mix/order/place-plan-order", trade, async ({ body }, c) => {
    const b = planSchema.parse(body);
    checkProduct(b);
    const s = await sides(c, b);
    const placed = await futures.place(c.accountId, {
      symbol: b.symbol,
      side: s.side,
      positionSide: s.positionSide,
      ...planBody(b, s.side),
      quantity: b.size,
      reduceOnly: s.reduceOnly,
      ...(b.clientOid === undefined ? {} : { clientOrderId: b.clientOid }),
    });
    return { orderId: String(placed.id), clientOid: placed.clientOrderId };
  });

  r.post("/v2/mix/order/place-tpsl-order", trade, async ({ body }, c) => {
    const b = tpslSchema.parse(body);
    checkProduct(b);
    const dual = (await futures.account(c.accountId)).dualSidePosition;
    const positionSide: PositionSideValue = !dual
      ? "BOTH"
      : b.holdSide === "long" || b.holdSide === "buy"
        ? "LONG"
        : "SHORT";
    const profit = b.planType === "pos_profit" || b.planType === "profit_plan";
    const list = await futures.setTpsl(c.accountId, {
      symbol: b.symbol,
      positionSide,
      ...(profit ? { takeProfit: b.triggerPrice } : { stopLoss: b.triggerPrice }),
      ...(b.clientOid === undefined ? {} : { clientOrderId: b.clientOid }),
    });
    const made = list.find((o) => o.stopPrice === b.triggerPrice) ?? list[0];
    if (made === undefined)
      throw new BitgetError(BitgetCode.ORDER_INVALID, "No position to attach the TP/SL to");
    return { orderId: String(made.id), clientOid: made.clientOrderId };
  });

  const ref = z.object({
    symbol: symbol.optional(),
    productType,
    orderId: bgInt.optional(),
    clientOid: lookupOid.optional(),
  });
  /** The order an `orderId` or (without one) a `clientOid` names. */
  const refOf = (b: {
    orderId?: number | undefined;
    clientOid?: string | undefined;
  }): FuturesOrderRef | undefined =>
    b.orderId !== undefined
      ? { id: b.orderId }
      : b.clientOid !== undefined
        ? { clientOrderId: b.clientOid }
        : undefined;
  const cancelOne = async (c: Caller, ref: FuturesOrderRef | undefined) => {
    if (ref === undefined) throw new BitgetError(BitgetCode.PARAM_EMPTY, "Parameter orderId cannot be empty");
    const o = await futures.cancel(c.accountId, ref);
    return { orderId: String(o.id), clientOid: o.clientOrderId };
  };

  // ccxt editOrder: Bitget's modify-order on a resting limit order cancels it and places
  // a new one (a new orderId, ccxt's newClientOid) with the new size and price; the rest
  // of the order (side, position side, reduce-only) carries over.
  r.post("/v2/mix/order/modify-order", trade, async ({ body }, c) => {
    const b = modifyOrderBody.parse(body);
    checkProduct(b);
    const which = refOf(b);
    if (which === undefined)
      throw new BitgetError(BitgetCode.PARAM_EMPTY, "Parameter orderId cannot be empty");
    const old = await futures.order(c.accountId, which);
    if (old === undefined) throw new BitgetError(BitgetCode.MIX_ORDER_NOT_FOUND, "Order does not exist");
    if (old.type !== "LIMIT")
      throw new BitgetError(BitgetCode.ORDER_INVALID, "Only resting limit orders can be modified");
    await futures.cancel(c.accountId, { id: old.id });
    const placed = await futures.place(
      c.accountId,
      {
        symbol: old.symbol,
        side: old.side,
        positionSide: old.positionSide,
        type: "LIMIT",
        quantity: b.newSize ?? sub(old.quantity, old.executedQty),
        price: b.newPrice ?? old.price ?? undefined,
        reduceOnly: old.reduceOnly,
        ...(b.newClientOid === undefined ? {} : { clientOrderId: b.newClientOid }),
      },
      { takeProfit: b.newPresetStopSurplusPrice, stopLoss: b.newPresetStopLossPrice },
    );
    return { orderId: String(placed.id), clientOid: placed.clientOrderId };
  });

  // ccxt editOrder with a triggerPrice: a normal plan is cancelled and placed again with
  // the new trigger and size (a new orderId); its side and position side carry over.
  r.post("/v2/mix/order/modify-plan-order", trade, async ({ body }, c) => {
    const b = modifyPlanOrderBody.parse(body);
    checkProduct(b);
    const which = refOf(b);
    if (which === undefined)
      throw new BitgetError(BitgetCode.PARAM_EMPTY, "Parameter orderId cannot be empty");
    const old = await futures.order(c.accountId, which);
    if (old === undefined || !waiting(old) || old.closePosition || old.status !== "NEW")
      throw new BitgetError(BitgetCode.MIX_ORDER_NOT_FOUND, "Plan order does not exist");
    const trailing = old.type === "TRAILING_STOP_MARKET";
    const price = b.newPrice !== undefined && !isZero(b.newPrice) ? b.newPrice : (old.price ?? undefined);
    const next = planBody(
      {
        symbol: old.symbol,
        planType: trailing ? "track_plan" : "normal_plan",
        orderType: trailing || price === undefined ? "market" : "limit",
        triggerPrice: b.newTriggerPrice ?? old.stopPrice ?? "0",
        price,
        callbackRatio: b.newCallbackRatio ?? old.callbackRate,
      },
      old.side,
    );
    await futures.cancel(c.accountId, { id: old.id });
    const placed = await futures.place(c.accountId, {
      symbol: old.symbol,
      side: old.side,
      positionSide: old.positionSide,
      ...next,
      quantity: b.newSize ?? old.quantity,
      reduceOnly: old.reduceOnly,
      ...(b.newClientOid === undefined ? {} : { clientOrderId: b.newClientOid }),
    });
    return { orderId: String(placed.id), clientOid: placed.clientOrderId };
  });

  // ccxt editOrder with stopLossPrice / takeProfitPrice: a position TP/SL leg gets a new
  // trigger. Meridian's legs close the whole position at market, so it is placed again
  // (a new orderId) and replaces the old one in the same command; `size` is not used.
  r.post("/v2/mix/order/modify-tpsl-order", trade, async ({ body }, c) => {
    const b = modifyTpslOrderBody.parse(body);
    checkProduct(b);
    if (b.executePrice !== undefined && !isZero(b.executePrice))
      throw new BitgetError(
        BitgetCode.PARAM_INVALID,
        "executePrice: TP/SL orders execute at market on paper trading",
      );
    const which = refOf(b);
    if (which === undefined)
      throw new BitgetError(BitgetCode.PARAM_EMPTY, "Parameter orderId cannot be empty");
    const old = await futures.order(c.accountId, which);
    if (old === undefined || !old.closePosition || !waiting(old) || old.status !== "NEW")
      throw new BitgetError(BitgetCode.MIX_ORDER_NOT_FOUND, "TP/SL order does not exist");
    const list = await futures.setTpsl(c.accountId, {
      symbol: old.symbol,
      positionSide: old.positionSide,
      ...(isStop(old) ? { stopLoss: b.triggerPrice } : { takeProfit: b.triggerPrice }),
    });
    const made = list[0];
    if (made === undefined)
      throw new BitgetError(BitgetCode.ORDER_INVALID, "No position to attach the TP/SL to");
    return { orderId: String(made.id), clientOid: made.clientOrderId };
  });

  r.post("/v2/mix/order/cancel-order", trade, async ({ body }, c) => {
    const b = ref.parse(body);
    checkProduct(b);
    return cancelOne(c, refOf(b));
  });

  /** Cancels the open orders `which` picks among the product type's (the symbol's, when named). */
  const cancelMany = async (
    c: Caller,
    which: (o: FuturesOrder) => boolean,
    sym: string | undefined,
    product: string,
  ) => {
    const open = await futures.openOrders({ accountId: c.accountId, symbol: sym, limit: 500 });
    return batch(
      open.filter(ofProduct(product)).filter(which),
      (o) => cancelOne(c, { id: o.id }),
      (o) => ({ orderId: String(o.id), clientOid: o.clientOrderId }),
    );
  };

  /** Whether an order is one of the listed (by id, or by client id where no id is given). */
  const listed = (list: readonly { orderId?: number | undefined; clientOid?: string | undefined }[]) => {
    const ids = new Set<number>();
    const oids = new Set<string>();
    for (const x of list) {
      if (x.orderId !== undefined) ids.add(x.orderId);
      else if (x.clientOid !== undefined) oids.add(x.clientOid);
    }
    return {
      empty: ids.size === 0 && oids.size === 0,
      has: (o: FuturesOrder) => ids.has(o.id) || oids.has(o.clientOrderId),
    };
  };

  r.post("/v2/mix/order/batch-cancel-orders", trade, async ({ body }, c) => {
    const b = batchCancelOrdersBody.parse(body);
    checkProduct(b);
    // Listed orders one by one, so one that is not open shows in failureList (ccxt cancelOrders).
    if (b.orderIdList !== undefined && b.orderIdList.length > 0)
      return batch(
        b.orderIdList,
        (x) => cancelOne(c, refOf(x)),
        (x) => ({ orderId: x.orderId === undefined ? "" : String(x.orderId), clientOid: x.clientOid ?? "" }),
      );
    return cancelMany(c, isNormal, b.symbol, b.productType);
  });

  r.post("/v2/mix/order/cancel-plan-order", trade, async ({ body }, c) => {
    const b = cancelPlanOrderBody.parse(body);
    checkProduct(b);
    const one = refOf(b);
    const which = listed([...(b.orderIdList ?? []), ...(one === undefined ? [] : [b])]);
    return cancelMany(
      c,
      (o) => isTrigger(o) && (which.empty ? waiting(o) && ofPlanType(o, b.planType) : which.has(o)),
      b.symbol,
      b.productType,
    );
  });

  r.post("/v2/mix/order/close-positions", trade, async ({ body }, c) => {
    const b = closePositionsBody.parse(body);
    checkProduct(b);
    // Without a symbol: every position of the product type, one symbol after another (the
    // service's close-all without one would close the other family's too).
    const symbols =
      b.symbol !== undefined
        ? [b.symbol]
        : [
            ...new Set(
              (await futures.positions(c.accountId))
                .filter((p) => ofProduct(b.productType)(p) && !isZero(p.quantity))
                .map((p) => p.symbol),
            ),
          ];
    const orders: FuturesOrder[] = [];
    for (const sym of symbols) orders.push(...(await futures.closeAll(c.accountId, sym)));
    return {
      successList: orders.map((o) => ({
        orderId: String(o.id),
        clientOid: o.clientOrderId,
        symbol: o.symbol,
      })),
      failureList: [],
    };
  });

  r.get("/v2/mix/order/detail", read, async ({ query }, c) => {
    const r = refOf(ref.parse(query));
    const o = r === undefined ? undefined : await futures.order(c.accountId, r);
    if (o === undefined) throw new BitgetError(BitgetCode.MIX_ORDER_NOT_FOUND, "Order does not exist");
    const [detail, presets] = await Promise.all([futures.orderDetail(c.accountId, o.id), presetsOf(c, o)]);
    return {
      ...(await order(o, c)),
      fee: neg(detail.fee),
      totalProfits: detail.realisedPnl,
      presetStopSurplusPrice: presets.takeProfit,
      presetStopLossPrice: presets.stopLoss,
      cancelReason:
        o.status === "CANCELED" || o.status === "EXPIRED" || o.status === "REJECTED"
          ? (o.reason ?? "normal_cancel")
          : "",
    };
  });

  /**
   * The preset TP/SL placed with an order: the futures service places them in the same
   * command, right after it (the next ids, same symbol and position side, closing it,
   * stamped within that command's run; SAME_COMMAND_MS bounds it).
   */
  const presetsOf = async (c: Caller, o: FuturesOrder) => {
    const legs = await Promise.all([o.id + 1, o.id + 2].map((id) => futures.order(c.accountId, { id })));
    const leg = (type: FuturesOrder["type"]) =>
      legs.find(
        (l) =>
          l !== undefined &&
          l.type === type &&
          l.closePosition &&
          l.symbol === o.symbol &&
          l.positionSide === o.positionSide &&
          l.time >= o.time &&
          l.time - o.time <= SAME_COMMAND_MS,
      )?.stopPrice ?? "";
    return { takeProfit: leg("TAKE_PROFIT_MARKET"), stopLoss: leg("STOP_MARKET") };
  };

  r.get("/v2/mix/order/orders-pending", read, async ({ query }, c) => {
    const q = listQuery.parse(query);
    const open = await futures.openOrders({ accountId: c.accountId, symbol: q.symbol, limit: 500 });
    const rows = withOid(open, q).filter((o) => isNormal(o) && ofProduct(q.productType)(o));
    const ctx = await ctxOf(c);
    const list = windowed(rows, (o) => o.time, q).map((o) => presentMixOrder(o, ctx));
    return { entrustedList: list.length === 0 ? null : list, endId: list.at(-1)?.orderId ?? "" };
  });

  const history = (c: Caller, q: { symbol?: string | undefined; idLessThan?: number | undefined }) =>
    futures.orderHistory({
      accountId: c.accountId,
      symbol: q.symbol,
      limit: 500,
      before: q.idLessThan,
    });

  r.get("/v2/mix/order/orders-history", read, async ({ query }, c) => {
    const q = listQuery.parse(query);
    const rows = withOid(await history(c, q), q).filter((o) => isNormal(o) && ofProduct(q.productType)(o));
    const ctx = await ctxOf(c);
    const list = windowed(rows, (o) => o.time, q).map((o) => presentMixOrder(o, ctx));
    return { entrustedList: list.length === 0 ? null : list, endId: list.at(-1)?.orderId ?? "" };
  });

  const planList = async (rows: FuturesOrder[], c: Caller, product: string, planType: string | undefined) => {
    const ctx = await ctxOf(c);
    return rows
      .filter((o) => isTrigger(o) && ofProduct(product)(o) && ofPlanType(o, planType))
      .map((o) => presentMixPlan(o, ctx, planTypeOf(o)));
  };

  r.get("/v2/mix/order/orders-plan-pending", read, async ({ query }, c) => {
    const q = listQuery.parse(query);
    const list = (
      await planList(
        withOid(
          (
            await futures.openOrders({ accountId: c.accountId, symbol: q.symbol, limit: 500 })
          ).filter(waiting),
          q,
        ),
        c,
        q.productType,
        q.planType,
      )
    ).slice(0, q.limit);
    return { entrustedList: list.length === 0 ? null : list, endId: "" };
  });

  r.get("/v2/mix/order/orders-plan-history", read, async ({ query }, c) => {
    const q = listQuery.parse(query);
    // Ended plans, and limit plans that fired and rest as limits (executed as plans).
    const fired = (await futures.openOrders({ accountId: c.accountId, symbol: q.symbol, limit: 500 })).filter(
      (o) => isTrigger(o) && !waiting(o),
    );
    const rows = [...fired, ...(await history(c, q))].sort((a, b) => b.id - a.id);
    const list = (await planList(withOid(rows, q), c, q.productType, q.planType)).slice(0, q.limit);
    return { entrustedList: list.length === 0 ? null : list, endId: "" };
  });

  r.get("/v2/mix/order/fills", read, async ({ query }, c) => {
    const q = listQuery.parse(query);
    const rows = await futures.trades({
      accountId: c.accountId,
      symbol: q.symbol,
      limit: 500,
      before: q.idLessThan,
    });
    const ctx = await ctxOf(c);
    const mine = rows.filter(
      (t) => (q.orderId === undefined || t.orderId === q.orderId) && ofProduct(q.productType)(t),
    );
    const list = windowed(mine, (t) => t.time, q).map((t) => presentFill(t, ctx));
    return { fillList: list, endId: (list.at(-1)?.tradeId as string | undefined) ?? "" };
  });

  const positionsOf = async (c: Caller, product: string, sym?: string) => {
    const [ctx, positions, open, trades] = await Promise.all([
      ctxOf(c),
      futures.positions(c.accountId, familyOf(product)),
      futures.openOrders({ accountId: c.accountId, symbol: sym, limit: 500 }),
      futures.trades({ accountId: c.accountId, symbol: sym, limit: 500 }),
    ]);
    /** The position's open close-position trigger of this type (its TP or SL order). */
    const legId = (p: FuturesPosition, type: FuturesOrder["type"]) =>
      String(
        open.find(
          (o) =>
            o.closePosition && o.type === type && o.symbol === p.symbol && o.positionSide === p.positionSide,
        )?.id ?? "",
      );
    return positions
      .filter((p) => (sym === undefined || p.symbol === sym) && ofProduct(product)(p) && !isZero(p.quantity))
      .map((p) =>
        presentPosition(p, ctx, {
          takeProfitId: legId(p, "TAKE_PROFIT_MARKET"),
          stopLossId: legId(p, "STOP_MARKET"),
          ...positionTimes(p, trades),
        }),
      );
  };

  // ccxt fetchPositionsHistory: closed positions replayed from the account's fills (the
  // futures service's position history, as the web's) and the funding paid while open.
  // Meridian keeps one fee per position: it is `closeFee`, `openFee` is 0 (documented).
  r.get("/v2/mix/position/history-position", read, async ({ query }, c) => {
    const q = historyPositionQuery.parse(query);
    const [closed, funding, ctx] = await Promise.all([
      futures.positionHistory(c.accountId, {
        symbol: q.symbol,
        limit: 200,
        before: undefined,
      }),
      futures.funding({ accountId: c.accountId, symbol: q.symbol, limit: 1000 }),
      ctxOf(c),
    ]);
    const mine = q.productType === undefined ? closed : closed.filter(ofProduct(q.productType));
    const list = windowed(mine, (p) => p.closeTime, q).map((p) => {
      let paid = "0";
      for (const f of funding)
        if (
          f.symbol === p.symbol &&
          f.positionSide === p.positionSide &&
          f.time >= p.openTime &&
          f.time <= p.closeTime
        )
          paid = add(paid, f.amount);
      return {
        positionId: `${p.symbol}-${p.openTime}`,
        symbol: p.symbol,
        marginCoin: p.marginCoin,
        holdSide: p.direction === "LONG" ? "long" : "short",
        openAvgPrice: p.entryPrice,
        closeAvgPrice: p.closePrice,
        marginMode: ctx.settings(p.symbol).marginMode === "cross" ? "crossed" : "isolated",
        openTotalPos: p.maxQty,
        closeTotalPos: p.maxQty,
        pnl: p.realisedPnl,
        netProfit: p.netPnl,
        totalFunding: paid,
        openFee: "0",
        closeFee: neg(p.fee),
        ctime: String(p.openTime),
        utime: String(p.closeTime),
      };
    });
    return { list, endId: list.at(-1)?.positionId ?? "" };
  });

  // ccxt fetchFundingHistory (businessType contract_settle_fee) and fetchLedger on swap:
  // the futures account's fills and funding as Bitget's bills, newest first. A bill id is
  // "1" + the fill's id or "2" + the funding record's (one id space for both).
  r.get("/v2/mix/account/bill", read, async ({ query }, c) => {
    const q = billQuery.parse(query);
    checkProduct(q);
    const [allFills, allFunding] = await Promise.all([
      futures.trades({ accountId: c.accountId, symbol: q.symbol, limit: 500 }),
      futures.funding({ accountId: c.accountId, symbol: q.symbol, limit: 500 }),
    ]);
    // A coin names one coin-M wallet's bills (Bitget's `coin` filter).
    const coin = q.coin?.toUpperCase();
    const mine = <T extends { family: "usdt" | "coin"; marginCoin: string }>(rows: T[]) =>
      rows.filter((x) => ofProduct(q.productType)(x) && (coin === undefined || x.marginCoin === coin));
    const fills = mine(allFills);
    const funding = mine(allFunding);
    const bills = [
      ...fills.map((t) => ({
        billId: `1${t.id}`,
        symbol: t.symbol,
        amount: t.realisedPnl,
        fee: neg(t.fee),
        feeByCoupon: "",
        businessType: fillBusinessType(t),
        coin: t.marginCoin,
        cTime: String(t.time),
        time: t.time,
      })),
      ...funding.map((f) => ({
        billId: `2${f.id}`,
        symbol: f.symbol,
        amount: f.amount,
        fee: "0",
        feeByCoupon: "",
        businessType: "contract_settle_fee",
        coin: f.marginCoin,
        cTime: String(f.time),
        time: f.time,
      })),
    ]
      .filter((b) => q.businessType === undefined || b.businessType === q.businessType.toLowerCase())
      .sort((x, y) => y.time - x.time);
    const list = windowed(bills, (b) => b.time, q).map(({ time: _t, ...bill }) => bill);
    return { bills: list, endId: list.at(-1)?.billId ?? "" };
  });

  r.get("/v2/mix/position/all-position", read, async ({ query }, c) => {
    const q = allPositionQuery.parse(query);
    checkProduct(q);
    const list = await positionsOf(c, q.productType);
    return q.marginCoin === undefined ? list : list.filter((p) => p.marginCoin === q.marginCoin);
  });

  r.get("/v2/mix/position/single-position", read, ({ query }, c) => {
    const q = singlePositionQuery.parse(query);
    checkProduct(q);
    return positionsOf(c, q.productType, q.symbol);
  });

  /** A wallet's USD price: 1 for USDT, its coin's contract mark for a coin-M wallet. */
  const usdPriceOf = (coin: string) => (coin === "USDT" ? "1" : (markOf(`${coin}USD`) ?? "0"));

  /** The account's futures wallet of `coin` (USDT-M for USDT). */
  const walletOf = (c: Caller, coin: string) => {
    return coin === "USDT" ? futures.account(c.accountId) : wallets.wallet(c.accountId, coin);
  };

  r.get("/v2/mix/account/accounts", read, async ({ query }, c) => {
    const q = accountsQuery.parse(query);
    const list =
      familyOf(q.productType) === "coin"
        ? await wallets.coinWallets(c.accountId)
        : [await futures.account(c.accountId)];
    return list.map((a) => ({
      ...accountFigures(a, usdPriceOf(a.marginCoin)),
      btcEquity: "0",
      crossedRiskRate: pct(a.marginRatio),
      unrealizedPL: a.unrealisedPnl,
      coupon: "0",
      crossedUnrealizedPL: a.unrealisedPnl,
      isolatedUnrealizedPL: "0",
      assetMode: "single",
      posMode: a.dualSidePosition ? "hedge_mode" : "one_way_mode",
    }));
  });

  r.get("/v2/mix/account/account", read, async ({ query }, c) => {
    const q = accountQuery.parse(query);
    checkProduct(q);
    const [s, a] = await Promise.all([futures.settings(c.accountId, q.symbol), walletOf(c, q.marginCoin)]);
    return {
      ...accountFigures(a, usdPriceOf(a.marginCoin)),
      crossedMarginLeverage: String(s.leverage),
      isolatedLongLever: String(s.leverage),
      isolatedShortLever: String(s.leverage),
      marginMode: s.marginMode === "cross" ? "crossed" : "isolated",
      posMode: s.dualSidePosition ? "hedge_mode" : "one_way_mode",
      unrealizedPL: a.unrealisedPnl,
    };
  });

  r.post("/v2/mix/account/set-leverage", trade, async ({ body }, c) => {
    const b = setLeverageBody.parse(body);
    checkProduct(b);
    if (b.leverage < 1 || b.leverage > 125)
      throw new BitgetError(BitgetCode.PARAM_INVALID, "Parameter leverage error");
    return leverageView(await futures.setLeverage(c.accountId, b.symbol, b.leverage));
  });

  // ccxt addMargin / reduceMargin: an isolated position's margin, positive adds from the
  // futures wallet, negative takes back (the futures service's margin adjustment).
  r.post("/v2/mix/account/set-margin", trade, async ({ body }, c) => {
    const b = setMarginBody.parse(body);
    checkProduct(b);
    const dual = (await futures.account(c.accountId)).dualSidePosition;
    const reduce = b.amount.startsWith("-");
    await futures.adjustMargin(c.accountId, {
      symbol: b.symbol,
      positionSide: !dual ? "BOTH" : b.holdSide === "long" ? "LONG" : "SHORT",
      type: reduce ? "REDUCE" : "ADD",
      amount: reduce ? b.amount.slice(1) : b.amount,
    });
    return "";
  });

  r.post("/v2/mix/account/set-margin-mode", trade, async ({ body }, c) => {
    const b = setMarginModeBody.parse(body);
    checkProduct(b);
    const mode = b.marginMode === "crossed" ? "cross" : "isolated";
    return leverageView(await futures.setMarginMode(c.accountId, b.symbol, mode));
  });

  r.post("/v2/mix/account/set-position-mode", trade, async ({ body }, c) => {
    const b = setPositionModeBody.parse(body);
    const s = await futures.setPositionMode(c.accountId, b.posMode === "hedge_mode");
    return { posMode: s.dualSidePosition ? "hedge_mode" : "one_way_mode" };
  });
}
