import type {
  FuturesOrder,
  FuturesSettings,
  FuturesTrade,
  MarginAccountModeValue,
  MarginAccountView,
  MarginStreamPush,
  PaperOrder,
  PaperTrade,
} from "@meridian/contracts";
import { mul, toFixedHalfUp } from "@meridian/domain";
import { neg } from "./common.ts";
import { presentMarginOrder } from "./margin.ts";
import {
  isNormal,
  isTrigger,
  pct,
  planTypeOf,
  positionTimes,
  presentMixOrder,
  presentMixPlan,
} from "./mix.ts";
import { COIN_FUTURES, familyOf, USDT_FUTURES } from "./public.ts";
import { isPlan, presentSpotBalance, presentSpotFill, presentSpotOrder, presentSpotPlan } from "./spot.ts";
import type { WsDeps } from "./ws.ts";
import { type Arg, type Conn, send } from "./ws-conn.ts";

export const PRIVATE_CHANNELS = new Set(["orders", "orders-algo", "fill", "account", "positions"]);
/** The futures product types pushed, with the margin family each trades. */
const MIX_TYPES = [USDT_FUTURES, COIN_FUTURES] as const;
/** Margin's channels (instType MARGIN): orders and account per mode. */
export const MARGIN_CHANNELS: Readonly<Record<string, MarginAccountModeValue>> = {
  "orders-crossed": "cross",
  "orders-isolated": "isolated",
  "account-crossed": "cross",
  "account-isolated": "isolated",
};
/** Whether a private subscription names a channel this server pushes. */
export function privateChannelKnown(a: Arg, hasMargin: boolean): boolean {
  return a.instType === "MARGIN"
    ? MARGIN_CHANNELS[a.channel] !== undefined && hasMargin
    : PRIVATE_CHANNELS.has(a.channel);
}

/**
 * The private channels' pushes (`orders`, `orders-algo`, `fill`, `account`, `positions`,
 * and MARGIN's orders and accounts), fed by the paper, margin and futures services'
 * commits to the logged-in connections of `conns`. On an instance that is not the writer
 * the commits arrive as the writer's stream pushes (`d.writerStreams`), and the views
 * read here (futures account, positions, settings; margin views) come over the command
 * bus, so every one is awaited (docs/architecture.md).
 */
