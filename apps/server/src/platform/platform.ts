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
}
