import {
  FuturesCode,
  type FuturesOrderBody,
  type FuturesOrderType,
  type FuturesTimeInForce,
  MarketCode,
  type PositionSideValue,
} from "@meridian/contracts";
import {
  type AnyPerpContract,
  applyFill,
  costScaleOf,
  crossSummary,
  DerivativesCode,
  type DerivativesRefusal,
  type DerivativesResult,
  type FillOutcome,
  firesOnRise,
  initialMargin,
  type MirrorLevel,
  maxLeverageFor,
  notionalAt,
  type PerpPosition,
  priceToTicks,
  qtyToLots,
  refuse,
  requireAnyPerp,
  Side,
  TakenLiquidity,
  Tif,
  triggerReached,
  valueAt,
  walkMirror,
} from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import type { PerpBook } from "./book.ts";
import { PerpMirror } from "./mirror.ts";
import {
  callbackPpm,
  isLimitPlan,
  isStopType,
  isTriggerType,
  restsAsLimit,
  trailStep,
  waitsForTrigger,
} from "./plans.ts";
import type { FutOrderRow, FutTradeRow } from "./repo.ts";
import { contractOf, type EngineState, fail, refusalCode } from "./state.ts";

const DEPTH = 50;
/** The engine's time in force of an API value. */
const TIF: Record<FuturesTimeInForce, Tif> = { GTC: Tif.GTC, IOC: Tif.IOC, FOK: Tif.FOK, GTX: Tif.GTX };

/**
 * Order placement and matching: an order is checked (quantity, notional, leverage,
 * available margin), then takes the maker's quotes in the perpetual book as taker;
 * resting limits fill as maker when the book crosses them, and trigger orders (stops,
 * take-profits, a position's TP/SL legs) fire on the mark. Every execution is applied to
 * the order's position (`applyFill`) and its entry posted in the same command.
 *
 * On a live feed (`PerpMirror`) an order walks the pair's book as the exchange shows it
 * instead, and what rests fills only from the exchange's printed trades by queue
 * position (`exchangeTrades`), never from the book crossing it.
 */
export class FuturesOrders {
  private readonly state: EngineState;
  private readonly book: PerpBook;
  private readonly mirror: PerpMirror;

  constructor(state: EngineState, book: PerpBook) {
    this.state = state;
    this.book = book;
    this.mirror = new PerpMirror(book);
  }

  /** After a load: the resting orders queue again behind what the exchange shows next. */
  reset(): void {
    this.mirror.reset();
  }

