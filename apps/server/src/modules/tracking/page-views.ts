import { parseLocalePath } from "@meridian/contracts/locales";
import type { Queryable, SqlValue } from "../../platform/db/types.ts";
import { dayOf } from "./maintenance.ts";

export interface PageViewQuery {
  /** Only events of this tracking id (`b9331`: an app's detail page). */
  trackingId?: string;
  /** End of the window, exclusive (default: no end). */
  untilMs?: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Page views (type page, shown; bots left out) since `sinceMs` of paths under `prefix`,
 * counted per path without its language prefix: `/ja/telegram-apps/catizen` and
 * `/telegram-apps/catizen` are one page. `prefix` is an unprefixed path such as
 * `/telegram-apps/`. Other modules read visits through this rather than the table.
 *
 * NOTE: the stored `path` keeps the language segment the visitor used, so the SQL takes
 * `prefix%` and `/<one segment>prefix%`, and the locale table decides which first
 * segments are languages. The `event_day` bound lets PostgreSQL skip older partitions.
 */
export async function pageViewsByPathPrefix(
  db: Queryable,
  prefix: string,
  sinceMs: number,
  query: PageViewQuery = {},
): Promise<Map<string, number>> {
  const pattern = `${escapeLike(prefix)}%`;
  const params: SqlValue[] = [dayOf(sinceMs), sinceMs, pattern, `/%${pattern}`];
  let where = `event_day >= ? AND ts >= ? AND type = 1 AND page_status = 0 AND is_bot = 0
    AND (path LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\')`;
  if (query.untilMs !== undefined) {
    where += " AND ts < ?";
    params.push(query.untilMs);
  }
  if (query.trackingId !== undefined) {
    where += " AND event_tracking_id = ?";
    params.push(query.trackingId);
  }
  const rows = await db.all<{ path: string; views: number | string }>(
    `SELECT path, COUNT(*) AS views FROM tracking_events WHERE ${where} GROUP BY path`,
    params,
  );
  const out = new Map<string, number>();
  for (const row of rows) {
    const { rest } = parseLocalePath(row.path);
    if (!rest.startsWith(prefix)) continue;
    out.set(rest, (out.get(rest) ?? 0) + Number(row.views));
  }
  return out;
}
