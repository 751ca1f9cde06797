import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import type { TrackingQueries } from "../tracking/index.ts";
import { TgAppsAdminRepo } from "./admin-repo.ts";
import { TgAppsRepo, type VisitSource } from "./repo.ts";
import { type SessionAuth, tgAppsRoutes } from "./routes.ts";
import { TgAppsService } from "./service.ts";
import { trackedVisits } from "./visits.ts";

export { indexApp } from "./admin-repo.ts";
export { type AppArtworkSubject, appArtworkSubjects, indexAllApps } from "./catalogue.ts";
export { TG_APPS_STORED_HTML } from "./repo.ts";
export { seedTgApps } from "./seed.ts";
export { TgAppsService } from "./service.ts";

/**
 * Builds the service on the platform's database and rate limiter (shared through Redis
 * when set). `visits` replaces the own visit counter in the rankings (see visits.ts).
 */
export function createTgAppsService(
  platform: Pick<Platform, "db" | "rateLimiter">,
  now?: () => number,
  visits?: VisitSource,
): TgAppsService {
  return new TgAppsService({
    repo: new TgAppsRepo(platform.db, now, visits),
    admin: new TgAppsAdminRepo(platform.db),
    limiter: platform.rateLimiter,
    ...(now === undefined ? {} : { now }),
  });
}

export interface TgAppsModuleOptions {
  /** The tracking module's queries once it is open (the rankings count its page views); unset: the own counter. */
  tracking?: () => TrackingQueries | undefined;
  /** Who is logged in on the public pages (ratings, submissions); unset: everyone is anonymous. */
  accounts?: SessionAuth;
}

/**
 * The module entry for `src/modules/index.ts` (after the accounts module: it uses its
 * guards). Rankings read the tracking module's page views once it has registered.
 */
export function tgAppsModule(options: TgAppsModuleOptions = {}) {
  return function registerTgApps(app: FastifyInstance, platform: Platform): void {
    const tracking = options.tracking;
    const visits =
      tracking === undefined
        ? undefined
        : trackedVisits({
            tracking,
            onError: (err) =>
              app.log.warn({ err }, "tg-apps: tracked visits unavailable, using the own counter"),
          });
    tgAppsRoutes(app, createTgAppsService(platform, undefined, visits), options.accounts);
  };
}
