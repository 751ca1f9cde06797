import { TRACK_LANGUAGES } from "@meridian/contracts";

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The dashboard's filters as the URL carries them (`?from=2026-11-01&to=2026-11-07&lang=ja`). */
export interface DashboardFilters {
  /** First day shown (UTC, inclusive), `YYYY-MM-DD`. */
  from: string;
  /** Last day shown (UTC, inclusive), `YYYY-MM-DD`. */
  to: string;
  /** A locale code of the tracking language table, or "" for all. */
  lang: string;
}

export const dayString = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** Filters from the search params: the last 7 days by default; a range is 1 to 366 days. */
export function readFilters(params: URLSearchParams, now: number): DashboardFilters {
  const today = dayString(now);
  let to = params.get("to") ?? "";
  let from = params.get("from") ?? "";
  if (!DATE.test(to) || Number.isNaN(dayStart(to))) to = today;
  if (!DATE.test(from) || Number.isNaN(dayStart(from)) || dayStart(from) > dayStart(to)) {
    from = dayString(dayStart(to) - 6 * DAY_MS);
  }
  if (dayStart(to) - dayStart(from) > 365 * DAY_MS) from = dayString(dayStart(to) - 365 * DAY_MS);
  const lang = params.get("lang") ?? "";
  return { from, to, lang: lang in TRACK_LANGUAGES ? lang : "" };
}

/** The API query of some filters: `[from 00:00, day after to 00:00)` in ms. */
export function toQuery(filters: DashboardFilters): string {
  const q = new URLSearchParams({
    from: String(dayStart(filters.from)),
    to: String(dayStart(filters.to) + DAY_MS),
  });
  const lang = TRACK_LANGUAGES[filters.lang];
  if (lang !== undefined) q.set("lang", String(lang));
  return q.toString();
}

/** Locale code of a `user_language` number ("0" -> "en"). */
export function languageName(value: string): string {
  const n = Number(value);
  return Object.entries(TRACK_LANGUAGES).find(([, v]) => v === n)?.[0] ?? value;
}

/** Relative change against the previous period; null when there was nothing before. */
export function change(current: number, previous: number): number | null {
  return previous === 0 ? null : (current - previous) / previous;
}
