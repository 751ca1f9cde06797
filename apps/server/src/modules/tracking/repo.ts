import type {
  AnalyticsAudience,
  AnalyticsContent,
  AnalyticsCount,
  AnalyticsKpis,
  AnalyticsOverview,
  AnalyticsQuery,
  AnalyticsRealtime,
} from "@meridian/contracts";
import type { Queryable, SqlValue } from "../../platform/db/types.ts";

/**
 * Dashboard aggregates, computed by SQL that reads the same on SQLite and PostgreSQL
 * (integer bucket arithmetic, CASE sums, GROUP BY ordinals). Bots never count.
 *
 * NOTE: counts come back as numbers, except PostgreSQL's SUM over BIGINT (numeric, a
 * string): `num` reads both.
 */
const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

const PAGE_VIEW = "type = 1 AND page_status = 0";
const TOP = 20;

interface Range {
  sql: string;
  params: SqlValue[];
}

const DAY_MS = 86_400_000;

/**
 * Events of [from, to). The `event_day` bounds (the UTC days of `ts`, first column of the
 * unique key) find the rows through that index (SQLite keeps no index on `ts`: one
 * index less to maintain per insert) and let PostgreSQL skip other partitions.
 */
function range(q: AnalyticsQuery, from = q.from, to = q.to): Range {
  const params: SqlValue[] = [Math.floor(from / DAY_MS), Math.floor((to - 1) / DAY_MS), from, to];
  let sql = "event_day >= ? AND event_day <= ? AND ts >= ? AND ts < ? AND is_bot = 0";
  if (q.lang !== undefined) {
    sql += " AND user_language = ?";
    params.push(q.lang);
  }
  return { sql, params };
}

export class TrackingRepo {
  readonly #db: Queryable;
  constructor(db: Queryable) {
    this.#db = db;
  }

