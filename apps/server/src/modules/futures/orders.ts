import {
  FuturesCode,
  type FuturesOrderBody,
  type FuturesOrderType,
  MarketCode,
  type PositionSideValue,
} from "@meridian/contracts";
import {
  applyFill,
  crossSummary,
  DerivativesCode,
  type DerivativesRefusal,
  firesOnRise,
  initialMargin,
  maxLeverageFor,
  notionalAt,
  type PerpContract,
  priceToTicks,
  qtyToLots,
  requirePerp,
  triggerReached,
} from "@meridian/domain";
import type { PerpBook } from "./book.ts";
import type { FutOrderRow, FutTradeRow } from "./repo.ts";
import { contractOf, type EngineState, fail, refusalCode } from "./state.ts";

const DEPTH = 50;

/**
 * Order placement and matching: an order is checked (quantity, notional, leverage,
 * available margin), then takes the maker's quotes in the perpetual book as taker;
 * resting limits fill as maker when the book crosses them, and trigger orders (stops,
 * take-profits, a position's TP/SL legs) fire on the mark. Every execution is applied to
 * the order's position (`applyFill`) and its entry posted in the same command.
 */
export class FuturesOrders {
  private readonly state: EngineState;
  private readonly book: PerpBook;

  constructor(state: EngineState, book: PerpBook) {
    this.state = state;
    this.book = book;
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
      priceTicks: type === "LIMIT" ? price : null,
      stopTicks: type === "LIMIT" || type === "MARKET" ? null : stop,
      qtyLots: lots,
      filledLots: 0,
      filledNotional: 0n,
      reduceOnly,
      closePosition: body.closePosition ?? false,
      clientOrderId: body.clientOrderId ?? `#${id}`,
      status: "NEW",
      reason: null,
      createdAt: ts,
      updatedAt: ts,
    };
    if (type === "STOP_MARKET" || type === "TAKE_PROFIT_MARKET") {
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
    if (!reduceOnly) {
      const refTicks = price ?? state.marks.markOf(c) ?? 0;
      const n = notionalAt(c, lots, refTicks);
      if (n < BigInt(spec.minNotionalUnits) * c.minorPerTickLot)
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
      const available = state.available(accountId);
      if (required > available)
        throw fail(FuturesCode.MARGIN_INSUFFICIENT, "Not enough available margin", {
          required: required.toString(),
          available: available.toString(),
        });
    }
    this.take(order, type === "LIMIT" ? price : null);
    const refused = order.reason === null ? undefined : refusalCode[order.reason];
    if (order.filledLots === 0 && refused !== undefined)
      throw fail(refused, `Order refused: ${order.reason}`, { reason: order.reason });
    if (order.filledLots === 0 && type === "MARKET") {
      order.status = "EXPIRED";
      order.reason ??= "NO_LIQUIDITY";
    } else if (order.filledLots < order.qtyLots) {
      if (type === "MARKET") order.status = "EXPIRED";
      else if (order.reason === null) order.status = order.filledLots > 0 ? "PARTIALLY_FILLED" : "NEW";
      else order.status = "EXPIRED";
    } else order.status = "FILLED";
    state.saveOrder(order);
    return order;
  }

  /** Takes the book's quotes up to `limit` (null: any price) as taker. */
  private take(order: FutOrderRow, limit: number | null): void {
    const c = requirePerp(order.symbol);
    for (const [ticks, qty] of this.book.levels(c, order.side, DEPTH)) {
      const left = order.qtyLots - order.filledLots;
      if (left <= 0) break;
      if (limit !== null && (order.side === "BUY" ? ticks > limit : ticks < limit)) break;
      const r = this.fill(
        order,
        Math.min(left, qty),
        ticks,
        this.state.feeRates(order.accountId).takerPpm,
        false,
      );
      if (r !== null) {
        order.reason = r.code;
        break;
      }
    }
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
    const c = requirePerp(order.symbol);
    const before = state.stored(order.accountId, order.symbol, order.positionSide);
    const pos = before.position;
    let q = lots;
    if (order.reduceOnly) {
      q = Math.min(q, Math.abs(pos.lots));
      if (q === 0) return { code: DerivativesCode.REDUCE_ONLY_REJECTED, params: {} };
    }
    const r = applyFill(c, pos, {
      side: order.side === "BUY" ? "buy" : "sell",
      lots: q,
      priceTicks: ticks,
      feePpm,
      reduceOnly: order.reduceOnly,
    });
    if (!r.ok) return r.error;
    const out = r.value;
    if (out.openedLots > 0 && pos.marginMode === "cross") {
      const walletDelta = out.realisedPnl - out.fee;
      const others = state
        .positionsOf(order.accountId)
        .map((p) => p.position)
        .filter((p) => p.symbol !== order.symbol || p.positionSide !== order.positionSide);
      const summary = crossSummary(
        state.wallet(order.accountId) + walletDelta,
        [...others, out.position],
        state.marks.marks(),
      );
      if (summary.available < 0n) return { code: DerivativesCode.MARGIN_INSUFFICIENT, params: {} };
    }
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
    order.filledNotional += notionalAt(c, filled, ticks);
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
      const c = requirePerp(pos.symbol);
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
  match(c: PerpContract): void {
    const state = this.state;
    const symbol = c.symbol;
    const mark = state.marks.markOf(c);
    if (mark !== undefined) {
      for (const o of [...state.open.values()]) {
        if (o.symbol !== symbol || o.stopTicks === null) continue;
        if (!triggered(o, mark)) continue;
        this.trigger(o);
      }
    }
    const top = this.book.top(c);
    for (const o of [...state.open.values()]) {
      if (o.symbol !== symbol || o.type !== "LIMIT" || o.priceTicks === null) continue;
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

/** A trigger order against the mark: a STOP_MARKET is a stop, any other trigger type a take-profit. */
function triggered(o: FutOrderRow, mark: number): boolean {
  return triggerReached(firesOnRise(o.side === "BUY", o.type !== "STOP_MARKET"), o.stopTicks ?? 0, mark);
}

function lotsText(c: PerpContract, lots: number): string {
  const spec = c.instrument;
  const units = BigInt(lots) * spec.lotUnits;
  const s = units.toString().padStart(spec.qtyDecimals + 1, "0");
  return spec.qtyDecimals === 0
    ? s
    : `${s.slice(0, s.length - spec.qtyDecimals)}.${s.slice(s.length - spec.qtyDecimals)}`;
}