  place(accountId: number, body: FuturesOrderBody): FutOrderRow {
    const state = this.state;
    const c = contractOf(body.symbol);
    if (this.book.tradable?.(c.symbol) === false)
      throw fail(MarketCode.DATA_UNAVAILABLE, `market data unavailable for ${c.symbol}`, {
        symbol: c.symbol,
      });
    const spec = c.instrument;
    const dual = state.isDual(accountId);
    const positionSide = body.positionSide ?? "BOTH";
    if (dual === (positionSide === "BOTH"))
      throw fail(FuturesCode.ORDER_INVALID, "positionSide does not match the position mode", {
        field: "positionSide",
      });
    const parse = (text: string | undefined, field: string) => {
      if (text === undefined) return null;
      const r = field === "quantity" ? qtyToLots(spec, text, field) : priceToTicks(spec, text, field);
      if (!r.ok) throw fail(FuturesCode.ORDER_INVALID, `Invalid ${field}`, { field, reason: r.error.code });
      return r.value as number;
    };
    const price = parse(body.price, "price");
    const stop = parse(body.stopPrice, "stopPrice");
    const type: FuturesOrderType = body.type;
    const callback = type === "TRAILING_STOP_MARKET" ? callbackPpm(body.callbackRate ?? "") : null;
    if (type === "TRAILING_STOP_MARKET" && callback === null)
      throw fail(FuturesCode.ORDER_INVALID, "Invalid callbackRate (above 0, at most 10 percent)", {
        field: "callbackRate",
      });
    const closing = dual ? (body.side === "SELL") === (positionSide === "LONG") : false;
    const reduceOnly = (body.reduceOnly ?? false) || closing || (body.closePosition ?? false);
    let lots = body.closePosition ? 0 : (parse(body.quantity, "quantity") ?? 0);
    const ts = state.now();
    const id = state.nextOrderId();
    const order: FutOrderRow = {
      id,
      accountId,
      symbol: c.symbol,
      side: body.side,
      positionSide,
      type,
      priceTicks: type === "LIMIT" || isLimitPlan(type) ? price : null,
      stopTicks: type === "LIMIT" || type === "MARKET" ? null : stop,
      qtyLots: lots,
      filledLots: 0,
      filledNotional: 0n,
      reduceOnly,
      closePosition: body.closePosition ?? false,
      ...(type === "LIMIT" && body.timeInForce !== undefined ? { timeInForce: body.timeInForce } : {}),
      clientOrderId: body.clientOrderId ?? `#${id}`,
      status: "NEW",
      reason: null,
      createdAt: ts,
      updatedAt: ts,
      ...(isLimitPlan(type) || callback !== null
        ? { plan: { callbackPpm: callback, bestTicks: null, triggeredAt: null } }
        : {}),
    };
    if (isTriggerType(type)) {
      state.saveOrder(order);
      return order;
    }
    if (reduceOnly) {
      const pos = state.stored(accountId, c.symbol, positionSide).position;
      const size = Math.abs(pos.lots);
      const dir = body.side === "BUY" ? 1 : -1;
      if (size === 0 || (!dual && Math.sign(pos.lots) === dir))
        throw fail(FuturesCode.REDUCE_ONLY_REJECTED, "Reduce-only order would not reduce the position");
      lots = Math.min(lots, size);
      order.qtyLots = lots;
    }
    if (lots <= 0) throw fail(FuturesCode.ORDER_INVALID, "Quantity must be positive", { field: "quantity" });
    if (!reduceOnly) this.checkMargin(order, price);
    this.take(
      order,
      type === "LIMIT" ? price : null,
      type === "LIMIT" ? TIF[body.timeInForce ?? "GTC"] : Tif.IOC,
    );
    const refused = order.reason === null ? undefined : refusalCode[order.reason];
    if (order.filledLots === 0 && refused !== undefined)
      throw fail(refused, `Order refused: ${order.reason}`, { reason: order.reason });
    this.settle(order);
    this.queueIfResting(order);
    return order;
  }

  /** On a live feed a resting limit leaves the book for the exchange's queue. */
  private queueIfResting(order: FutOrderRow): void {
    const c = requireAnyPerp(order.symbol);
    if (this.state.open.get(order.id) === order && restsAsLimit(order) && this.mirror.mirrored(c))
      this.mirror.enqueue(c, order, this.state.now());
  }

  /** Refuses an order that would open or increase a position beyond the minimum notional, the leverage brackets or the available margin. */
  private checkMargin(order: FutOrderRow, price: number | null): void {
    const state = this.state;
    const c = contractOf(order.symbol);
    const spec = c.instrument;
    const accountId = order.accountId;
    const lots = order.qtyLots;
    const refTicks = price ?? state.marks.markOf(c) ?? 0;
    if (c.family === "coin" && refTicks <= 0)
      throw fail(FuturesCode.NO_LIQUIDITY, `No price yet for ${c.symbol}`);
    const n = notionalAt(c, lots, refTicks);
    if (c.family === "usdt" && n < BigInt(spec.minNotionalUnits) * c.minorPerTickLot)
      throw fail(FuturesCode.ORDER_INVALID, "Order below the minimum notional", {
        field: "quantity",
        min: spec.minNotional,
      });
    const s = state.settingOf(accountId, c.symbol);
    if (s.leverage > maxLeverageFor(c, n))
      throw fail(FuturesCode.LEVERAGE_TOO_HIGH, "Leverage too high for this size", {
        leverage: s.leverage,
        max: maxLeverageFor(c, n),
      });
    const required =
      initialMargin(n, s.leverage) + (n * BigInt(state.feeRates(accountId).takerPpm)) / 1_000_000n;
    const available = state.available(accountId, c.marginAsset);
    if (required > available)
      throw fail(FuturesCode.MARGIN_INSUFFICIENT, `Not enough available ${c.marginAsset} margin`, {
        required: required.toString(),
        available: available.toString(),
        asset: c.marginAsset,
      });
  }