  async kpis(q: AnalyticsQuery, from: number, to: number): Promise<AnalyticsKpis> {
    const r = range(q, from, to);
    const totals = await this.#db.get<Record<string, unknown>>(
      `SELECT COUNT(DISTINCT device_id) AS visitors, COUNT(DISTINCT session_id) AS sessions,
         SUM(CASE WHEN ${PAGE_VIEW} THEN 1 ELSE 0 END) AS page_views,
         COUNT(DISTINCT CASE WHEN first_day = 1 THEN device_id END) AS first_day_visitors,
         SUM(duration) AS duration
       FROM tracking_events WHERE ${r.sql}`,
      r.params,
    );
    const bounce = await this.#db.get<Record<string, unknown>>(
      `SELECT COUNT(*) AS sessions, SUM(CASE WHEN views = 1 THEN 1 ELSE 0 END) AS bounced FROM (
         SELECT session_id, SUM(CASE WHEN ${PAGE_VIEW} THEN 1 ELSE 0 END) AS views
         FROM tracking_events WHERE ${r.sql} GROUP BY session_id
       ) s WHERE views > 0`,
      r.params,
    );
    const sessions = num(totals?.sessions);
    const viewed = num(bounce?.sessions);
    return {
      visitors: num(totals?.visitors),
      sessions,
      pageViews: num(totals?.page_views),
      firstDayVisitors: num(totals?.first_day_visitors),
      bounceRate: viewed === 0 ? 0 : num(bounce?.bounced) / viewed,
      avgSessionMs: sessions === 0 ? 0 : Math.round(num(totals?.duration) / sessions),
    };
  }

  async series(q: AnalyticsQuery, bucketMs: number): Promise<AnalyticsOverview["series"]> {
    const r = range(q);
    const rows = await this.#db.all<Record<string, unknown>>(
      `SELECT (ts / CAST(? AS BIGINT)) * CAST(? AS BIGINT) AS t,
         SUM(CASE WHEN ${PAGE_VIEW} THEN 1 ELSE 0 END) AS page_views,
         COUNT(DISTINCT device_id) AS visitors, COUNT(DISTINCT session_id) AS sessions
       FROM tracking_events WHERE ${r.sql} GROUP BY 1 ORDER BY 1`,
      [bucketMs, bucketMs, ...r.params],
    );
    return rows.map((row) => ({
      t: num(row.t),
      pageViews: num(row.page_views),
      visitors: num(row.visitors),
      sessions: num(row.sessions),
    }));
  }

  async content(q: AnalyticsQuery): Promise<AnalyticsContent> {
    const r = range(q);
    const pages = await this.#db.all<Record<string, unknown>>(
      `SELECT path, COUNT(*) AS views, COUNT(DISTINCT device_id) AS visitors
       FROM tracking_events WHERE ${r.sql} AND ${PAGE_VIEW}
       GROUP BY path ORDER BY 2 DESC, 1 LIMIT ${TOP}`,
      r.params,
    );
    const ids = await this.#db.all<Record<string, unknown>>(
      `SELECT curr_page AS id, COUNT(*) AS views, COUNT(DISTINCT device_id) AS visitors
       FROM tracking_events WHERE ${r.sql} AND ${PAGE_VIEW} AND curr_page <> '/'
       GROUP BY curr_page ORDER BY 2 DESC, 1 LIMIT ${TOP}`,
      r.params,
    );
    const elements = await this.#db.all<Record<string, unknown>>(
      `SELECT event_tracking_id AS id, SUM(CASE WHEN type = 3 THEN 1 ELSE 0 END) AS exposes,
         SUM(CASE WHEN type = 2 THEN 1 ELSE 0 END) AS clicks
       FROM tracking_events WHERE ${r.sql} AND type IN (2, 3) AND event_tracking_id <> '/'
       GROUP BY event_tracking_id ORDER BY 2 DESC, 3 DESC, 1 LIMIT 50`,
      r.params,
    );
    return {
      pages: pages.map((row) => ({
        path: String(row.path),
        views: num(row.views),
        visitors: num(row.visitors),
      })),
      trackingIds: ids.map((row) => ({
        id: String(row.id),
        views: num(row.views),
        visitors: num(row.visitors),
      })),
      elements: elements.map((row) => {
        const exposes = num(row.exposes);
        const clicks = num(row.clicks);
        return { id: String(row.id), exposes, clicks, rate: exposes === 0 ? null : clicks / exposes };
      }),
    };
  }

  async #visitorsBy(q: AnalyticsQuery, columns: string): Promise<Record<string, unknown>[]> {
    const r = range(q);
    return this.#db.all<Record<string, unknown>>(
      `SELECT ${columns}, COUNT(DISTINCT device_id) AS visitors
       FROM tracking_events WHERE ${r.sql} AND ${PAGE_VIEW}
       GROUP BY ${columns} ORDER BY visitors DESC, ${columns} LIMIT 10`,
      r.params,
    );
  }

  async audience(q: AnalyticsQuery): Promise<AnalyticsAudience> {
    const counted = (
      rows: Record<string, unknown>[],
      key: (row: Record<string, unknown>) => string,
    ): AnalyticsCount[] => rows.map((row) => ({ key: key(row), count: num(row.visitors) }));
    const [referrers, languages, devices, browsers, screens] = await Promise.all([
      this.#visitorsBy(q, "ref_host"),
      this.#visitorsBy(q, "user_language"),
      this.#visitorsBy(q, "sys"),
      this.#visitorsBy(q, "browser"),
      this.#visitorsBy(q, "screen_width, screen_height"),
    ]);
    return {
      referrers: counted(referrers, (row) => String(row.ref_host)),
      languages: counted(languages, (row) => String(row.user_language)),
      devices: counted(devices, (row) => String(row.sys)),
      browsers: counted(browsers, (row) => String(row.browser)),
      screens: counted(screens, (row) => `${num(row.screen_width)}x${num(row.screen_height)}`),
    };
  }

  /** By server receive time (client clocks drift); `event_day` and `ts` bound the scan to the index. */
  async realtime(now: number, lang: number | undefined): Promise<AnalyticsRealtime> {
    const since = now - 30 * 60_000;
    const from = since - 24 * 3_600_000;
    const params: SqlValue[] = [Math.floor(from / DAY_MS), from, since];
    let where = "event_day >= ? AND ts >= ? AND received_at >= ? AND is_bot = 0";
    if (lang !== undefined) {
      where += " AND user_language = ?";
      params.push(lang);
    }
    const totals = await this.#db.get<Record<string, unknown>>(
      `SELECT COUNT(DISTINCT device_id) AS visitors, SUM(CASE WHEN ${PAGE_VIEW} THEN 1 ELSE 0 END) AS page_views
       FROM tracking_events WHERE ${where}`,
      params,
    );
    const perMinute = await this.#db.all<Record<string, unknown>>(
      `SELECT (received_at / 60000) * 60000 AS t, SUM(CASE WHEN ${PAGE_VIEW} THEN 1 ELSE 0 END) AS page_views,
         COUNT(DISTINCT device_id) AS visitors
       FROM tracking_events WHERE ${where} GROUP BY 1 ORDER BY 1`,
      params,
    );
    const pages = await this.#db.all<Record<string, unknown>>(
      `SELECT path, COUNT(*) AS views FROM tracking_events WHERE ${where} AND ${PAGE_VIEW}
       GROUP BY path ORDER BY 2 DESC, 1 LIMIT 10`,
      params,
    );
    return {
      since,
      visitors: num(totals?.visitors),
      pageViews: num(totals?.page_views),
      perMinute: perMinute.map((row) => ({
        t: num(row.t),
        pageViews: num(row.page_views),
        visitors: num(row.visitors),
      })),
      pages: pages.map((row) => ({ path: String(row.path), views: num(row.views) })),
    };
  }
}
