/**
 * A Meridian process standing in for a public exchange: every module, the model feed (or
 * the MARKET_FEED given) on
 * the system clock, listening on `PORT` (0: any) at 127.0.0.1. It prints its base URL
 * as one line `upstream <url>` once it listens. The live feed's tests mirror it through
 * ccxt's `bitget` class (Meridian speaks Bitget's v2 REST and WebSocket).
 *
 * Its standard input takes test prints, one per line: `trade <symbol> <price> <qty>`
 * prints a market trade there, as the feed would (the fill-model tests script the
 * upstream's trades this way); each is answered `printed <line>` on stdout.
 * `UPSTREAM_DEMO_DATA=true` seeds the demo content, so the upstream also lists the
 * pairs of the demo airdrops' tokens that have listed.
 *
 * `UPSTREAM_BOOK_CHURN=true` (bench:feed): after each tick every pair that traded has one
 * deep level per side resized (an order of the maker's account alternating between one
 * and two lots, twenty levels from the touch), as a real exchange's book changes between
 * trades. The model's ladder moves only when the price moves a tick, so without it most
 * ticks publish no book update and the upstream, not the mirror, limits bench:feed's rate.
 * Self-trade prevention keeps it out of every trade (it rests on the maker's account).
 */
import { createInterface } from "node:readline";
import { asLots, priceToTicks, qtyToLots, Side, Stp, Tif } from "@meridian/domain";
import { MAKER_ACCOUNT, type MarketService } from "../modules/market/index.ts";
import { buildTestApp, testConfig } from "./support.ts";

// A mirror of another upstream when MARKET_FEED says so (bench:feed runs one of each).
process.env.MARKET_FEED ??= "model";
process.env.MARKET_CLOCK = "system";
process.env.MARKET_TICK_MS = process.env.MARKET_TICK_MS ?? "100";
let market: MarketService | undefined;
const app = await buildTestApp({
  ...(process.env.UPSTREAM_DEMO_DATA === "true" ? { config: testConfig({ SEED_DEMO_DATA: "true" }) } : {}),
  routes: async (api) => {
    market = api.market;
  },
});
if (process.env.UPSTREAM_BOOK_CHURN === "true" && market !== undefined) churnBooks(market);
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
process.stdout.write(`upstream ${address.replace("localhost", "127.0.0.1")}\n`);
createInterface({ input: process.stdin }).on("line", (line) => {
  const [verb, symbol = "", price = "", qty = ""] = line.trim().split(/\s+/);
  const spec = market?.spec(symbol);
  const ticks = spec === undefined ? undefined : priceToTicks(spec, price);
  const lots = spec === undefined ? undefined : qtyToLots(spec, qty);
  const ok =
    verb === "trade" &&
    ticks?.ok === true &&
    lots?.ok === true &&
    market?.printTrade(symbol, ticks.value, lots.value) === true;
  process.stdout.write(`${ok ? "printed" : "refused"} ${line}\n`);
});
const stop = () => void app.close().finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

/** Resizes a deep level per side of each pair that traded (see the header). */
function churnBooks(m: MarketService): void {
  const CHURN_DEPTH = 20;
  // Far above the maker's own ids (2^50 upwards) and any database id.
  let nextId = 2 ** 52;
  const resting = new Map<string, { ids: number[]; lots: number }>();
  m.onUpdate((update) => {
    const now = Date.now();
    for (const symbol of update.trades.keys()) {
      const book = m.book(symbol)?.book;
      if (book === undefined) continue;
      const prev = resting.get(symbol) ?? { ids: [], lots: 2 };
      for (const id of prev.ids) if (book.has(id)) book.cancel(id, now);
      const step = prev.lots === 1 ? 2 : 1;
      const ids: number[] = [];
      for (const side of [Side.Buy, Side.Sell]) {
        const level = book.depth(side, CHURN_DEPTH)[CHURN_DEPTH - 1];
        if (level === undefined) continue;
        const id = nextId++;
        // The smallest order the pair takes there, plus one lot every other tick.
        const least = Math.max(book.spec.minQtyLots, Math.ceil(book.spec.minNotionalUnits / level[0]));
        book.limit(
          id,
          MAKER_ACCOUNT,
          side,
          level[0],
          asLots(least + step - 1),
          Tif.GTC,
          Stp.ExpireTaker,
          now,
        );
        ids.push(id);
      }
      resting.set(symbol, { ids, lots: step });
    }
  });
}
