/**
 * A Meridian process standing in for a public exchange: every module, the model feed (or
 * the MARKET_FEED given) on
 * the system clock, listening on `PORT` (0: any) at 127.0.0.1. It prints its base URL
 * as one line `upstream <url>` once it listens. The live feed's tests mirror it through
 * ccxt's `bitget` class (Meridian speaks Bitget's v2 REST and WebSocket).
 */
import { buildTestApp } from "./support.ts";

// A mirror of another upstream when MARKET_FEED says so (bench:feed runs one of each).
process.env.MARKET_FEED ??= "model";
process.env.MARKET_CLOCK = "system";
process.env.MARKET_TICK_MS = process.env.MARKET_TICK_MS ?? "100";
const app = await buildTestApp();
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
process.stdout.write(`upstream ${address.replace("localhost", "127.0.0.1")}\n`);
const stop = () => void app.close().finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