  /** The status after taking: a market order's remainder expires, a limit's rests. */
  private settle(order: FutOrderRow): void {
    const type = order.type;
    if (order.filledLots === 0 && type === "MARKET") {
      order.status = "EXPIRED";
      order.reason ??= "NO_LIQUIDITY";
    } else if (order.filledLots < order.qtyLots) {
      if (type === "MARKET") order.status = "EXPIRED";
      else if (order.reason === null) order.status = order.filledLots > 0 ? "PARTIALLY_FILLED" : "NEW";
      else order.status = "EXPIRED";
    } else order.status = "FILLED";
    this.state.saveOrder(order);
  }

  /**
   * Takes the book's quotes up to `limit` (null: any price) as taker: a live feed's pair
   * book as the exchange shows it less what earlier orders took (`PerpMirror.walk`), else
   * the perpetual's book of the maker's quotes. `tif` says what happens to what cannot
   * be taken at once: GTC rests it, IOC (and a market order) expires it, FOK fills whole
   * or not at all (the whole walk is planned, and checked against the position rules each
   * fill applies, before anything fills), GTX is refused when it would take.
   */
  private take(
    order: FutOrderRow,
    limit: number | null,
    tif: Tif = limit === null ? Tif.IOC : Tif.GTC,
  ): void {
    const c = requireAnyPerp(order.symbol);
    const left = order.qtyLots - order.filledLots;
    if (left <= 0) return;
    const walk = this.mirror.mirrored(c)
      ? this.mirror.walk(c, order.side, left, limit, tif)
      : {
          result: walkMirror(
            { side: order.side === "BUY" ? Side.Buy : Side.Sell, lots: left, limit, tif },
            this.book.levels(c, order.side, DEPTH),
            new TakenLiquidity(),
          ),
          took: () => {},
        };
    const { fills, rejected } = walk.result;
    if (tif === Tif.GTX && rejected)
      throw fail(FuturesCode.ORDER_INVALID, "A post-only (GTX) order would take liquidity", {
        field: "timeInForce",
      });
    const fee = this.state.feeRates(order.accountId).takerPpm;
    if (tif === Tif.FOK && (rejected || !this.fitsWhole(order, fills, fee))) {
      order.reason = "FOK";
      return;
    }
    for (const [ticks, lots] of fills) {
      const before = order.filledLots;
      const r = this.fill(order, lots, ticks, fee, false);
      walk.took(ticks, order.filledLots - before);
      if (r !== null) {
        order.reason = r.code;
        return;
      }
    }
    if (tif === Tif.IOC && limit !== null && order.filledLots < order.qtyLots) order.reason = "IOC";
  }

  /**
   * A FOK's dry run: whether every planned taker fill would pass, whole, the position rules
   * `fill` applies (`tryFill`), one after another. Changes nothing.
   */
  private fitsWhole(order: FutOrderRow, fills: readonly MirrorLevel[], feePpm: number): boolean {
    const state = this.state;
    const c = requireAnyPerp(order.symbol);
    let pos = state.stored(order.accountId, order.symbol, order.positionSide).position;
    let wallet = state.wallet(order.accountId, c.marginAsset);
    for (const [ticks, lots] of fills) {
      const r = this.tryFill(order, pos, wallet, lots, ticks, feePpm);
      if (!r.ok || r.value.closedLots + r.value.openedLots !== lots) return false;
      wallet += r.value.realisedPnl - r.value.fee;
      pos = r.value.position;
    }
    return true;
  }

  /**
   * What a fill of `lots` at `ticks` would do to `pos` with `wallet` in its margin asset,
   * under the position rules: reduce-only takes at most the position, the domain's fill
   * rules, and an opening cross fill must leave available margin over the account's
   * positions in that asset. Changes nothing.
   */
  private tryFill(
    order: FutOrderRow,
    pos: PerpPosition,
    wallet: bigint,
    lots: number,
    ticks: number,
    feePpm: number,
  ): DerivativesResult<FillOutcome> {
    const state = this.state;
    const c = requireAnyPerp(order.symbol);
    const q = order.reduceOnly ? Math.min(lots, Math.abs(pos.lots)) : lots;
    if (q === 0) return refuse(DerivativesCode.REDUCE_ONLY_REJECTED);
    const r = applyFill(c, pos, {
      side: order.side === "BUY" ? "buy" : "sell",
      lots: q,
      priceTicks: ticks,
      feePpm,
      reduceOnly: order.reduceOnly,
    });
    if (!r.ok) return r;
    const out = r.value;
    if (out.openedLots > 0 && pos.marginMode === "cross") {
      const others = state
        .positionsOf(order.accountId, c.marginAsset)
        .map((p) => p.position)
        .filter((p) => p.symbol !== order.symbol || p.positionSide !== order.positionSide);
      const summary = crossSummary(
        wallet + out.realisedPnl - out.fee,
        [...others, out.position],
        state.marks.marks(),
      );
      if (summary.available < 0n) return refuse(DerivativesCode.MARGIN_INSUFFICIENT);
    }
    return r;
  }

