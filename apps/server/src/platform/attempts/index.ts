/**
 * Attempt limits that hold under concurrency: count the attempt atomically, then check
 * the secret. See limiter.ts for the contract; db-store.ts and redis-store.ts hold it.
 */
export { DbAttemptStore } from "./db-store.ts";
export {
  type AttemptCounter,
  AttemptLimiter,
  type AttemptPolicy,
  type AttemptStore,
  type AttemptTicket,
  BUSY_RETRY_MS,
  blockMs,
  type OnSuccess,
  PENDING_STALE_MS,
  throttledError,
} from "./limiter.ts";
export { type AttemptRedis, RedisAttemptStore } from "./redis-store.ts";
