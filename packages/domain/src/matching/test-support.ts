import { defineInstrument, type InstrumentSpec } from "../instrument.ts";
import { asAsset, asSymbol } from "../units.ts";
import { EventLog } from "./event-log.ts";
import { OrderBook, type OrderBookOptions } from "./order-book.ts";
import type { BookEvent } from "./types.ts";

/** Whole-unit instrument for tests: 1 tick = 1, 1 lot = 1, no minimum notional. */
export function unitSpec(minNotional = "0"): InstrumentSpec {
  const r = defineInstrument({
    symbol: asSymbol("TESTUSD"),
    base: asAsset("TEST"),
    quote: asAsset("USD"),
    tickSize: "1",
    lotSize: "1",
    minNotional,
    maxPrice: "100000",
    maxQty: "1000000",
  });
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
}

export function newBook(
  options: OrderBookOptions = {},
  spec = unitSpec(),
): { book: OrderBook; log: EventLog } {
  const log = new EventLog();
  return { book: new OrderBook(spec, log, options), log };
}

/** Events without the (noisy) depth deltas. */
export const noDeltas = (events: readonly BookEvent[]): BookEvent[] =>
  events.filter((e) => e.type !== "delta");

export const trades = (events: readonly BookEvent[]) =>
  events.flatMap((e) => (e.type === "trade" ? [e] : []));
