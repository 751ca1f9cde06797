/**
 * Records a mirrored session for the fill model's tests: starts an upstream Meridian
 * (`upstream.ts`, the seeded model feed), mirrors it through ccxt's bitget class as the
 * live feed does, and writes every book (top levels) and trade of one symbol, in ticks
 * and lots, in arrival order, to the file named. Run it again only to replace the
 * recording; the tests read the committed file, so they stay deterministic.
 *
 *   npx node apps/server/src/test/record-mirror-session.ts \
 *     packages/domain/test/fixtures/mirror-session-btcusdt.json 120
 *   npx biome format --write packages/domain/test/fixtures/mirror-session-btcusdt.json
 */
import { writeFileSync } from "node:fs";
import { CcxtFeed, systemClock } from "../modules/market/index.ts";
import { freePort } from "./ports.ts";
import { killUpstream, startUpstream } from "./upstream.ts";

const SYMBOL = "BTCUSDT";
const LEVELS = 5;
const [out, seconds = "120"] = process.argv.slice(2);
if (out === undefined) throw new Error("usage: record-mirror-session.ts <out.json> [seconds]");

type Event =
  | { book: { bids: Array<[number, number]>; asks: Array<[number, number]> } }
  | { trade: [number, number] };

const upstream = await startUpstream(await freePort(), { MARKET_TICK_MS: "250" });
const feed = await CcxtFeed.open({
  exchange: "bitget",
  symbols: [SYMBOL],
  url: upstream.url,
  perps: [],
  clock: systemClock,
  log: { info() {}, warn() {} },
});
const events: Event[] = [];
const stop = feed.start(
  (trades) => {
    for (const t of trades) if (t.symbol === SYMBOL) events.push({ trade: [t.price, t.qty] });
  },
  {
    book: (b) => {
      if (b.symbol !== SYMBOL) return;
      const top = (side: ReadonlyArray<readonly [number, number]>) =>
        side.slice(0, LEVELS).map(([p, q]): [number, number] => [p, q]);
      events.push({ book: { bids: top(b.bids), asks: top(b.asks) } });
    },
  },
);
await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
stop();
await killUpstream(upstream);
const lines = events.map((e) => JSON.stringify(e));
writeFileSync(out, `{"symbol":"${SYMBOL}","events":[\n${lines.join(",\n")}\n]}\n`);
process.stdout.write(`recorded ${events.length} events to ${out}\n`);
process.exit(0);
