import type { FastifyInstance } from "fastify";
import type { Platform } from "../platform/platform.ts";
import { registerFutures, venueBook } from "./futures/index.ts";
import { registerMargin } from "./margin/index.ts";
import { marketVenue, registerPaper } from "./paper/index.ts";

/**
 * The composition root of the trading core: the one place the writer-side services are
 * built and wired. Spot (`paper`) is built first because its engine holds the ledger
 * writer (`modules/ledger`: group commit, journal, balances and holds, user events);
 * futures and margin are its peers and get it, and each other, as arguments rather than
 * by reading what registered before them. Needs `api.writer` (absent: one process, always
 * the writer) and `api.market` (the books and prices), so it is listed after both.
 */
export async function tradingCoreRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
  const writer = api.hasDecorator("writer") ? api.writer : undefined;
  const venue = marketVenue(api.market);
  const spot = await registerPaper(api, platform, { writer, venue });
  const ledger = spot.local;
  const futures = await registerFutures(api, platform, { writer, ledger, book: venueBook(venue) });
  await registerMargin(api, platform, { writer, ledger, spot: spot.local, futures: futures.local });
}
