import {
  COIN_MARGIN_COINS,
  FUTURES_MARGIN_COINS,
  type PaperBalance,
  type PaperOrder,
  type PaperTrade,
  placeOrderBodySchema,
  type WalletValue,
} from "@meridian/contracts";
import {
  decimalsOf,
  divDown,
  divHalfUp,
  floorToStep,
  fromMinor,
  isPositive,
  negate,
  toFixedHalfUp,
} from "@meridian/domain";
import { z } from "zod";
import type { FuturesApi } from "../futures/index.ts";
import type { MarginApi } from "../margin/index.ts";
import type { PaperApi } from "../paper/index.ts";
import { BitgetCode, BitgetError, bgDecimal, bgInt } from "./bitget.ts";
import { batch, clientOid, listQuery, lower, neg, symbol, windowed } from "./common.ts";
import type { Caller, V2Router } from "./v2-scope.ts";

const STATUS: Readonly<Record<PaperOrder["status"], string>> = {
  NEW: "live",
  PARTIALLY_FILLED: "partially_filled",
  FILLED: "filled",
  CANCELED: "cancelled",
  EXPIRED: "cancelled",
  REJECTED: "cancelled",
};

export const isPlan = (o: PaperOrder) => o.type === "STOP_LIMIT" || o.type === "STOP_MARKET";

function avgPrice(o: PaperOrder, decimals: number): string {
  if (!isPositive(o.executedQty)) return "0";
  // The average rounded to the pair's price digits: the exact amounts are baseVolume and quoteVolume.
  return toFixedHalfUp(divHalfUp(o.cummulativeQuoteQty, o.executedQty, decimals), decimals);
}

/** A paper spot order as Bitget's v2 spot order (ccxt's parseOrder reads these fields). */
export function presentSpotOrder(o: PaperOrder, userId: string, priceDecimals = 8): Record<string, unknown> {
  const marketBuy =
    (o.type === "MARKET" || o.type === "STOP_MARKET") && o.side === "BUY" && o.quoteQty !== null;
  // Bitget's feeDetail is JSON text with the fee as JSON numbers: written from the decimal
  // string itself, so no float rounds it on the way.
  const fee = neg(o.fee);
  const asset = JSON.stringify(o.feeAsset);
  const feeDetail =
    `{"newFees":{"c":0,"d":0,"deduction":false,"r":${fee},"t":${fee},"totalDeductionFee":0},` +
    `${asset}:{"deduction":false,"feeCoinCode":${asset},"totalDeductionFee":0,"totalFee":${fee}}}`;
  return {
    userId,
    symbol: o.symbol,
    orderId: String(o.orderId),
    clientOid: o.clientOrderId,
    price: o.price ?? "0",
    size: marketBuy ? o.quoteQty : o.origQty,
    orderType: o.type === "MARKET" || o.type === "STOP_MARKET" ? "market" : "limit",
    side: o.side.toLowerCase(),
    status: STATUS[o.status],
    priceAvg: avgPrice(o, priceDecimals),
    baseVolume: o.executedQty,
    quoteVolume: o.cummulativeQuoteQty,
    enterPointSource: "API",
    orderSource: o.type === "MARKET" ? "market" : "normal",
    force: o.type === "LIMIT_MAKER" ? "post_only" : (o.timeInForce ?? "gtc").toLowerCase(),
    cTime: String(o.createdAt),
    uTime: String(o.updatedAt),
    feeDetail,
    ...(o.stopPrice === null ? {} : { triggerPrice: o.stopPrice }),
    ...(o.takeProfit === undefined ? {} : { presetTakeProfitPrice: o.takeProfit.triggerPrice }),
    ...(o.stopLoss === undefined ? {} : { presetStopLossPrice: o.stopLoss.triggerPrice }),
    tpslType: "normal",
  };
}