export function privateFeeds(conns: ReadonlySet<Conn>, d: WsDeps) {
  const pushAccount = async (c: Conn, a: Arg) => {
    if (c.accountId === undefined) return;
    if (a.instType === "SPOT") {
      const rows = await d.paper.balances(c.accountId);
      const uTime = String(d.now());
      const data = rows
        .filter((b) => a.coin === undefined || a.coin === "default" || b.asset === a.coin)
        .map((b) => presentSpotBalance(b, uTime));
      send(c, { action: "snapshot", arg: a, data, ts: d.now() });
    } else if (a.instType === COIN_FUTURES && d.futures !== undefined) {
      // Every coin-M wallet (one per margin coin, as REST `accounts` lists them), in its coin;
      // `usdtEquity` at the coin's contract mark.
      const [wallets, marks] = await Promise.all([
        d.futures.wallets(c.accountId, "coin"),
        d.futures.marksList("coin"),
      ]);
      const data = wallets
        .filter((w) => a.coin === undefined || a.coin === "default" || w.marginCoin === a.coin)
        .map((w) => {
          const mark = marks.find((m) => m.marginCoin === w.marginCoin)?.markPrice ?? "0";
          return {
            marginCoin: w.marginCoin,
            frozen: "0",
            available: w.wallet,
            maxOpenPosAvailable: w.available,
            maxTransferOut: w.maxTransferOut,
            equity: w.marginBalance,
            usdtEquity: toFixedHalfUp(mul(w.marginBalance, mark), 8),
          };
        });
      send(c, { action: "snapshot", arg: a, data, ts: d.now() });
    } else if (d.futures !== undefined) {
      const f = await d.futures.account(c.accountId);
      send(c, {
        action: "snapshot",
        arg: a,
        data: [
          {
            marginCoin: "USDT",
            frozen: "0",
            available: f.wallet,
            maxOpenPosAvailable: f.available,
            maxTransferOut: f.maxTransferOut,
            equity: f.marginBalance,
            usdtEquity: f.marginBalance,
          },
        ],
        ts: d.now(),
      });
    }
  };

  /** `account-crossed` / `account-isolated`: every asset of the account(s), or of one view. */
  const pushMarginAccount = async (c: Conn, a: Arg, only?: MarginAccountView) => {
    const margin = d.margin;
    const mode = MARGIN_CHANNELS[a.channel];
    if (c.accountId === undefined || margin === undefined || mode === undefined) return;
    const views =
      only !== undefined
        ? [only]
        : mode === "cross"
          ? [await margin.view(margin.scope(c.accountId, "cross"))]
          : await margin.isolatedAccounts(c.accountId);
    const uTime = String(d.now());
    const data = views
      .filter((v) => v.mode === mode && (a.instId === "default" || a.instId === "" || v.symbol === a.instId))
      .flatMap((v) =>
        v.assets.map((x) => ({
          uTime,
          id: String(c.accountId),
          ...(v.symbol === null ? {} : { symbol: v.symbol }),
          coin: x.asset,
          available: x.free,
          frozen: x.locked,
          borrow: x.borrowed,
          interest: x.interest,
          coupon: "0",
        })),
      );
    if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
  };

  const pushPositions = async (c: Conn, a: Arg) => {
    if (c.accountId === undefined || d.futures === undefined) return;
    const accountId = c.accountId;
    const futures = d.futures;
    const family = familyOf(a.instType) ?? "usdt";
    // The fills give each position its open and update times, as REST all-position has them.
    const [account, positions, trades] = await Promise.all([
      futures.account(accountId),
      futures.positions(accountId, family),
      futures.trades({ accountId, family, limit: 500 }),
    ]);
    const dual = account.dualSidePosition;
    const data = positions
      .filter((p) => !/^-?0(\.0*)?$/.test(p.quantity))
      .map((p) => {
        const qty = p.quantity.replace(/^-/, "");
        return {
          posId: `${p.symbol}-${p.positionSide}`,
          instId: p.symbol,
          marginCoin: p.marginCoin,
          marginSize: p.margin,
          marginMode: p.marginMode === "cross" ? "crossed" : "isolated",
          holdSide:
            p.positionSide === "BOTH"
              ? p.quantity.startsWith("-")
                ? "short"
                : "long"
              : p.positionSide.toLowerCase(),
          posMode: dual ? "hedge_mode" : "one_way_mode",
          total: qty,
          available: qty,
          frozen: "0",
          openPriceAvg: p.entryPrice,
          leverage: String(p.leverage),
          achievedProfits: p.realisedPnl,
          unrealizedPL: p.unrealisedPnl,
          unrealizedPLR: pct(p.roe),
          liquidationPrice: p.liquidationPrice ?? "0",
          keepMarginRate: "0.004",
          marginRate: pct(p.marginRatio),
          ...positionTimes(p, trades),
          autoMargin: "off",
        };
      });
    send(c, { action: "snapshot", arg: a, data, ts: d.now() });
  };

  const wsSpotOrder = (o: PaperOrder, c: Conn) => {
    const base = presentSpotOrder(o, c.key?.owner.id ?? "", d.paper.venue.spec(o.symbol)?.priceDecimals ?? 8);
    return {
      ...base,
      instId: o.symbol,
      notional: o.quoteQty ?? o.cummulativeQuoteQty,
      newSize: o.origQty,
      accBaseVolume: o.executedQty,
      feeDetail: [{ feeCoin: o.feeAsset, fee: neg(o.fee) }],
    };
  };

  const privateSubs = (c: Conn, instType: string, channel: string) =>
    [...c.subs.values()].filter((a) => a.instType === instType && a.channel === channel);

  const onSpot = (e: { accountId: number; orders: PaperOrder[]; fills: PaperTrade[]; balances: unknown }) => {
    for (const c of conns) {
      if (c.accountId !== e.accountId) continue;
      const mine = (a: Arg) => e.orders.filter((o) => a.instId === "default" || o.symbol === a.instId);
      // Untriggered plans go to `orders-algo` only; once triggered they trade as orders too.
      for (const a of privateSubs(c, "SPOT", "orders")) {
        const data = mine(a)
          .filter((o) => !isPlan(o) || o.triggered)
          .map((o) => wsSpotOrder(o, c));
        if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
      }
      for (const a of privateSubs(c, "SPOT", "orders-algo")) {
        const data = mine(a)
          .filter(isPlan)
          .map((o) => ({ ...presentSpotPlan(o), instId: o.symbol }));
        if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
      }
      for (const a of privateSubs(c, "SPOT", "fill")) {
        const data = e.fills
          .filter((f) => a.instId === "default" || f.symbol === a.instId)
          .map((f) => presentSpotFill(f, c.key?.owner.id ?? ""));
        if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
      }
      if (e.balances !== null) for (const a of privateSubs(c, "SPOT", "account")) void pushAccount(c, a);
    }
  };
  const offPaper = d.paper.onEvents(onSpot);

  // Margin's pushes (the same the web's `/v1/ws/user` gets): orders and account views.
  const onMargin = (accountId: number, messages: readonly object[]) => {
    if (d.margin === undefined) return;
    for (const c of conns) {
      if (c.accountId !== accountId) continue;
      for (const m of messages as readonly MarginStreamPush[]) {
        if (m.event === "margin") {
          const channel = m.data.mode === "cross" ? "account-crossed" : "account-isolated";
          for (const a of privateSubs(c, "MARGIN", channel)) void pushMarginAccount(c, a, m.data);
        } else if (m.event === "marginOrder") {
          const o = m.data;
          const channel = o.mode === "cross" ? "orders-crossed" : "orders-isolated";
          for (const a of privateSubs(c, "MARGIN", channel)) {
            if (a.instId !== "default" && a.instId !== o.symbol) continue;
            const data = {
              ...presentMarginOrder(
                o,
                c.key?.owner.id ?? "",
                d.paper.venue.spec(o.symbol)?.priceDecimals ?? 8,
              ),
              instId: o.symbol,
              baseVolume: o.executedQty,
              fillTotalAmount: o.cummulativeQuoteQty,
              feeDetail: [{ feeCoin: o.feeAsset, fee: neg(o.fee) }],
            };
            send(c, { action: "snapshot", arg: a, data: [data], ts: d.now() });
          }
        }
      }
    }
  };
  const offMargin = d.ledger.onPush(onMargin);

  const onFutures = (
    e: {
      accountId: number;
      orders: FuturesOrder[];
      fills: FuturesTrade[];
      account: { dualSidePosition: boolean };
    },
    settings: (symbol: string) => FuturesSettings,
  ) => {
    for (const c of conns) {
      if (c.accountId !== e.accountId) continue;
      const dual = e.account.dualSidePosition;
      const ctx = { dual, settings };
      // Each product type pushes its own family's orders and fills (BTCUSD on COIN-FUTURES).
      for (const instType of MIX_TYPES) {
        const family = familyOf(instType);
        const orders = e.orders.filter((o) => o.family === family);
        for (const a of privateSubs(c, instType, "orders-algo")) {
          const data = orders
            .filter(isTrigger)
            .map((o) => ({ ...presentMixPlan(o, ctx, planTypeOf(o)), instId: o.symbol }));
          if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
        }
        for (const a of privateSubs(c, instType, "orders")) {
          const data = orders.filter(isNormal).map((o) => ({
            ...presentMixOrder(o, ctx),
            instId: o.symbol,
            accBaseVolume: o.executedQty,
            fillPrice: o.avgPrice,
          }));
          if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
        }
        for (const a of privateSubs(c, instType, "fill")) {
          const data = e.fills
            .filter((t) => t.family === family)
            .map((t) => ({
              orderId: String(t.orderId),
              tradeId: String(t.id),
              symbol: t.symbol,
              side: t.side.toLowerCase(),
              orderType: "market",
              posMode: dual ? "hedge_mode" : "one_way_mode",
              price: t.price,
              baseVolume: t.quantity,
              quoteVolume: mul(t.price, t.quantity),
              profit: t.realisedPnl,
              tradeSide: t.side === "BUY" ? "buy_single" : "sell_single",
              tradeScope: t.maker ? "maker" : "taker",
              feeDetail: [
                { feeCoin: t.marginCoin, deduction: "no", totalDeductionFee: "0", totalFee: neg(t.fee) },
              ],
              cTime: String(t.time),
              uTime: String(t.time),
            }));
          if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
        }
        for (const a of privateSubs(c, instType, "positions")) void pushPositions(c, a);
        for (const a of privateSubs(c, instType, "account")) void pushAccount(c, a);
      }
    }
  };
  const futures = d.futures;
  /** A futures commit's pushes, with the account's settings (every perpetual's) taken once. */
  const futuresCommit = (e: Parameters<typeof onFutures>[0]) => {
    if (futures === undefined) return;
    // On the writer the settings are at hand (no bus), so the commits keep their order.
    futures.settingsAll(e.accountId).then(
      (all) => {
        const bySymbol = new Map(all.map((x) => [x.symbol, x]));
        // settingsAll covers every perpetual, so every order's symbol.
        onFutures(e, (symbol) => bySymbol.get(symbol) as FuturesSettings);
      },
      () => {},
    );
  };
  const offFutures = futures?.onEvents(futuresCommit);

  // On a follower the engines' commits arrive as the writer's stream pushes (the JSON
  // texts of `/v1/ws/user` and the futures stream), rebuilt here into the same events.
  // The user stream carries margin's pushes too (`PaperService.push`).
  const watched = (accountId: number) => [...conns].some((c) => c.accountId === accountId);
  const parse = (texts: readonly string[]) =>
    texts.map((t) => JSON.parse(t) as { event: string; data: unknown });
  const offRemoteSpot = d.writerStreams?.onStream("user", (accountId, texts) => {
    if (!watched(accountId)) return;
    const pushes = parse(texts);
    const of = <T>(event: string) => pushes.filter((p) => p.event === event).map((p) => p.data as T);
    onSpot({
      accountId,
      orders: of<PaperOrder>("order"),
      fills: of<PaperTrade>("fill"),
      balances: pushes.some((p) => p.event === "balance") ? true : null,
    });
    const margin = pushes.filter((p) => p.event === "margin" || p.event === "marginOrder");
    if (margin.length > 0) onMargin(accountId, margin);
  });
  const offRemoteFutures = d.writerStreams?.onStream("futures", (accountId, texts) => {
    if (futures === undefined || !watched(accountId)) return;
    const pushes = parse(texts);
    const of = <T>(event: string) => pushes.filter((p) => p.event === event).map((p) => p.data as T);
    const account = of<{ dualSidePosition: boolean }>("account")[0];
    if (account === undefined) return;
    futuresCommit({ accountId, orders: of<FuturesOrder>("order"), fills: of<FuturesTrade>("fill"), account });
  });

  return {
    /** The snapshot a new subscription gets first. */
    initial(c: Conn, a: Arg): void {
      if (a.channel === "account") void pushAccount(c, a);
      else if (a.channel.startsWith("account-")) void pushMarginAccount(c, a);
      else if (a.channel === "positions") void pushPositions(c, a);
    },
    close(): void {
      offPaper();
      offMargin();
      offFutures?.();
      offRemoteSpot?.();
      offRemoteFutures?.();
    },
  };
}
