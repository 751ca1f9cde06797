import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { TgAppsAdminRepo } from "./admin-repo.ts";
import { TgAppsRepo, type VisitSource } from "./repo.ts";
import { tgAppsRoutes } from "./routes.ts";
import { TgAppsService } from "./service.ts";
import { trackedVisits } from "./visits.ts";

export { indexApp } from "./admin-repo.ts";
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

/**
 * The module entry for `src/modules/index.ts` (after the accounts module: it uses its
 * guards). Rankings read the tracking module's page views once it has registered.
 */
export function tgAppsModule(app: FastifyInstance, platform: Platform): void {
  const visits = trackedVisits({
    tracking: () => (app.hasDecorator("tracking") ? app.tracking : undefined),
    onError: (err) => app.log.warn({ err }, "tg-apps: tracked visits unavailable, using the own counter"),
  });
  tgAppsRoutes(app, createTgAppsService(platform, undefined, visits));
}
