import { OrderBook as PeerBook, Side as PeerSide } from "nodejs-order-book";
import { OP_CANCEL, OP_LIMIT, type Stream } from "./matching-stream.ts";

/**
 * Replays a stream on nodejs-order-book through its own API (`limit`, `market`,
 * `cancel`, string ids). Id strings are built before timing starts.
 */
export function peerRunner(stream: Stream): { book: PeerBook; step: (i: number) => void } {
  const book = new PeerBook();
  const ids: string[] = new Array(stream.n);
  for (let i = 0; i < stream.n; i++) ids[i] = String(stream.id[i]);
  const { op, side, price, qty } = stream;
  const step = (i: number): void => {
    const o = op[i];
    const s = side[i] === 0 ? PeerSide.BUY : PeerSide.SELL;
    if (o === OP_LIMIT) {
      book.limit({ id: ids[i] ?? "", side: s, size: qty[i] ?? 0, price: price[i] ?? 0 });
    } else if (o === OP_CANCEL) {
      book.cancel(ids[i] ?? "");
    } else {
      book.market({ side: s, size: qty[i] ?? 0 });
    }
  };
  return { book, step };
}
