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
 */
import { createInterface } from "node:readline";
import { priceToTicks, qtyToLots } from "@meridian/domain";
import type { MarketService } from "../modules/market/index.ts";
import { buildTestApp } from "./support.ts";

// A mirror of another upstream when MARKET_FEED says so (bench:feed runs one of each).
process.env.MARKET_FEED ??= "model";
process.env.MARKET_CLOCK = "system";
process.env.MARKET_TICK_MS = process.env.MARKET_TICK_MS ?? "100";
let market: MarketService | undefined;
const app = await buildTestApp({
  routes: async (api) => {
    market = api.market;
  },
});
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