/** A spot plan (trigger) order as Bitget lists it (REST and the `orders-algo` channel). */
export function presentSpotPlan(o: PaperOrder): Record<string, unknown> {
  return {
    orderId: String(o.orderId),
    clientOid: o.clientOrderId,
    symbol: o.symbol,
    size: o.quoteQty ?? o.origQty,
    executePrice: o.price ?? "0",
    triggerPrice: o.stopPrice ?? "0",
    status: o.triggered
      ? o.status === "CANCELED"
        ? "cancelled"
        : "triggered"
      : o.status === "NEW"
        ? "live"
        : "cancelled",
    planStatus: o.triggered ? "triggered" : o.status === "NEW" ? "live" : "cancelled",
    orderType: o.type === "STOP_MARKET" ? "market" : "limit",
    side: o.side.toLowerCase(),
    triggerType: "fill_price",
    enterPointSource: "API",
    cTime: String(o.createdAt),
    uTime: String(o.updatedAt),
  };
}

export function presentSpotFill(t: PaperTrade, userId: string): Record<string, unknown> {
  return {
    userId,
    symbol: t.symbol,
    orderId: String(t.orderId),
    tradeId: String(t.tradeId),
    orderType: "limit",
    side: t.side.toLowerCase(),
    priceAvg: t.price,
    size: t.qty,
    amount: t.quoteQty,
    feeDetail: { deduction: "no", feeCoin: t.feeAsset, totalDeductionFee: "0", totalFee: neg(t.fee) },
    tradeScope: t.isMaker ? "maker" : "taker",
    cTime: String(t.time),
    uTime: String(t.time),
  };
}

/** A spot balance as Bitget's REST assets and the WebSocket `account` channel show it. */
export function presentSpotBalance(b: PaperBalance, uTime: string): Record<string, unknown> {
  return { coin: b.asset, available: b.available, frozen: b.held, locked: "0", limitAvailable: "0", uTime };
}

/** Bitget's batch body: up to 50 orders (to place or cancel), the symbol given once or per item. */
const batchSchema = z.object({
  symbol: symbol.optional(),
  orderList: z.array(z.record(z.string(), z.unknown())).min(1).max(50),
});

const placeSchema = z.object({
  symbol,
  side: lower(["buy", "sell"]),
  orderType: lower(["limit", "market"]),
  force: lower(["gtc", "ioc", "fok", "post_only"]).default("gtc"),
  price: bgDecimal.optional(),
  size: bgDecimal,
  clientOid: clientOid.optional(),
  presetTakeProfitPrice: bgDecimal.optional(),
  presetStopLossPrice: bgDecimal.optional(),
});

const planSchema = placeSchema.extend({
  triggerPrice: bgDecimal,
  executePrice: bgDecimal.optional(),
  planType: lower(["amount", "total"]).default("amount"),
  triggerType: lower(["mark_price", "fill_price"]).default("fill_price"),
});

const orderRef = z
  .object({ orderId: bgInt.optional(), clientOid: clientOid.optional() })
  .refine((r) => r.orderId !== undefined || r.clientOid !== undefined, {
    path: ["orderId"],
    message: "orderId or clientOid required",
  });

/** Bitget's transfer account names, as ccxt sends them. */
const ACCOUNT_TYPES = [
  "spot",
  "usdt_futures",
  "coin_futures",
  "usdc_futures",
  "crossed_margin",
  "isolated_margin",
  "p2p",
] as const;
const transferSchema = z.object({
  fromType: lower(ACCOUNT_TYPES),
  toType: lower(ACCOUNT_TYPES),
  amount: bgDecimal,
  coin: z
    .string()
    .regex(/^[A-Za-z0-9]{1,12}$/)
    .transform((s) => s.toUpperCase()),
  clientOid: clientOid.optional(),
  symbol: symbol.optional(),
});

/** Bitget's account names as Meridian's wallets. */
const WALLET_OF = {
  spot: "SPOT",
  usdt_futures: "FUTURES",
  crossed_margin: "CROSS_MARGIN",
  isolated_margin: "ISOLATED_MARGIN",
} as const;
/** Meridian's wallets as Bitget's account names (FUTURES in a coin is its coin-M wallet: `coin_futures`). */
const TYPE_OF: Record<string, string> = Object.fromEntries(Object.entries(WALLET_OF).map(([k, v]) => [v, k]));
const typeOf = (wallet: string, asset: string): string =>
  wallet === "FUTURES" && asset !== "USDT" ? "coin_futures" : (TYPE_OF[wallet] ?? wallet.toLowerCase());

