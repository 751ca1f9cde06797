import {
  type MarginOrder,
  type MarginRecord,
  type MarginRecordType,
  marginOrderBodySchema,
} from "@meridian/contracts";
import { add, divHalfUp, mul, toFixedHalfUp } from "@meridian/domain";
import { z } from "zod";
import type { MarginApi } from "../margin/index.ts";
import { BitgetCode, BitgetError, bgDecimal, bgInt } from "./bitget.ts";
import { batch, clientOid, listFields, lower, symbol, windowed } from "./common.ts";
import { presentSpotFill, presentSpotOrder } from "./spot.ts";
import type { Caller, V2Router } from "./v2-scope.ts";

/** Bitget's `loanType` as Meridian's side effect (`autoLoanAndRepay` has no counterpart). */
const LOAN_TYPES = {
  normal: "NO_SIDE_EFFECT",
  autoLoan: "MARGIN_BUY",
  autoRepay: "AUTO_REPAY",
} as const;
const SIDE_EFFECT_LOAN = {
  NO_SIDE_EFFECT: "normal",
  MARGIN_BUY: "autoLoan",
  AUTO_REPAY: "autoRepay",
} as const;

const coin = z
  .string()
  .regex(/^[A-Za-z0-9]{2,10}$/, "coin")
  .transform((s) => s.toUpperCase());

const placeSchema = z.object({
  symbol,
  side: lower(["buy", "sell"]),
  orderType: lower(["limit", "market"]),
  force: lower(["gtc", "ioc", "fok", "post_only"]).default("gtc"),
  loanType: z.enum(["normal", "autoLoan", "autoRepay", "autoLoanAndRepay"]).default("normal"),
  price: bgDecimal.optional(),
  baseSize: bgDecimal.optional(),
  quoteSize: bgDecimal.optional(),
  clientOid: clientOid.optional(),
});

const orderRef = z
  .object({ symbol: symbol.optional(), orderId: bgInt.optional(), clientOid: clientOid.optional() })
  .refine((r) => r.orderId !== undefined || r.clientOid !== undefined, {
    path: ["orderId"],
    message: "orderId or clientOid required",
  });

const listSchema = z.object({ ...listFields, coin: coin.optional() });

/** A margin order as Bitget's margin endpoints list it (ccxt: `baseSize` ordered, `size` filled). */
export function presentMarginOrder(
  o: MarginOrder,
  userId: string,
  priceDecimals: number,
): Record<string, unknown> {
  const marketBuy = o.type === "MARKET" && o.side === "BUY" && o.quoteQty !== null;
  return {
    ...presentSpotOrder(o, userId, priceDecimals),
    baseSize: marketBuy ? "0" : o.origQty,
    quoteSize: marketBuy ? o.quoteQty : "0",
    size: o.executedQty,
    amount: o.cummulativeQuoteQty,
    loanType: SIDE_EFFECT_LOAN[o.sideEffectType],
  };
}

const idRange = (rows: readonly { id: number }[]) => ({
  maxId: rows.length === 0 ? "" : String(Math.max(...rows.map((r) => r.id))),
  minId: rows.length === 0 ? "" : String(Math.min(...rows.map((r) => r.id))),
});

// Request schemas, built once (a schema built per request is compiled again by zod on
// its first parse: ~0.1 ms each).
const assetsQuery = z.object({ symbol: symbol.optional(), coin: coin.optional() });
const riskRateQuery = z.object({ symbol: symbol.optional() });
const borrowBody = z.object({
  symbol: symbol.optional(),
  coin,
  borrowAmount: bgDecimal,
  clientOid: clientOid.optional(),
});
const repayBody = z.object({ symbol: symbol.optional(), coin, repayAmount: bgDecimal });
const maxBorrowableQuery = z.object({ symbol: symbol.optional(), coin: coin.optional() });
const maxTransferOutQuery = z.object({ symbol: symbol.optional(), coin });
const interestRateQuery = z.object({ symbol: symbol.optional(), coin: coin.optional() });
const batchPlaceBody = z.object({
  symbol,
  orderList: z.array(z.record(z.string(), z.unknown())).min(1).max(50),
});
const batchCancelBody = z.object({
  symbol: symbol.optional(),
  orderIdList: z
    .array(z.object({ orderId: bgInt.optional(), clientOid: clientOid.optional() }))
    .max(50)
    .optional(),
});

