import {
  type AnalyticsAudience,
  type AnalyticsContent,
  type AnalyticsOverview,
  type AnalyticsRealtime,
  Code,
  TRACK_LANGUAGES,
} from "@meridian/contracts";
import type { ServerContext } from "../../server-context.ts";
import { type DashboardFilters, toQuery } from "./range.ts";

export interface DashboardData {
  overview: AnalyticsOverview;
  content: AnalyticsContent;
  audience: AnalyticsAudience;
  realtime: AnalyticsRealtime;
}

export type DashboardAnswer = { ok: true; data: DashboardData } | { ok: false; status: 401 | 403 | 503 };

/**
 * The four aggregate calls, answered in-process. Only aggregates cross to the browser:
 * the API never returns event rows.
 */
export async function loadDashboard(
  server: ServerContext | undefined,
  filters: DashboardFilters,
): Promise<DashboardAnswer> {
  if (!server) return { ok: false, status: 503 };
  const q = toQuery(filters);
  const lang = TRACK_LANGUAGES[filters.lang];
  const [overview, content, audience, realtime] = await Promise.all([
    server.api<AnalyticsOverview>(`/v1/analytics/overview?${q}`),
    server.api<AnalyticsContent>(`/v1/analytics/content?${q}`),
    server.api<AnalyticsAudience>(`/v1/analytics/audience?${q}`),
    server.api<AnalyticsRealtime>(`/v1/analytics/realtime${lang === undefined ? "" : `?lang=${lang}`}`),
  ]);
  for (const answer of [overview, content, audience, realtime]) {
    if (answer.code === Code.FORBIDDEN) return { ok: false, status: 403 };
    if (answer.code !== Code.OK) return { ok: false, status: 401 };
  }
  return {
    ok: true,
    data: {
      overview: overview.data,
      content: content.data,
      audience: audience.data,
      realtime: realtime.data,
    },
  };
}