/**
 * A Bitget account name as Meridian's wallet for `coin`. `usdt_futures` and
 * `coin_futures` are both the FUTURES wallet in that coin: USDT is the USDT-M wallet, a
 * coin-M margin coin its coin-M wallet. `coin_futures` carries the coins only; ccxt's
 * `swap` (`usdt_futures`) with a coin is taken as that coin's coin-M wallet, the one
 * futures wallet Meridian has for it (docs/bot-api.md). Any other account (USDC-M,
 * p2p) or coin is Bitget's parameter error.
 */
function walletOfType(type: string, coin: string): WalletValue {
  if (type === "usdt_futures" || type === "coin_futures") {
    const coinM = COIN_MARGIN_COINS.some((x) => x === coin);
    if (!coinM && (type === "coin_futures" || coin !== "USDT"))
      throw new BitgetError(
        BitgetCode.PARAM_INVALID,
        `${type} carries ${type === "coin_futures" ? "" : "USDT and "}the coin-M margin coins only: ${COIN_MARGIN_COINS.join(", ")}`,
      );
    return "FUTURES";
  }
  const wallet = WALLET_OF[type as keyof typeof WALLET_OF];
  if (wallet === undefined)
    throw new BitgetError(
      BitgetCode.PARAM_INVALID,
      "Transfers run between spot, usdt_futures, coin_futures, crossed_margin and isolated_margin",
    );
  return wallet;
}

export interface SpotDeps {
  paper: PaperApi;
  futures: FuturesApi | undefined;
  margin: MarginApi | undefined;
  priceDecimals(symbol: string): number;
  /** The pair's lot step ("0.00001"), undefined for an unknown pair. */
  lotSize(symbol: string): string | undefined;
  /** The pair's base and quote coins, undefined for an unknown pair. */
  assets(symbol: string): { base: string; quote: string } | undefined;
}

// Request schemas, built once (a schema built per request is compiled again by zod on
// its first parse: ~0.1 ms each).
const cancelReplaceOrderBody = z.object({
  symbol,
  orderId: bgInt.optional(),
  clientOid: clientOid.optional(),
  orderType: lower(["limit", "market"]).default("limit"),
  price: bgDecimal.optional(),
  size: bgDecimal,
  newClientOid: clientOid.optional(),
  presetTakeProfitPrice: bgDecimal.optional(),
  presetStopLossPrice: bgDecimal.optional(),
});
const modifyPlanOrderBody = z.object({
  orderId: bgInt.optional(),
  clientOid: clientOid.optional(),
  orderType: lower(["limit", "market"]),
  triggerPrice: bgDecimal,
  executePrice: bgDecimal.optional(),
  size: bgDecimal,
});
const cancelSymbolOrderBody = z.object({ symbol });
const batchCancelPlanOrderBody = z.object({ symbolList: z.array(symbol).max(50).default([]) });
const billsQuery = z.object({
  coin: z
    .string()
    .optional()
    .transform((s) => s?.toUpperCase()),
  businessType: z.string().optional(),
  startTime: bgInt.optional(),
  endTime: bgInt.optional(),
  limit: bgInt.optional().transform((n) => Math.min(500, Math.max(1, n ?? 100))),
});
const assetsQuery = z.object({
  coin: z
    .string()
    .optional()
    .transform((s) => s?.toUpperCase()),
});
const transferRecordsQuery = z.object({
  coin: z
    .string()
    .regex(/^[A-Za-z0-9]{1,12}$/)
    .transform((s) => s.toUpperCase()),
  fromType: lower(ACCOUNT_TYPES).optional(),
  startTime: bgInt.optional(),
  endTime: bgInt.optional(),
  clientOid: clientOid.optional(),
  idLessThan: bgInt.optional(),
  limit: bgInt.optional().transform((n) => Math.min(100, Math.max(1, n ?? 100))),
});