/**
 * Cross (`/v2/margin/crossed/*`) and isolated (`/v2/margin/isolated/*`) margin through
 * the margin module's service: the same accounts, loans, orders and records as
 * `/v1/paper/margin/*` and the web pages.
 */
export function registerMargin(r: V2Router, margin: MarginApi, priceDecimals: (s: string) => number) {
  const read = { perm: "read", limit: "query" } as const;
  const trade = { perm: "spot_trade", limit: "trade" } as const;

  for (const [path, mode] of [
    ["crossed", "cross"],
    ["isolated", "isolated"],
  ] as const) {
    const base = `/v2/margin/${path}`;
    const isolated = mode === "isolated";
    /** The isolated pair is required (Bitget answers 40019 without it), cross has none. */
    const pairOf = (s: string | undefined) => {
      if (!isolated) return undefined;
      if (s === undefined) throw new BitgetError(BitgetCode.PARAM_EMPTY, "Parameter symbol cannot be empty");
      return s;
    };
    const scopeOf = (c: Caller, s: string | undefined) => margin.scope(c.accountId, mode, pairOf(s));
    const order = (o: MarginOrder, c: Caller) => presentMarginOrder(o, c.userId, priceDecimals(o.symbol));

    /** The account views: the writer's (on another instance, asked over the bus). */
    const viewsOf = async (c: Caller, sym: string | undefined) =>
      isolated && sym === undefined
        ? await margin.isolatedAccounts(c.accountId)
        : [await margin.view(scopeOf(c, sym))];

    const assetsOf = async (c: Caller, sym: string | undefined) => {
      const views = await viewsOf(c, sym);
      const now = String(Date.now());
      const rows = views.flatMap((v) =>
        v.assets.map(async (a) => {
          const scope = margin.scope(c.accountId, mode, v.symbol ?? undefined);
          return {
            ...(v.symbol === null ? {} : { symbol: v.symbol }),
            coin: a.asset,
            totalAmount: add(a.free, a.locked),
            available: a.free,
            frozen: a.locked,
            borrow: a.borrowed,
            interest: a.interest,
            net: a.netAsset,
            transferable: (await margin.maxTransferable(scope, a.asset)).amount,
            coupon: "0",
            cTime: now,
            uTime: now,
          };
        }),
      );
      return Promise.all(rows);
    };

    r.get(`${base}/account/assets`, read, async ({ query }, c) => {
      const q = assetsQuery.parse(query);
      return (await assetsOf(c, q.symbol)).filter((a) => q.coin === undefined || a.coin === q.coin);
    });

    r.get(`${base}/account/risk-rate`, read, async ({ query }, c) => {
      const q = riskRateQuery.parse(query);
      const views = await viewsOf(c, q.symbol);
      // Bitget's risk rate is debt over assets: the inverse of Meridian's margin level.
      return views.map((v) => ({
        ...(v.symbol === null ? {} : { symbol: v.symbol }),
        riskRateRatio: v.marginLevel === null ? "0" : toFixedHalfUp(divHalfUp("1", v.marginLevel, 4), 4),
      }));
    });

    /** Borrows or repays, then answers with the record it wrote (the newest of its type). */
    const loanMove = async (
      c: Caller,
      type: "BORROW" | "REPAY",
      b: { symbol?: string | undefined; coin: string; amount: string },
    ) => {
      const body = {
        mode,
        asset: b.coin,
        amount: b.amount,
        ...(isolated ? { symbol: pairOf(b.symbol) } : {}),
      };
      const view = await (type === "BORROW"
        ? margin.borrow(c.accountId, body)
        : margin.repay(c.accountId, body));
      const [rec] = await margin.records({ accountId: c.accountId, mode, type, asset: b.coin, limit: 1 });
      const left = view.assets.find((a) => a.asset === b.coin);
      return {
        id: String(rec?.id ?? ""),
        amount: rec?.amount ?? b.amount,
        owed: left === undefined ? "0" : add(left.borrowed, left.interest),
        ...(isolated ? { symbol: view.symbol } : {}),
        coin: b.coin,
      };
    };

    r.post(`${base}/account/borrow`, trade, async ({ body }, c) => {
      const b = borrowBody.parse(body);
      const {
        id,
        amount,
        owed: _owed,
        ...rest
      } = await loanMove(c, "BORROW", { ...b, amount: b.borrowAmount });
      return { loanId: id, borrowAmount: amount, ...rest, clientOid: b.clientOid ?? null };
    });

    r.post(`${base}/account/repay`, trade, async ({ body }, c) => {
      const b = repayBody.parse(body);
      const { id, amount, owed, ...rest } = await loanMove(c, "REPAY", { ...b, amount: b.repayAmount });
      return { repayId: id, repayAmount: amount, remainDebtAmount: owed, ...rest };
    });

    r.get(`${base}/account/max-borrowable-amount`, read, async ({ query }, c) => {
      const q = maxBorrowableQuery.parse(query);
      if (!isolated) {
        const asset = q.coin ?? "USDT";
        return {
          coin: asset,
          maxBorrowableAmount: (await margin.maxBorrowable(scopeOf(c, undefined), asset)).amount,
        };
      }
      const scope = scopeOf(c, q.symbol);
      const [b, qu] = (await margin.view(scope)).assets.map((a) => a.asset);
      const pair = margin.pairs().pairs.find((p) => p.symbol === scope.symbol);
      const baseCoin = pair?.base ?? b ?? "";
      const quoteCoin = pair?.quote ?? qu ?? "USDT";
      const [baseMax, quoteMax] = await Promise.all([
        margin.maxBorrowable(scope, baseCoin),
        margin.maxBorrowable(scope, quoteCoin),
      ]);
      return {
        symbol: scope.symbol,
        baseCoin,
        baseCoinMaxBorrowAmount: baseMax.amount,
        quoteCoin,
        quoteCoinMaxBorrowAmount: quoteMax.amount,
      };
    });

    r.get(`${base}/account/max-transfer-out-amount`, read, async ({ query }, c) => {
      const q = maxTransferOutQuery.parse(query);
      const scope = scopeOf(c, q.symbol);
      return {
        ...(isolated ? { symbol: scope.symbol } : {}),
        coin: q.coin,
        maxTransferOutAmount: (await margin.maxTransferable(scope, q.coin)).amount,
      };
    });

    r.get(`${base}/interest-rate-and-limit`, read, async ({ query }, c) => {
      const q = interestRateQuery.parse(query);
      const info = margin.pairs();
      const rate = (asset: string) => info.rates.find((x) => x.asset === asset)?.dailyRate ?? "0";
      const annual = (asset: string) => toFixedHalfUp(mul(rate(asset), "365"), 8);
      if (!isolated) {
        const assets = q.coin === undefined ? info.rates.map((x) => x.asset) : [q.coin];
        const scope = scopeOf(c, undefined);
        const max = await Promise.all(assets.map((asset) => margin.maxBorrowable(scope, asset)));
        return assets.map((asset, i) => ({
          coin: asset,
          leverage: String(info.pairs[0]?.crossLeverage ?? 3),
          transferable: true,
          borrowable: true,
          dailyInterestRate: rate(asset),
          annualInterestRate: annual(asset),
          maxBorrowableAmount: max[i]?.amount ?? "0",
          vipList: [],
        }));
      }
      const scope = scopeOf(c, q.symbol);
      const pair = info.pairs.find((p) => p.symbol === scope.symbol);
      if (pair === undefined) return [];
      const [baseMax, quoteMax] = await Promise.all([
        margin.maxBorrowable(scope, pair.base),
        margin.maxBorrowable(scope, pair.quote),
      ]);
      return [
        {
          symbol: pair.symbol,
          leverage: String(pair.isolatedLeverage),
          baseCoin: pair.base,
          baseTransferable: true,
          baseBorrowable: true,
          baseDailyInterestRate: rate(pair.base),
          baseAnnuallyInterestRate: annual(pair.base),
          baseMaxBorrowableAmount: baseMax.amount,
          baseVipList: [],
          quoteCoin: pair.quote,
          quoteTransferable: true,
          quoteBorrowable: true,
          quoteDailyInterestRate: rate(pair.quote),
          quoteAnnuallyInterestRate: annual(pair.quote),
          quoteMaxBorrowableAmount: quoteMax.amount,
          quoteList: [],
        },
      ];
    });

    /** Borrow, repay, interest and liquidation records, Bitget-shaped. */
    const recordList = (
      type: MarginRecordType,
      shape: (rec: MarginRecord) => Record<string, unknown>,
    ): ((input: { query: Record<string, string> }, c: Caller) => Promise<unknown>) => {
      return async ({ query }, c) => {
        const q = listSchema.parse(query);
        const rows = await margin.records({
          accountId: c.accountId,
          mode,
          type,
          symbol: isolated ? q.symbol : undefined,
          asset: q.coin,
          limit: 500,
          before: q.idLessThan,
        });
        const list = windowed(rows, (x) => x.time, q);
        const times = (x: MarginRecord) => ({ cTime: String(x.time), uTime: String(x.time) });
        const sym = (x: MarginRecord) => (x.symbol === null ? {} : { symbol: x.symbol });
        return { resultList: list.map((x) => ({ ...shape(x), ...sym(x), ...times(x) })), ...idRange(list) };
      };
    };
    const daily = (asset: string) => margin.pairs().rates.find((x) => x.asset === asset)?.dailyRate ?? "0";

    const histories: [string, MarginRecordType, (x: MarginRecord) => Record<string, unknown>][] = [
      [
        "borrow-history",
        "BORROW",
        (x) => ({ loanId: String(x.id), coin: x.asset, borrowAmount: x.amount, borrowType: "manual" }),
      ],
      [
        "repay-history",
        "REPAY",
        (x) => ({
          repayId: String(x.id),
          coin: x.asset,
          repayAmount: x.amount,
          repayType: "manual",
          repayInterest: x.interest ?? "0",
          repayPrincipal: x.principal ?? "0",
        }),
      ],
      [
        "interest-history",
        "INTEREST",
        (x) => ({
          interestId: String(x.id),
          interestCoin: x.asset,
          loanCoin: x.asset,
          dailyInterestRate: daily(x.asset),
          interestAmount: x.interest ?? x.amount,
          interstType: "scheduled",
        }),
      ],
      [
        "liquidation-history",
        "LIQUIDATION",
        (x) => ({
          liqId: String(x.id),
          liqStartTime: String(x.time),
          liqEndTime: String(x.time),
          totalAssets: x.amount,
        }),
      ],
    ];
    for (const [path, type, shape] of histories) r.get(`${base}/${path}`, read, recordList(type, shape));

    const place = async (c: Caller, b: z.output<typeof placeSchema>) => {
      if (b.loanType === "autoLoanAndRepay")
        throw new BitgetError(BitgetCode.PARAM_INVALID, "loanType autoLoanAndRepay is not supported");
      const market = b.orderType === "market";
      const quote = market && b.side === "buy";
      const size = quote ? b.quoteSize : b.baseSize;
      if (size === undefined)
        throw new BitgetError(
          BitgetCode.PARAM_EMPTY,
          `Parameter ${quote ? "quoteSize" : "baseSize"} cannot be empty`,
        );
      const placed = await margin.place(
        c.accountId,
        c.vipLevel,
        marginOrderBodySchema.parse({
          mode,
          symbol: b.symbol,
          side: b.side === "buy" ? "BUY" : "SELL",
          type: market ? "MARKET" : b.force === "post_only" ? "LIMIT_MAKER" : "LIMIT",
          ...(market ? {} : { price: b.price }),
          ...(quote ? { quoteQty: size } : { quantity: size }),
          ...(!market && b.force !== "post_only" ? { timeInForce: b.force.toUpperCase() } : {}),
          ...(b.clientOid === undefined ? {} : { clientOrderId: b.clientOid }),
          sideEffectType: LOAN_TYPES[b.loanType],
        }),
      );
      return { orderId: String(placed.order.orderId), clientOid: placed.order.clientOrderId };
    };

    r.post(`${base}/place-order`, trade, ({ body }, c) => place(c, placeSchema.parse(body)));

    r.post(`${base}/batch-place-order`, trade, async ({ body }, c) => {
      const q = batchPlaceBody.parse(body);
      return batch(
        q.orderList,
        (item) => place(c, placeSchema.parse({ symbol: q.symbol, ...item })),
        (item) => ({ orderId: "", clientOid: typeof item.clientOid === "string" ? item.clientOid : "" }),
      );
    });

    const open = (c: Caller, sym: string | undefined) =>
      margin.openOrders({ accountId: c.accountId, mode, symbol: sym, limit: 500 });
    /** The order's id; a clientOid is looked up among the open orders. */
    const idOf = async (c: Caller, ref: z.output<typeof orderRef>) => {
      if (ref.orderId !== undefined) return ref.orderId;
      const hit = (await open(c, ref.symbol)).find((o) => o.clientOrderId === ref.clientOid);
      if (hit === undefined) throw new BitgetError(BitgetCode.ORDER_NOT_FOUND, "Order does not exist");
      return hit.orderId;
    };
    const cancel = async (c: Caller, ref: z.output<typeof orderRef>) => {
      const o = await margin.cancel(c.accountId, await idOf(c, ref));
      return { orderId: String(o.orderId), clientOid: o.clientOrderId };
    };

    r.post(`${base}/cancel-order`, trade, ({ body }, c) => cancel(c, orderRef.parse(body)));

    r.post(`${base}/batch-cancel-order`, trade, async ({ body }, c) => {
      const q = batchCancelBody.parse(body);
      const refs =
        q.orderIdList ??
        (await open(c, q.symbol)).map((o) => ({ orderId: o.orderId, clientOid: o.clientOrderId }));
      return batch(
        refs,
        (ref) => cancel(c, orderRef.parse({ symbol: q.symbol, ...ref })),
        (ref) => ({ orderId: String(ref.orderId ?? ""), clientOid: ref.clientOid ?? "" }),
      );
    });

    const orderList = (rows: MarginOrder[], c: Caller, q: z.output<typeof listSchema>) => {
      const list = windowed(
        rows.filter((o) => q.orderId === undefined || o.orderId === q.orderId),
        (o) => o.createdAt,
        q,
      );
      return { orderList: list.map((o) => order(o, c)), ...idRange(list.map((o) => ({ id: o.orderId }))) };
    };

    const page = (c: Caller, q: z.output<typeof listSchema>) => ({
      accountId: c.accountId,
      mode,
      symbol: q.symbol,
      limit: 500,
      before: q.idLessThan,
    });

    r.get(`${base}/open-orders`, read, async ({ query }, c) => {
      const q = listSchema.parse(query);
      return orderList(await open(c, q.symbol), c, q);
    });

    r.get(`${base}/history-orders`, read, async ({ query }, c) => {
      const q = listSchema.parse(query);
      const rows = await margin.orderHistory(page(c, q));
      return orderList(
        rows.filter((o) => o.status !== "NEW" && o.status !== "PARTIALLY_FILLED"),
        c,
        q,
      );
    });

    r.get(`${base}/fills`, read, async ({ query }, c) => {
      const q = listSchema.parse(query);
      const rows = await margin.trades(page(c, q));
      const list = windowed(
        rows.filter((t) => q.orderId === undefined || t.orderId === q.orderId),
        (t) => t.time,
        q,
      );
      return {
        fills: list.map((t) => presentSpotFill(t, c.userId)),
        ...idRange(list.map((t) => ({ id: t.tradeId }))),
      };
    });
  }
}
