import type { FastifyInstance } from "fastify";
import type { Seed } from "../../platform/db/seed.ts";
import type { Platform } from "../../platform/platform.ts";
import { TgAppsAdminRepo } from "./admin-repo.ts";
import { TgAppsRepo } from "./repo.ts";
import { tgAppsRoutes } from "./routes.ts";
import { seedTgApps } from "./seed.ts";
import { TgAppsService } from "./service.ts";

export { TgAppsService } from "./service.ts";

/** Builds the service on the platform's database and rate limiter (shared through Redis when set). */
export function createTgAppsService(
  platform: Pick<Platform, "db" | "rateLimiter">,
  now?: () => number,
): TgAppsService {
  return new TgAppsService({
    repo: new TgAppsRepo(platform.db, now),
    admin: new TgAppsAdminRepo(platform.db),
    limiter: platform.rateLimiter,
    ...(now === undefined ? {} : { now }),
  });
}

/** The module entry for `src/modules/index.ts` (after the accounts module: it uses its guards). */
export function tgAppsModule(app: FastifyInstance, platform: Platform): void {
  tgAppsRoutes(app, createTgAppsService(platform));
}

/** Demo data: 60+ apps over every category, 20+ articles, ratings and visits. */
export const tgAppsSeed: Seed = {
  name: "tg-apps",
  version: 1,
  seed: (db) => seedTgApps(db),
};
