import type { Asset, InstrumentSpec, Symbol as InstrumentSymbol } from "@meridian/domain";
import {
  asLots,
  asTicks,
  type BookListener,
  defineInstrument,
  NULL_LISTENER,
  OrderBook,
  Prng,
  Stp,
  Tif,
} from "@meridian/domain";

export const OP_LIMIT = 0;
export const OP_MARKET = 1;
export const OP_CANCEL = 2;

/** A pre-generated operation stream in flat typed arrays (nothing allocated while replaying). */
export interface Stream {
  readonly name: string;
  readonly levels: number;
  readonly n: number;
  readonly op: Uint8Array;
  readonly side: Uint8Array;
  /** Limit price in ticks (limit only). */
  readonly price: Float64Array;
  /** Quantity in lots (limit and market). */
  readonly qty: Float64Array;
  /** New order id (limit, market) or the id to cancel. */
  readonly id: Float64Array;
  /** Cancels that found their order still live when generated. */
  readonly liveCancels: number;
}

export const MID = 1_000_000;

export function benchSpec(): InstrumentSpec {
  const spec = defineInstrument({
    symbol: "BTCUSDT" as InstrumentSymbol,
    base: "BTC" as Asset,
    quote: "USDT" as Asset,
    tickSize: "0.01",
    lotSize: "0.001",
    minNotional: "0",
  });
  if (!spec.ok) throw new Error(`bench spec invalid: ${spec.error.code}`);
  return spec.value;
}

/**
 * A seeded stream: 70 % limit, 10 % market, 20 % cancel of a live order. Buy limits
 * fall in [MID - halfWidth, MID + cross] and sell limits in [MID - cross, MID + halfWidth],
 * so the book spans about 2 x halfWidth levels and a few limits cross and take.
 * Which orders are live is known by replaying the stream on our engine while
 * generating it; the peer sees the identical stream, and as both are price-time
 * books with no self-trade (every order has its own account) the live sets agree.
 */
export function generateStream(name: string, levels: number, n: number, seed: number): Stream {
  const rng = new Prng(seed);
  const halfWidth = Math.floor(levels / 2);
  const cross = Math.max(1, Math.floor(halfWidth / 50));
  const op = new Uint8Array(n);
  const side = new Uint8Array(n);
  const price = new Float64Array(n);
  const qty = new Float64Array(n);
  const id = new Float64Array(n);

  const live: number[] = [];
  const slot = new Map<number, number>();
  const drop = (orderId: number): void => {
    const at = slot.get(orderId);
    if (at === undefined) return;
    const lastId = live.pop();
    if (lastId !== undefined && lastId !== orderId) {
      live[at] = lastId;
      slot.set(lastId, at);
    }
    slot.delete(orderId);
  };
  const tracker: BookListener = {
    ...NULL_LISTENER,
    onTrade(_s, makerId, _t, _p, _q, _side, makerLeft) {
      if (makerLeft === 0) drop(makerId);
    },
  };
  const book = new OrderBook(benchSpec(), tracker);
  let nextId = 1;
  let liveCancels = 0;
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    const s = rng.nextU32() & 1;
    side[i] = s;
    if (r < 0.7 || (r >= 0.8 && live.length === 0)) {
      const oid = nextId++;
      const offset = rng.int(-cross, halfWidth - 1);
      const p = s === 0 ? MID - offset : MID + offset;
      const q = rng.int(1, 100);
      op[i] = OP_LIMIT;
      price[i] = p;
      qty[i] = q;
      id[i] = oid;
      book.limit(oid, oid, s as 0 | 1, asTicks(p), asLots(q), Tif.GTC, Stp.ExpireMaker, i);
      if (book.has(oid)) {
        slot.set(oid, live.length);
        live.push(oid);
      }
    } else if (r < 0.8) {
      const oid = nextId++;
      const q = rng.int(1, 200);
      op[i] = OP_MARKET;
      qty[i] = q;
      id[i] = oid;
      book.market(oid, oid, s as 0 | 1, asLots(q), Stp.ExpireMaker, i);
    } else {
      const target = live[rng.int(0, live.length - 1)] ?? 0;
      op[i] = OP_CANCEL;
      id[i] = target;
      if (book.has(target)) liveCancels++;
      book.cancel(target, i);
      drop(target);
    }
  }
  return { name, levels, n, op, side, price, qty, id, liveCancels };
}
