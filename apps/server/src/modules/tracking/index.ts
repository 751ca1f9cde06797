import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { loadTrackingConfig, type TrackingConfig } from "./config.ts";
import { ensurePartitions, purgeOldEvents } from "./maintenance.ts";
import { type PageViewQuery, pageViewsByPathPrefix } from "./page-views.ts";
import { TrackingRepo } from "./repo.ts";
import { trackingRoutes } from "./routes.ts";
import { AnalyticsService } from "./service.ts";
import { openTrackingStore, type TrackingStore } from "./store.ts";

export { loadTrackingConfig } from "./config.ts";
export { type PageViewQuery, pageViewsByPathPrefix } from "./page-views.ts";
export { openTrackingStore, type TrackingStore } from "./store.ts";

/** What other modules may read from the tracking store (the root hands it to them: `onQueries`). */
export interface TrackingQueries {
  /** See `pageViewsByPathPrefix`: page views per unprefixed path under `prefix` since `sinceMs`. */
  pageViewsByPathPrefix(prefix: string, sinceMs: number, query?: PageViewQuery): Promise<Map<string, number>>;
}

const JOB_EVERY_MS = 3_600_000;

export interface TrackingModuleOptions {
  /** The logged-in user of a request that needs no login (the accounts module's `sessionUserOf`). */
  sessionUser: (request: FastifyRequest) => Promise<string | undefined>;
  config?: TrackingConfig;
  /** The SQLite tracking file (default `tracking.db` beside the platform database). */
  file?: string;
  now?: () => number;
  /** Called with the open store (tests read the stored rows through it). */
  onStore?: (store: TrackingStore) => void;
  /** Called with the queries other modules read (the composition root passes them on). */
  onQueries?: (queries: TrackingQueries) => void;
}

/**
 * The tracking module (`src/modules/index.ts`): opens the event store, runs its
 * migrations, keeps partitions ahead and old days out (at start, then hourly), and
 * registers ingest and dashboard routes.
 */
export function trackingModule(options: TrackingModuleOptions) {
  return async function registerTracking(api: FastifyInstance, platform: Platform): Promise<void> {
    const config = options.config ?? loadTrackingConfig();
    const now = options.now ?? Date.now;
    const store = await openTrackingStore(platform.db, config, options.file, {
      onExpandError: (message) => api.log.error(message),
    });
    options.onStore?.(store);
    const maintain = async () => {
      await ensurePartitions(store.db, now(), config.partitionDaysAhead);
      await purgeOldEvents(store.db, store.sink, now(), config.retentionDays);
    };
    try {
      await ensurePartitions(store.db, now(), config.partitionDaysAhead);
    } catch (error) {
      await store.close();
      throw error;
    }
    let running: Promise<void> | undefined;
    const tick = () => {
      running ??= maintain()
        .catch((err: unknown) => api.log.error({ err }, "tracking maintenance failed"))
        .finally(() => {
          running = undefined;
        });
    };
    const timer = setInterval(tick, JOB_EVERY_MS);
    timer.unref();
    tick();
    api.addHook("onClose", async () => {
      clearInterval(timer);
      await running;
      await store.close();
    });
    options.onQueries?.({
      pageViewsByPathPrefix: async (prefix: string, sinceMs: number, query?: PageViewQuery) => {
        await store.sink.settled();
        return pageViewsByPathPrefix(store.db, prefix, sinceMs, query);
      },
    });
    trackingRoutes(api, {
      config,
      sink: store.sink,
      // every figure counts the events acknowledged before the request (see EventSink.settled)
      analytics: new AnalyticsService(new TrackingRepo(store.db), now, () => store.sink.settled()),
      now,
      sessionUser: options.sessionUser,
    });
  };
}
