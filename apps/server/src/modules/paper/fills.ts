import {
  type BookListener,
  type DomainError,
  type MirrorLevel,
  type SettledFill,
  Side,
  settleFill,
} from "@meridian/domain";
import type { TradeRow } from "./rows.ts";
import type { LiveOrder, SpotState } from "./state.ts";
import type { SpotTriggers } from "./triggers.ts";

/**
 * The spot engine's listener on `symbol`'s book: fills are settled at once in the
 * ledger with a trade row per side, and rejections, cancels and expiries end the order
 * (`SpotTriggers.finish`). The maker's own orders are not the engine's and are passed
 * over.
 */
export function bookListener(s: SpotState, triggers: SpotTriggers, symbol: string): BookListener {
  const end = (id: number, status: "REJECTED" | "CANCELED" | "EXPIRED", error?: DomainError) => {
    const o = s.live.get(id);
    if (o === undefined || s.muted) return;
    if (error !== undefined && s.collect?.orderId === id) s.collect.rejection = error;
    triggers.finish(o, status);
  };
  return {
    onAccepted() {},
    onTriggered() {},
    onDelta() {},
    onRejected: (_seq, id, error) => end(id, "REJECTED", error),
    onCancelled: (_seq, id) => end(id, "CANCELED"),
    onExpired: (_seq, id) => end(id, "EXPIRED"),
    onTrade: (_seq, makerId, takerId, price, qty, makerSide, makerLeft, takerLeft, ts) => {
      if (s.muted) return;
      const maker = s.live.get(makerId);
      const taker = s.live.get(takerId);
      if (maker === undefined && taker === undefined) return;
      const any = maker ?? taker;
      if (any === undefined) return;
      const m = { order: maker?.funds ?? null, role: "maker" as const };
      const t = { order: taker?.funds ?? null, role: "taker" as const };
      const buyerIsMaker = makerSide === Side.Buy;
      const fill = settleFill(any.spec, any.units, price, qty, buyerIsMaker ? m : t, buyerIsMaker ? t : m);
      s.mustPost(fill.entry, null, takerId);
      const at = { symbol, price, qty, fill, ts };
      if (maker !== undefined) filled(s, triggers, maker, at, true, makerLeft, takerId);
      if (taker !== undefined) filled(s, triggers, taker, at, false, takerLeft, makerId);
    },
  };
}

/** The counter order id of a fill from the exchange's printed trades (no order of ours). */
export const EXCHANGE_COUNTER_ID = 0;

/**
 * A mirrored symbol's printed trades, in time order, against its queued orders
 * (`QueuedOrder`): each fills as maker at its own price what a trade gives it, settled
 * in the ledger like a book fill, the exchange standing as the counterparty. A trade the
 * exchange printed before the order joined its queue (`times`, ms) is not the order's.
 */
export function exchangeTrades(
  s: SpotState,
  triggers: SpotTriggers,
  symbol: string,
  trades: readonly MirrorLevel[],
  times: readonly number[] = [],
): void {
  s.requeueBlind(symbol);
  const queue = s.queued.get(symbol);
  if (queue === undefined) return;
  for (const [i, [price, lots]] of trades.entries()) {
    const time = times[i] ?? Number.POSITIVE_INFINITY;
    for (const { order, queue: q, since, blind } of [...queue.values()]) {
      if (!s.live.has(order.row.id) || blind || time < since) continue;
      const qty = q.onTrade(price, lots);
      if (qty === 0) continue;
      const own = { order: order.funds, role: "maker" as const };
      const exchange = { order: null, role: "taker" as const };
      const buy = order.row.side === Side.Buy;
      const fill = settleFill(
        order.spec,
        order.units,
        q.price,
        qty,
        buy ? own : exchange,
        buy ? exchange : own,
      );
      s.mustPost(fill.entry, null, order.row.id);
      const at = { symbol, price: q.price, qty, fill, ts: s.now() };
      filled(s, triggers, order, at, true, q.lotsLeft, EXCHANGE_COUNTER_ID);
    }
  }
}

/** One side's trade row of a settled fill, and what the fill does to its order. */
function filled(
  s: SpotState,
  triggers: SpotTriggers,
  o: LiveOrder,
  at: { symbol: string; price: number; qty: number; fill: SettledFill; ts: number },
  isMaker: boolean,
  left: number,
  counter: number,
): void {
  const trade: TradeRow = {
    id: ++s.ids.trade,
    orderId: o.row.id,
    accountId: o.row.accountId,
    wallet: o.row.wallet,
    symbol: at.symbol,
    side: o.row.side,
    priceTicks: at.price,
    qtyLots: at.qty,
    quote: at.fill.quoteAmount,
    fee: o.row.side === Side.Buy ? at.fill.buyerFee : at.fill.sellerFee,
    isMaker,
    counterOrderId: counter,
    createdAt: at.ts,
  };
  s.batch.trades.push(trade);
  if (s.collect?.orderId === o.row.id) s.collect.fills.push(trade);
  if (left === 0) triggers.finish(o, "FILLED");
  else {
    o.row.status = "PARTIALLY_FILLED";
    s.snap(o);
  }
  if (o.row.wallet !== "spot") s.onMarginFill?.(o.row, trade);
}