  /**
   * A live feed's printed trades of the pair `c` follows, in time order: each gives the
   * perpetual's queued orders what passes their place in the queue (`QueuedOrder`), filled
   * as maker at the order's own price. Resting orders from the database queue first
   * (`requeue`); while the book is not known they wait.
   */
  exchangeTrades(c: AnyPerpContract, trades: readonly MirrorLevel[], times: readonly number[]): void {
    const state = this.state;
    this.requeue(c);
    this.mirror.prints(
      c,
      trades,
      times,
      (o) => state.open.get(o.id) === o && restsAsLimit(o),
      (o, lots) => {
        const want = Math.min(lots, o.qtyLots - o.filledLots);
        const before = o.filledLots;
        const r = this.fill(o, want, o.priceTicks ?? 0, state.feeRates(o.accountId).makerPpm, true);
        if (r !== null) {
          o.status = "EXPIRED";
          o.reason = r.code;
        } else if (o.filledLots >= o.qtyLots) o.status = "FILLED";
        else if (o.filledLots - before < want) {
          // A reduce-only order cut to the position, which is now closed: nothing left to reduce.
          o.status = "EXPIRED";
          o.reason = DerivativesCode.REDUCE_ONLY_REJECTED;
        } else o.status = "PARTIALLY_FILLED";
        state.saveOrder(o);
        return o.status === "PARTIALLY_FILLED";
      },
    );
  }

  /**
   * After a load, once the exchange's book is known: the perpetual's resting orders (from
   * the database) queue behind what it displays now. Memory only (no rows), so it may run
   * between commands.
   */
  requeue(c: AnyPerpContract): void {
    if (!this.mirror.needsRequeue(c.symbol) || !this.mirror.known(c)) return;
    this.mirror.markRequeued(c.symbol);
    for (const o of this.state.open.values())
      if (o.symbol === c.symbol && restsAsLimit(o) && !this.mirror.queued(c.symbol, o.id))
        this.mirror.enqueue(c, o, this.state.now());
  }

  /** Whether a live feed's printed trades of the pair may fill an order of `symbol`. */
  waitsForPrints(symbol: string): boolean {
    return this.mirror.hasQueued(symbol);
  }

  /** A new book for the pair `c` follows (live feed): orders queue after a load; levels shown refreshed are whole again. */
  onBook(c: AnyPerpContract): void {
    this.requeue(c);
    this.mirror.onBook(c);
  }

  /** One execution against the order's position; null when done, the refusal otherwise. */
  private fill(
    order: FutOrderRow,
    lots: number,
    ticks: number,
    feePpm: number,
    isMaker: boolean,
  ): DerivativesRefusal | null {
    const state = this.state;
    const c = requireAnyPerp(order.symbol);
    const before = state.stored(order.accountId, order.symbol, order.positionSide);
    const pos = before.position;
    const r = this.tryFill(order, pos, state.wallet(order.accountId, c.marginAsset), lots, ticks, feePpm);
    if (!r.ok) return r.error;
    const out = r.value;
    const refused = state.post(out.entry, order.accountId, order.id);
    if (refused !== null) return refused;
    state.savePosition({
      position: out.position,
      realisedPnl: before.realisedPnl + out.realisedPnl - out.fee,
    });
    state.syncWallet(order.accountId);
    if (pos.lots !== 0 && Math.sign(out.position.lots) !== Math.sign(pos.lots))
      cancelPositionOrders(state, order.accountId, order.symbol, order.positionSide, order.id);
    const filled = out.closedLots + out.openedLots;
    order.filledLots += filled;
    order.filledNotional += filledValue(c, filled, ticks);
    const trade: FutTradeRow = {
      id: state.nextTradeId(),
      orderId: order.id,
      accountId: order.accountId,
      symbol: order.symbol,
      side: order.side,
      positionSide: order.positionSide,
      priceTicks: ticks,
      qtyLots: filled,
      realisedPnl: out.realisedPnl,
      fee: out.fee,
      isMaker,
      liquidation: false,
      createdAt: state.now(),
    };
    state.saveTrade(trade);
    return null;
  }

