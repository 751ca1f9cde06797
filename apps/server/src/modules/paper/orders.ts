import { MarketCode, PAPER_MAX_OPEN_ORDERS, PaperCode, type PlaceOrderBody } from "@meridian/contracts";
import { availableOf, holdEntry, holdFor, newOrderFunds, pairUnits, Side } from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import { planOrder, planTpSl } from "./order-plan.ts";
import {
  ledgerWallet,
  NO_TPSL,
  type OrderRow,
  type PlaceOptions,
  type PlaceOutcome,
  type TradeRow,
  UNFILLED,
} from "./rows.ts";
import type { Collected, LiveOrder, SpotState } from "./state.ts";
import type { SpotTriggers } from "./triggers.ts";

/**
 * Placing and cancelling spot orders (and margin ones, by their wallet): the checks and
 * the hold before an order exists, then into its book, or onto the stop watch list until
 * it fires. What happens in the book comes back through `bookListener` (fills.ts).
 */
export class SpotOrders {
  private readonly s: SpotState;
  private readonly triggers: SpotTriggers;

  constructor(state: SpotState, triggers: SpotTriggers) {
    this.s = state;
    this.triggers = triggers;
  }

  place(
    accountId: number,
    vipLevel: number,
    body: PlaceOrderBody,
    options: PlaceOptions = { wallet: "spot", sideEffect: null },
  ): PlaceOutcome {
    const s = this.s;
    const cidKey = body.clientOrderId === undefined ? null : `${accountId}\u0000${body.clientOrderId}`;
    const seen = cidKey === null ? undefined : s.recentCids.get(cidKey);
    if (seen !== undefined) return { kind: "duplicate", orderId: seen };

    const symbol = body.symbol.toUpperCase();
    const spec = s.venue.spec(symbol);
    const units = spec === undefined ? null : pairUnits(spec);
    const vb = spec === undefined ? undefined : s.bookOf(symbol);
    if (spec === undefined || units === null || vb === undefined) {
      throw new AppError(PaperCode.UNKNOWN_SYMBOL, `Unknown symbol ${symbol}`, { status: 200 });
    }
    if (s.venue.tradable?.(symbol) === false) throw marketDataUnavailable(symbol);
    if ((s.openCount.get(accountId) ?? 0) >= PAPER_MAX_OPEN_ORDERS) {
      throw new AppError(PaperCode.TOO_MANY_OPEN_ORDERS, `At most ${PAPER_MAX_OPEN_ORDERS} open orders`, {
        status: 200,
      });
    }
    const side: 0 | 1 = body.side === "BUY" ? Side.Buy : Side.Sell;
    const tier = s.fees.spotTier(vipLevel);
    const rates = { makerPpm: tier.makerPpm, takerPpm: tier.takerPpm };
    const last = s.venue.lastTicks(symbol);
    const plan = planOrder(spec, units, vb, side, body, rates, last, accountId);
    const tpsl = planTpSl(spec, side, body, plan.lots, body.type === "MARKET" ? null : plan.priceTicks, last);
    const held = plan.held ?? holdFor(spec, units, side, plan.holdTicks, plan.lots, rates);
    const holdAsset = side === Side.Buy ? units.quote : units.base;
    const wallet = ledgerWallet(accountId, options.wallet, symbol);
    options.beforeHold?.(holdAsset, held);
    const id = ++s.ids.order;
    const refusal = s.post(holdEntry(accountId, holdAsset, held, wallet), accountId, id);
    if (refusal !== null) {
      s.ids.order--;
      throw new AppError(PaperCode.INSUFFICIENT_BALANCE, `Insufficient ${holdAsset} balance`, {
        status: 200,
        data: {
          asset: holdAsset,
          required: held.toString(),
          available: s.ledger.balance(wallet?.available ?? availableOf(accountId), holdAsset).toString(),
        },
      });
    }
    const now = s.now();
    const row: OrderRow = {
      id,
      accountId,
      wallet: options.wallet,
      sideEffect: options.sideEffect,
      clientOrderId: body.clientOrderId ?? `#${id}`,
      symbol,
      side,
      type: body.type,
      tif: body.type === "LIMIT" || body.type === "STOP_LIMIT" ? (body.timeInForce ?? "GTC") : null,
      priceTicks: plan.priceTicks,
      stopTicks: plan.stopTicks,
      qtyLots: plan.lots,
      quoteQty: body.quoteQty ?? null,
      status: "NEW",
      ...UNFILLED,
      held,
      makerPpm: rates.makerPpm,
      takerPpm: rates.takerPpm,
      createdAt: now,
      updatedAt: now,
      ...NO_TPSL,
      ...tpsl,
    };
    const o: LiveOrder = {
      row,
      funds: newOrderFunds({ id, accountId, side, units, ...rates, held, wallet }),
      spec,
      units,
    };
    if (cidKey !== null) s.recentCids.set(cidKey, id);
    s.track(o);
    s.snap(o);
    const collect: Collected = { orderId: id, fills: [] as TradeRow[], rejection: null };
    s.collect = collect;
    try {
      if (plan.stopTicks !== null) s.watchStop(o);
      else s.enter(o, vb);
    } finally {
      s.collect = null;
    }
    return { kind: "placed", order: { ...row }, fills: collect.fills, rejection: collect.rejection };
  }

  /** Cancels a live order (a spot one, or with `margin` a margin one); false when it is not live (any more). */
  cancel(accountId: number, orderId: number, margin = false): boolean {
    const o = this.s.live.get(orderId);
    if (o === undefined || o.row.accountId !== accountId || (o.row.wallet !== "spot") !== margin)
      return false;
    if (o.row.bookSeq === null) {
      this.triggers.finish(o, "CANCELED");
      // Cancelling one leg of a TP/SL pair cancels the pair (the other's hold is released with it).
      this.triggers.dropPartner(o, false);
    } else if (this.s.queued.get(o.row.symbol)?.has(orderId) === true) this.triggers.finish(o, "CANCELED");
    else this.s.bookOf(o.row.symbol)?.book.cancel(orderId, this.s.now());
    return true;
  }
}

/** The symbol's live feed is down or stale (docs/trading.md, "Live prices"). */
function marketDataUnavailable(symbol: string): AppError {
  return new AppError(MarketCode.DATA_UNAVAILABLE, `market data unavailable for ${symbol}`, {
    status: 200,
    data: { symbol },
  });
}
