/**
 * Our engine alone on one bench:matching stream, for profiling the hot path:
 *   npx node --cpu-prof --cpu-prof-dir=/tmp/prof bench/matching-profile.ts
 * LEVELS=170 selects the crowded shape (default 10000, the sparse one).
 */
import { type Lots, NULL_LISTENER, OrderBook, Stp, type Ticks, Tif } from "@meridian/domain";
import { benchSpec, generateStream, OP_CANCEL, OP_LIMIT } from "./matching-stream.ts";

const levels = Number(process.env.LEVELS ?? 10_000);
const n = Number(process.env.MATCHING_OPS ?? 1_000_000);
const stream = generateStream("profile", levels, n, 20_240_607 + levels);
const { op, side, price, qty, id } = stream;
for (let pass = 0; pass < 3; pass++) {
  const book = new OrderBook(benchSpec(), NULL_LISTENER);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const oid = id[i] ?? 0;
    const s = side[i] === 0 ? 0 : 1;
    if (op[i] === OP_LIMIT)
      book.limit(oid, oid, s, (price[i] ?? 0) as Ticks, (qty[i] ?? 0) as Lots, Tif.GTC, Stp.ExpireMaker, i);
    else if (op[i] === OP_CANCEL) book.cancel(oid, i);
    else book.market(oid, oid, s, (qty[i] ?? 0) as Lots, Stp.ExpireMaker, i);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`pass ${pass}: ${Math.round(n / seconds).toLocaleString("en-US")} ops/s, ${book.size} resting`);
}
