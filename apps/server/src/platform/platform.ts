import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import type { Config } from "./config.ts";
import type { PlatformDb } from "./db/index.ts";
import type { RateLimiter } from "./rate-limit.ts";

/** The shared services every module's routes receive. */
export interface Platform {
  config: Config;
  db: PlatformDb;
  /** Present only when REDIS_URL is set. */
  redis: Redis | undefined;
  rateLimiter: RateLimiter;
  /**
   * The environment modules read: the process's, plus what instances on this database
   * share through it when the process's leaves it unset (`moduleSharedEnv`).
   */
  env: NodeJS.ProcessEnv;
}

/**
 * Registers one module's routes on the `/v1` scope (full `/v1/...` URLs). Listed in
 * `src/modules/index.ts`.
 */
export type ModuleRoutes = (app: FastifyInstance, platform: Platform) => void | Promise<void>;