/** Spot trading, spot balances and the wallet transfer, through the same paper service as the web pages. */
export function registerSpot(r: V2Router, d: SpotDeps): void {
  const read = { perm: "read", limit: "query" } as const;
  const trade = { perm: "spot_trade", limit: "trade" } as const;
  const present = (o: PaperOrder, c: Caller) => presentSpotOrder(o, c.userId, d.priceDecimals(o.symbol));

  /**
   * A stop-market buy's size is quote to spend (Bitget's `planType: total`, as ccxt sends
   * it); the paper engine's stops hold a base quantity, so it is the quote at the trigger
   * price, rounded down to the lot step (exact decimals).
   */
  const quoteAtTrigger = (sym: string, quote: string, trigger: string): string => {
    const lot = d.lotSize(sym);
    if (lot === undefined)
      throw new BitgetError(BitgetCode.SYMBOL_UNKNOWN, `Parameter ${sym} does not exist`);
    if (!isPositive(trigger)) throw new BitgetError(BitgetCode.PARAM_INVALID, "Parameter triggerPrice error");
    return floorToStep(divDown(quote, trigger, decimalsOf(lot)), lot);
  };

  const placeBody = (
    b: z.output<typeof placeSchema>,
    stop?: { triggerPrice: string; executePrice?: string | undefined },
  ) => {
    const market = b.orderType === "market";
    const type =
      stop !== undefined
        ? market
          ? "STOP_MARKET"
          : "STOP_LIMIT"
        : market
          ? "MARKET"
          : b.force === "post_only"
            ? "LIMIT_MAKER"
            : "LIMIT";
    const price = stop?.executePrice ?? b.price;
    const byQuote = market && b.side === "buy";
    return placeOrderBodySchema.parse({
      symbol: b.symbol,
      side: b.side === "buy" ? "BUY" : "SELL",
      type,
      ...(market ? {} : { price }),
      ...(byQuote && stop !== undefined
        ? { quantity: quoteAtTrigger(b.symbol, b.size, stop.triggerPrice) }
        : byQuote
          ? { quoteQty: b.size }
          : { quantity: b.size }),
      ...(type === "LIMIT" ? { timeInForce: b.force.toUpperCase() } : {}),
      ...(stop === undefined ? {} : { stopPrice: stop.triggerPrice }),
      ...(b.clientOid === undefined ? {} : { clientOrderId: b.clientOid }),
      ...(b.presetTakeProfitPrice === undefined
        ? {}
        : { takeProfit: { triggerPrice: b.presetTakeProfitPrice } }),
      ...(b.presetStopLossPrice === undefined ? {} : { stopLoss: { triggerPrice: b.presetStopLossPrice } }),
    });
  };

  r.post("/v2/spot/trade/place-order", trade, async ({ body }, c) => {
    const b = placeSchema.parse(body);
    const placed = await d.paper.place(c.accountId, c.vipLevel, placeBody(b));
    return { orderId: String(placed.order.orderId), clientOid: placed.order.clientOrderId };
  });

  r.post("/v2/spot/trade/batch-orders", trade, async ({ body }, c) => {
    const q = batchSchema.parse(body);
    return batch(
      q.orderList,
      async (item) => {
        const placed = await d.paper.place(
          c.accountId,
          c.vipLevel,
          placeBody(placeSchema.parse({ symbol: q.symbol, ...item })),
        );
        return { orderId: String(placed.order.orderId), clientOid: placed.order.clientOrderId };
      },
      (item) => ({ orderId: "", clientOid: typeof item.clientOid === "string" ? item.clientOid : "" }),
    );
  });

  r.post("/v2/spot/trade/place-plan-order", trade, async ({ body }, c) => {
    const b = planSchema.parse(body);
    const placed = await d.paper.place(
      c.accountId,
      c.vipLevel,
      placeBody(b, { triggerPrice: b.triggerPrice, executePrice: b.executePrice }),
    );
    return { orderId: String(placed.order.orderId), clientOid: placed.order.clientOrderId };
  });

  const cancel = async (c: Caller, ref: z.output<typeof orderRef>) => {
    const order = await d.paper.cancel(
      c.accountId,
      ref.orderId !== undefined ? { id: ref.orderId } : { clientOrderId: ref.clientOid ?? "" },
    );
    return { orderId: String(order.orderId), clientOid: order.clientOrderId };
  };

  r.post("/v2/spot/trade/cancel-order", trade, ({ body }, c) => cancel(c, orderRef.parse(body)));

  // ccxt cancelOrders: each listed order in turn, Bitget's success and failure lists.
  r.post("/v2/spot/trade/batch-cancel-order", trade, async ({ body }, c) => {
    const b = batchSchema.parse(body);
    return batch(
      b.orderList,
      (item) => cancel(c, orderRef.parse(item)),
      (item) => ({
        orderId: typeof item.orderId === "string" ? item.orderId : String(item.orderId ?? ""),
        clientOid: typeof item.clientOid === "string" ? item.clientOid : "",
      }),
    );
  });

  // ccxt editOrder: Bitget's cancel-replace. The order is cancelled, then a new one is
  // placed on its side with the new price and size (a new orderId); when the new one is
  // refused the cancel stands, as on Bitget, and the refusal is the answer.
  r.post("/v2/spot/trade/cancel-replace-order", trade, async ({ body }, c) => {
    const b = cancelReplaceOrderBody.parse(body);
    const ref = orderRef.parse({ orderId: b.orderId, clientOid: b.clientOid });
    const old = await d.paper.cancel(
      c.accountId,
      ref.orderId !== undefined ? { id: ref.orderId } : { clientOrderId: ref.clientOid ?? "" },
    );
    const placed = await d.paper.place(
      c.accountId,
      c.vipLevel,
      placeBody(
        placeSchema.parse({
          symbol: b.symbol,
          side: old.side,
          orderType: b.orderType,
          force: old.type === "LIMIT_MAKER" ? "post_only" : (old.timeInForce ?? "gtc"),
          price: b.price,
          size: b.size,
          clientOid: b.newClientOid,
          presetTakeProfitPrice: b.presetTakeProfitPrice,
          presetStopLossPrice: b.presetStopLossPrice,
        }),
      ),
    );
    return {
      orderId: String(placed.order.orderId),
      clientOid: placed.order.clientOrderId,
      success: "success",
      msg: "",
    };
  });

  // ccxt editOrder with a triggerPrice: the plan order is cancelled and placed again with
  // the new trigger, price and size on its side (a new orderId).
  r.post("/v2/spot/trade/modify-plan-order", trade, async ({ body }, c) => {
    const b = modifyPlanOrderBody.parse(body);
    const ref = orderRef.parse({ orderId: b.orderId, clientOid: b.clientOid });
    const where = ref.orderId !== undefined ? { id: ref.orderId } : { clientOrderId: ref.clientOid ?? "" };
    const old = await d.paper.order(c.accountId, where);
    if (old === undefined || !isPlan(old) || old.triggered)
      throw new BitgetError(BitgetCode.ORDER_NOT_FOUND, "Plan order does not exist");
    await d.paper.cancel(c.accountId, { id: old.orderId });
    const placed = await d.paper.place(
      c.accountId,
      c.vipLevel,
      placeBody(
        placeSchema.parse({ symbol: old.symbol, side: old.side, orderType: b.orderType, size: b.size }),
        {
          triggerPrice: b.triggerPrice,
          executePrice: b.executePrice,
        },
      ),
    );
    return { orderId: String(placed.order.orderId), clientOid: placed.order.clientOrderId };
  });

  r.post("/v2/spot/trade/cancel-plan-order", trade, async ({ body }, c) => {
    await cancel(c, orderRef.parse(body));
    return { result: "success" };
  });

  const openOrders = async (c: Caller, sym: string | undefined) =>
    d.paper.openOrders({ accountId: c.accountId, symbol: sym, limit: 500 });

  const history = (c: Caller, q: { symbol?: string | undefined; idLessThan?: number | undefined }) =>
    d.paper.orderHistory({ accountId: c.accountId, symbol: q.symbol, limit: 500, before: q.idLessThan });

  r.post("/v2/spot/trade/cancel-symbol-order", trade, async ({ body }, c) => {
    const q = cancelSymbolOrderBody.parse(body);
    for (const o of await openOrders(c, q.symbol)) {
      if (isPlan(o) && !o.triggered) continue;
      await d.paper.cancel(c.accountId, { id: o.orderId }).catch(() => undefined);
    }
    return { symbol: q.symbol };
  });

  r.post("/v2/spot/trade/batch-cancel-plan-order", trade, async ({ body }, c) => {
    const q = batchCancelPlanOrderBody.parse(body);
    const successList: unknown[] = [];
    for (const o of await openOrders(c, undefined)) {
      if (!isPlan(o) || o.triggered || (q.symbolList.length > 0 && !q.symbolList.includes(o.symbol)))
        continue;
      await d.paper.cancel(c.accountId, { id: o.orderId }).catch(() => undefined);
      successList.push({ orderId: String(o.orderId), clientOid: o.clientOrderId });
    }
    return { successList, failureList: [] };
  });

  r.get("/v2/spot/trade/orderInfo", read, async ({ query }, c) => {
    const ref = orderRef.parse(query);
    const order = await d.paper.order(
      c.accountId,
      ref.orderId !== undefined ? { id: ref.orderId } : { clientOrderId: ref.clientOid ?? "" },
    );
    return order === undefined ? [] : [present(order, c)];
  });

  r.get("/v2/spot/trade/unfilled-orders", read, async ({ query }, c) => {
    const q = listQuery.parse(query);
    const rows = (await openOrders(c, q.symbol)).filter((o) => !isPlan(o) || o.triggered);
    return windowed(rows, (o) => o.createdAt, q).map((o) => present(o, c));
  });

  r.get("/v2/spot/trade/history-orders", read, async ({ query }, c) => {
    const q = listQuery.parse(query);
    const rows = await history(c, q);
    const done = rows.filter(
      (o) => o.status !== "NEW" && o.status !== "PARTIALLY_FILLED" && (!isPlan(o) || o.triggered),
    );
    return windowed(done, (o) => o.createdAt, q).map((o) => present(o, c));
  });

  r.get("/v2/spot/trade/current-plan-order", read, async ({ query }, c) => {
    const q = listQuery.parse(query);
    const rows = (await openOrders(c, q.symbol)).filter((o) => isPlan(o) && !o.triggered);
    return { nextFlag: false, idLessThan: "", orderList: rows.slice(0, q.limit).map(presentSpotPlan) };
  });

  r.get("/v2/spot/trade/history-plan-order", read, async ({ query }, c) => {
    const q = listQuery.parse(query);
    const rows = await history(c, q);
    const plans = rows.filter((o) => isPlan(o) && (o.triggered || o.status !== "NEW"));
    return { nextFlag: false, idLessThan: "", orderList: plans.slice(0, q.limit).map(presentSpotPlan) };
  });

  r.get("/v2/spot/trade/fills", read, async ({ query }, c) => {
    const q = listQuery.parse(query);
    const rows = await d.paper.trades({
      accountId: c.accountId,
      symbol: q.symbol,
      limit: 500,
      before: q.idLessThan,
    });
    const mine = rows.filter((t) => q.orderId === undefined || t.orderId === q.orderId);
    return windowed(mine, (t) => t.time, q).map((t) => presentSpotFill(t, c.userId));
  });

  // ccxt fetchLedger (spot): the account's fills as Bitget's bills, newest first: each
  // fill moves its base and its quote coin (the fee on the coin it was charged in). A bill
  // id is the fill's id and 0 (base) or 1 (quote). Transfers are not among them.
  r.get("/v2/spot/account/bills", read, async ({ query }, c) => {
    const q = billsQuery.parse(query);
    const trades = await d.paper.trades({
      accountId: c.accountId,
      symbol: undefined,
      limit: 500,
      before: undefined,
    });
    const bills = trades.flatMap((t) => {
      const pair = d.assets(t.symbol);
      if (pair === undefined) return [];
      const buy = t.side === "BUY";
      const bill = (suffix: string, coin: string, size: string) => ({
        billId: `${t.tradeId}${suffix}`,
        coin,
        groupType: "transaction",
        businessType: buy ? "buy" : "sell",
        size,
        balance: "",
        fees: coin === t.feeAsset ? neg(t.fee) : "0",
        cTime: String(t.time),
        time: t.time,
      });
      return [
        bill("0", pair.base, buy ? t.qty : negate(t.qty)),
        bill("1", pair.quote, buy ? negate(t.quoteQty) : t.quoteQty),
      ];
    });
    const mine = bills.filter(
      (b) =>
        (q.coin === undefined || b.coin === q.coin) &&
        (q.businessType === undefined || b.businessType === q.businessType.toLowerCase()),
    );
    return windowed(mine, (b) => b.time, q).map(({ time: _t, ...b }) => b);
  });

  r.get("/v2/spot/account/assets", read, async ({ query }, c) => {
    const q = assetsQuery.parse(query);
    const now = String(Date.now());
    return (await d.paper.balances(c.accountId))
      .filter((b) => q.coin === undefined || b.asset === q.coin)
      .map((b) => presentSpotBalance(b, now));
  });

  // ccxt fetchTransfers: the account's wallet transfers (every pair of wallets), newest
  // first, each with the id its transfer answered; `fromType` keeps those out of one wallet.
  r.get("/v2/spot/account/transferRecords", read, async ({ query }, c) => {
    const q = transferRecordsQuery.parse(query);
    // usdt_futures and coin_futures are both the FUTURES wallet, told apart by the coin.
    const from =
      q.fromType === "coin_futures"
        ? q.coin === "USDT"
          ? undefined
          : "FUTURES"
        : q.fromType === undefined
          ? undefined
          : WALLET_OF[q.fromType as keyof typeof WALLET_OF];
    // A wallet paper trading does not have (USDC-M, p2p) has moved nothing.
    if (d.futures === undefined || (q.fromType !== undefined && from === undefined)) return [];
    const rows = await d.futures.transfers({
      accountId: c.accountId,
      asset: q.coin,
      from,
      since: q.startTime,
      until: q.endTime,
      before: q.idLessThan,
      clientTransferId: q.clientOid,
      limit: q.limit,
    });
    return rows.map((t) => ({
      coin: t.asset,
      status: "Successful",
      toType: typeOf(t.to, t.asset),
      toSymbol: t.to === "ISOLATED_MARGIN" ? (t.symbol ?? "") : "",
      fromType: typeOf(t.from, t.asset),
      fromSymbol: t.from === "ISOLATED_MARGIN" ? (t.symbol ?? "") : "",
      size: fromMinor(t.asset, t.amount),
      ts: String(t.createdAt),
      clientOid: t.clientTransferId ?? "",
      transferId: String(t.id),
    }));
  });

  r.post("/v2/spot/wallet/transfer", { perm: "transfer", limit: "trade" }, async ({ body }, c) => {
    const q = transferSchema.parse(body);
    const from = walletOfType(q.fromType, q.coin);
    const to = walletOfType(q.toType, q.coin);
    // Bitget's clientOid makes the transfer idempotent: sent again, nothing moves twice.
    const once = q.clientOid === undefined ? {} : { clientTransferId: q.clientOid };
    // The margin module's transfer covers every wallet pair; without it, spot and futures only.
    if (d.margin !== undefined) {
      const done = await d.margin.transfer(c.accountId, {
        from,
        to,
        asset: q.coin,
        amount: q.amount,
        ...(q.symbol === undefined ? {} : { symbol: q.symbol }),
        ...once,
      });
      return { transferId: String(done.tranId), clientOid: q.clientOid ?? "" };
    }
    const pair = `${from}>${to}`;
    const asset = FUTURES_MARGIN_COINS.find((x) => x === q.coin);
    if (
      d.futures === undefined ||
      asset === undefined ||
      (pair !== "SPOT>FUTURES" && pair !== "FUTURES>SPOT")
    )
      throw new BitgetError(
        BitgetCode.PARAM_INVALID,
        "Only transfers between spot and usdt_futures or coin_futures are supported",
      );
    const done = await d.futures.transfer(c.accountId, {
      direction: from === "SPOT" ? "IN" : "OUT",
      asset,
      amount: q.amount,
      ...once,
    });
    return { transferId: String(done.tranId), clientOid: q.clientOid ?? "" };
  });
}
