import { LocalVenue } from "../modules/paper/index.ts";
import type { PlatformDb } from "../platform/db/index.ts";
import type { ModuleRoutes } from "../platform/platform.ts";
import { type PaperTestApp, paperTestApp } from "./paper.ts";

export type FuturesTestApp = PaperTestApp;

/**
 * The paper app with futures' test marks on, on `venue`'s books, then `more` modules.
 * Pass the previous run's venue to restart on it.
 */
export function futuresTestApp(
  db: PlatformDb,
  venue = new LocalVenue({ ladder: false }),
  more: readonly ModuleRoutes[] = [],
): Promise<FuturesTestApp> {
  return paperTestApp(db, { venue, core: { futures: { testMarks: true } }, modules: more });
}