  /** Market orders closing every open position of the account (on `symbol` only, when given). */
  closeAll(accountId: number, symbol?: string): FutOrderRow[] {
    const out: FutOrderRow[] = [];
    for (const p of this.state.positionsOf(accountId)) {
      const pos = p.position;
      if (pos.lots === 0 || (symbol !== undefined && pos.symbol !== symbol)) continue;
      const c = requireAnyPerp(pos.symbol);
      out.push(
        this.place(accountId, {
          symbol: pos.symbol,
          side: pos.lots > 0 ? "SELL" : "BUY",
          type: "MARKET",
          positionSide: pos.positionSide,
          quantity: lotsText(c, Math.abs(pos.lots)),
          reduceOnly: pos.positionSide === "BOTH",
          closePosition: false,
        }),
      );
    }
    return out;
  }

  /**
   * Replaces the position's take-profit and/or stop-loss (close-position trigger orders on
   * the mark). `clientOrderId` names the one leg set (refused with both).
   */
  setTpsl(
    accountId: number,
    symbol: string,
    positionSide: PositionSideValue,
    takeProfit: string | undefined,
    stopLoss: string | undefined,
    clientOrderId?: string,
  ): FutOrderRow[] {
    const state = this.state;
    if (clientOrderId !== undefined && takeProfit !== undefined && stopLoss !== undefined)
      throw fail(FuturesCode.ORDER_INVALID, "A clientOrderId names one order: set TP and SL separately", {
        field: "clientOrderId",
      });
    const pos = state.stored(accountId, symbol, positionSide).position;
    if (pos.lots === 0) throw fail(FuturesCode.REDUCE_ONLY_REJECTED, "No position to protect");
    const side = pos.lots > 0 ? "SELL" : "BUY";
    const out: FutOrderRow[] = [];
    for (const [type, price] of [
      ["TAKE_PROFIT_MARKET", takeProfit],
      ["STOP_MARKET", stopLoss],
    ] as const) {
      if (price === undefined) continue;
      // The new leg first: a refused price then leaves the old one in place (nothing changed).
      const placed = this.place(accountId, {
        symbol,
        side,
        type,
        positionSide,
        stopPrice: price,
        closePosition: true,
        reduceOnly: true,
        ...(clientOrderId === undefined ? {} : { clientOrderId }),
      });
      for (const o of state.openOrdersOf(accountId))
        if (
          o.id !== placed.id &&
          o.symbol === placed.symbol &&
          o.positionSide === positionSide &&
          o.closePosition &&
          o.type === type
        )
          state.cancel(accountId, o.id, "REPLACED");
      out.push(placed);
    }
    return out;
  }

  /** After a mark or book move on `c`: fires the triggers the mark reached, then fills the resting limits the book crosses. */
  match(c: AnyPerpContract): void {
    const state = this.state;
    const symbol = c.symbol;
    const mark = state.marks.markOf(c);
    if (mark !== undefined) {
      for (const o of [...state.open.values()]) {
        if (o.symbol !== symbol || !waitsForTrigger(o)) continue;
        if (o.type === "TRAILING_STOP_MARKET" && o.plan !== undefined) {
          const step = trailStep(o.side, o.stopTicks ?? 0, o.plan, mark);
          if (step.fires) this.trigger(o);
          else if (step.moved) state.saveOrder(o);
          continue;
        }
        if (!triggered(o, mark)) continue;
        this.trigger(o);
      }
    }
    // A live feed: resting limits fill from the exchange's printed trades (`exchangeTrades`).
    if (this.mirror.mirrored(c)) return;
    const top = this.book.top(c);
    for (const o of [...state.open.values()]) {
      if (o.symbol !== symbol || !restsAsLimit(o) || o.priceTicks === null) continue;
      const crosses =
        o.side === "BUY" ? top.ask > 0 && top.ask <= o.priceTicks : top.bid > 0 && top.bid >= o.priceTicks;
      if (!crosses) continue;
      const left = o.qtyLots - o.filledLots;
      const r = this.fill(o, left, o.priceTicks, state.feeRates(o.accountId).makerPpm, true);
      if (r !== null) {
        o.status = "EXPIRED";
        o.reason = r.code;
      } else o.status = o.filledLots >= o.qtyLots ? "FILLED" : "PARTIALLY_FILLED";
      state.saveOrder(o);
    }
  }

