import type { DomainError } from "../errors.ts";
import type { Lots, Ticks } from "../units.ts";
import type { BookEvent, BookListener, CancelReason, ExpireReason, Side } from "./types.ts";

/** A listener that records every event as a plain object (tests, replay, the service's outbox). */
export class EventLog implements BookListener {
  readonly events: BookEvent[] = [];

  onAccepted(seq: number, id: number, ts: number): void {
    this.events.push({ type: "accepted", seq, id, ts });
  }
  onRejected(seq: number, id: number, error: DomainError, ts: number): void {
    this.events.push({ type: "rejected", seq, id, error, ts });
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
    this.events.push({
      type: "trade",
      seq,
      makerId,
      takerId,
      price,
      qty,
      makerSide,
      makerLeft,
      takerLeft,
      ts,
    });
  }
  onCancelled(seq: number, id: number, left: Lots, reason: CancelReason, ts: number): void {
    this.events.push({ type: "cancelled", seq, id, left, reason, ts });
  }
  onExpired(seq: number, id: number, left: Lots, reason: ExpireReason, ts: number): void {
    this.events.push({ type: "expired", seq, id, left, reason, ts });
  }
  onTriggered(seq: number, id: number, ts: number): void {
    this.events.push({ type: "triggered", seq, id, ts });
  }
  onDelta(seq: number, side: Side, price: Ticks, levelQty: Lots): void {
    this.events.push({ type: "delta", seq, side, price, levelQty });
  }

  clear(): void {
    this.events.length = 0;
  }
}

/** A listener that drops everything (useful when only the book state matters). */
export const NULL_LISTENER: BookListener = {
  onAccepted() {},
  onRejected() {},
  onTrade() {},
  onCancelled() {},
  onExpired() {},
  onTriggered() {},
  onDelta() {},
};
