import { TG_APP_RANKING } from "@meridian/contracts";
import type { TrackingQueries } from "../tracking/index.ts";
import type { VisitCounts, VisitSource } from "./repo.ts";

const DAY_MS = 86_400_000;
/** Rankings may lag the tracker by this much; one tracking query per window instead of per page view. */
export const TRACKED_VISITS_TTL_MS = 60_000;
/** The detail page `/telegram-apps/<slug>` (docs/product.md §2: tracking id b9331). */
const DETAIL_PREFIX = "/telegram-apps/";
const DETAIL_TRACKING_ID = "b9331";

export interface TrackedVisitsOptions {
  /** The tracking module's queries, read lazily: it registers after this module. */
  tracking: () => TrackingQueries | undefined;
  now?: () => number;
  /** Told when the tracker cannot be read (the own counter is used meanwhile). */
  onError?: (err: unknown) => void;
}

/**
 * Visits for the rankings from the tracker's page views of each app's detail page, over
 * the same UTC-day windows as the own counter (today and the 6 or 29 days before). Undefined
 * (so the repo falls back to `tg_app_visits`) when the tracking module is absent, fails,
 * or has recorded no detail-page view in the hot window yet, as on a fresh install.
 */
export function trackedVisits(options: TrackedVisitsOptions): VisitSource {
  const now = options.now ?? Date.now;
  let cached: { at: number; value: Promise<ReadonlyMap<string, VisitCounts> | undefined> } | undefined;

  const load = async (at: number): Promise<ReadonlyMap<string, VisitCounts> | undefined> => {
    const tracking = options.tracking();
    if (tracking === undefined) return undefined;
    const today = Math.floor(at / DAY_MS);
    const since = (days: number) => (today - (days - 1)) * DAY_MS;
    const query = { trackingId: DETAIL_TRACKING_ID };
    try {
      const [week, month] = await Promise.all([
        tracking.pageViewsByPathPrefix(DETAIL_PREFIX, since(TG_APP_RANKING.TRENDING_DAYS), query),
        tracking.pageViewsByPathPrefix(DETAIL_PREFIX, since(TG_APP_RANKING.HOT_DAYS), query),
      ]);
      const out = new Map<string, VisitCounts>();
      for (const [path, views] of month) {
        const slug = path.slice(DETAIL_PREFIX.length);
        if (slug === "" || slug.includes("/")) continue;
        out.set(slug, { v7: week.get(path) ?? 0, v30: views });
      }
      return out.size === 0 ? undefined : out;
    } catch (err) {
      options.onError?.(err);
      return undefined;
    }
  };

  return () => {
    const at = now();
    if (cached === undefined || at - cached.at >= TRACKED_VISITS_TTL_MS) cached = { at, value: load(at) };
    return cached.value;
  };
}