  private trigger(o: FutOrderRow): void {
    const pos = this.state.stored(o.accountId, o.symbol, o.positionSide).position;
    if (o.closePosition) o.qtyLots = Math.abs(pos.lots);
    if (o.qtyLots === 0 || (o.reduceOnly && pos.lots === 0)) {
      o.status = "EXPIRED";
      o.reason = "NO_POSITION";
      this.state.saveOrder(o);
      return;
    }
    if (o.reduceOnly) o.qtyLots = Math.min(o.qtyLots, Math.abs(pos.lots));
    if (isLimitPlan(o.type) && o.plan !== undefined) {
      // A limit plan: from now on a limit at its price (checked as a new limit order is),
      // taking what the book offers at that price at once and resting with the rest.
      if (!o.reduceOnly) {
        try {
          this.checkMargin(o, o.priceTicks);
        } catch (e) {
          o.status = "EXPIRED";
          o.reason = e instanceof AppError ? e.code : "REFUSED";
          this.state.saveOrder(o);
          return;
        }
      }
      // Marked after the check, so the check does not count its own reserve.
      o.plan.triggeredAt = this.state.now();
      this.take(o, o.priceTicks);
      if (o.reason === null)
        o.status = o.filledLots >= o.qtyLots ? "FILLED" : o.filledLots > 0 ? "PARTIALLY_FILLED" : "NEW";
      else o.status = "EXPIRED";
      this.state.saveOrder(o);
      this.queueIfResting(o);
      return;
    }
    if (o.plan !== undefined) o.plan.triggeredAt = this.state.now();
    this.take(o, null);
    o.status = o.filledLots >= o.qtyLots ? "FILLED" : "EXPIRED";
    this.state.saveOrder(o);
  }
}

/**
 * The position on that side closed (or flipped in one-way mode): its TP/SL legs and other
 * reduce-only orders protected or reduced a position that no longer exists, so they are
 * cancelled as the big exchanges do, and the symbol's settings unlock. `except` is the
 * order whose fill closed it, which ends by its own status.
 */
export function cancelPositionOrders(
  state: EngineState,
  accountId: number,
  symbol: string,
  positionSide: PositionSideValue,
  except: number | null,
): void {
  for (const o of state.openOrdersOf(accountId))
    if (o.id !== except && o.symbol === symbol && o.positionSide === positionSide && o.reduceOnly)
      state.cancel(accountId, o.id, "POSITION_CLOSED");
}

/** A trigger order against the mark: STOP_MARKET and STOP_LIMIT are stops, the other trigger types take-profits. */
function triggered(o: FutOrderRow, mark: number): boolean {
  return triggerReached(firesOnRise(o.side === "BUY", !isStopType(o.type)), o.stopTicks ?? 0, mark);
}

/**
 * What an order's `filledNotional` adds for a fill: its notional (USDT-M, exact), or its
 * value in coin in `costScale` units, rounded down (coin-M: the average price is then the
 * harmonic mean, contracts x value / this).
 */
export function filledValue(c: AnyPerpContract, lots: number, ticks: number): bigint {
  const v = valueAt(c, lots, ticks);
  return (v.num * costScaleOf(c)) / v.den;
}

function lotsText(c: AnyPerpContract, lots: number): string {
  const spec = c.instrument;
  const units = BigInt(lots) * spec.lotUnits;
  const s = units.toString().padStart(spec.qtyDecimals + 1, "0");
  return spec.qtyDecimals === 0
    ? s
    : `${s.slice(0, s.length - spec.qtyDecimals)}.${s.slice(s.length - spec.qtyDecimals)}`;
}
