import type { FastifyInstance } from "fastify";
import type { Platform } from "../platform/platform.ts";
import { registerFutures, venueBook } from "./futures/index.ts";
import { registerLedger } from "./ledger/index.ts";
import { registerMargin } from "./margin/index.ts";
import { marketVenue, registerPaper } from "./paper/index.ts";

/**
 * The composition root of the trading core: the one place the writer-side services are
 * built and wired. The ledger writer (`modules/ledger`: accounts, group commit, journal,
 * balances and holds, user events) is built first; spot, futures and margin are its
 * peers (spot's orders and trades one of its batch writers) and get it, and each other,
 * as arguments rather than by reading what registered before them. Needs `api.writer` (absent: one process, always
 * the writer) and `api.market` (the books and prices), so it is listed after both.
 */
export async function tradingCoreRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
  const writer = api.hasDecorator("writer") ? api.writer : undefined;
  const venue = marketVenue(api.market);
  const ledgerApi = await registerLedger(api, platform, { writer });
  const ledger = ledgerApi.local;
  const spot = await registerPaper(api, platform, { writer, ledger: ledgerApi, venue });
  const futures = await registerFutures(api, platform, { writer, ledger, book: venueBook(venue) });
  await registerMargin(api, platform, { writer, ledger, spot: spot.local, futures: futures.local });
}
