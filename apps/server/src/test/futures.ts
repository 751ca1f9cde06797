import type { FuturesService } from "../modules/futures/index.ts";
import { futuresModule, venueBook } from "../modules/futures/index.ts";
import { LocalVenue } from "../modules/paper/index.ts";
import type { PlatformDb } from "../platform/db/index.ts";
import type { ModuleRoutes } from "../platform/platform.ts";
import { type PaperTestApp, paperTestApp } from "./paper.ts";

export interface FuturesTestApp extends PaperTestApp {
  futures: FuturesService;
}

/**
 * The paper app with the futures module on `venue`'s books (test marks on), then `more`
 * modules (margin, sub-accounts...). Pass the previous run's venue to restart on it.
 */
export async function futuresTestApp(
  db: PlatformDb,
  venue = new LocalVenue({ ladder: false }),
  more: readonly ModuleRoutes[] = [],
): Promise<FuturesTestApp> {
  let futures: FuturesService | undefined;
  const run = await paperTestApp(db, {
    venue,
    modules: [
      futuresModule({ book: venueBook(venue), testMarks: true, onService: (s) => (futures = s) }),
      ...more,
    ],
  });
  if (futures === undefined) throw new Error("futures module missing");
  return { ...run, futures };
}
