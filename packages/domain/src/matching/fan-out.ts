import type { DomainError } from "../errors.ts";
import type { Lots, Ticks } from "../units.ts";
import type { BookListener, CancelReason, ExpireReason, Side } from "./types.ts";

/**
 * A book listener that forwards every engine event to each subscriber: one book, several
 * services listening (the market module's depth stream, the paper order service's fills).
 * Arguments stay positional, so forwarding allocates nothing per event.
 */
export class BookFanOut implements BookListener {
  readonly listeners = new Set<BookListener>();
  onAccepted(seq: number, id: number, ts: number): void {
    for (const l of this.listeners) l.onAccepted(seq, id, ts);
  }
  onRejected(seq: number, id: number, error: DomainError, ts: number): void {
    for (const l of this.listeners) l.onRejected(seq, id, error, ts);
  }
  onTrade(
    seq: number,
    makerId: number,
    takerId: number,
    price: Ticks,
    qty: Lots,
    makerSide: Side,
    makerLeft: Lots,
    takerLeft: Lots,
    ts: number,
  ): void {
    for (const l of this.listeners)
      l.onTrade(seq, makerId, takerId, price, qty, makerSide, makerLeft, takerLeft, ts);
  }
  onCancelled(seq: number, id: number, left: Lots, reason: CancelReason, ts: number): void {
    for (const l of this.listeners) l.onCancelled(seq, id, left, reason, ts);
  }
  onExpired(seq: number, id: number, left: Lots, reason: ExpireReason, ts: number): void {
    for (const l of this.listeners) l.onExpired(seq, id, left, reason, ts);
  }
  onTriggered(seq: number, id: number, ts: number): void {
    for (const l of this.listeners) l.onTriggered(seq, id, ts);
  }
  onDelta(seq: number, side: Side, price: Ticks, levelQty: Lots): void {
    for (const l of this.listeners) l.onDelta(seq, side, price, levelQty);
  }
}
