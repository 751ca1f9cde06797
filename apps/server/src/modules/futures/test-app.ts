import type { PlatformDb } from "../../platform/db/index.ts";
import type { ModuleRoutes } from "../../platform/platform.ts";
import { type PaperTestApp, paperTestApp } from "../../test/paper.ts";
import { LocalVenue } from "../paper/index.ts";
import { venueBook } from "./book.ts";
import { futuresModule } from "./index.ts";
import type { FuturesService } from "./service.ts";

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
