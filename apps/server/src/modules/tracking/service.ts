import type {
  AnalyticsAudience,
  AnalyticsContent,
  AnalyticsOverview,
  AnalyticsQuery,
  AnalyticsRealtime,
} from "@meridian/contracts";
import type { TrackingRepo } from "./repo.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Hourly points up to two days, daily beyond: at most ~400 points on the chart. */
export function bucketFor(q: Pick<AnalyticsQuery, "from" | "to">): number {
  return q.to - q.from <= 2 * DAY_MS ? HOUR_MS : DAY_MS;
}

export class AnalyticsService {
  readonly #repo: TrackingRepo;
  readonly #now: () => number;
  readonly #settled: () => Promise<void>;
  /** `settled`: awaited before each answer (events acknowledged but not yet queryable). */
  constructor(repo: TrackingRepo, now: () => number = Date.now, settled = () => Promise.resolve()) {
    this.#repo = repo;
    this.#now = now;
    this.#settled = settled;
  }

  /** The range, the same-length range just before it, and the chart series. */
  async overview(q: AnalyticsQuery): Promise<AnalyticsOverview> {
    await this.#settled();
    const length = q.to - q.from;
    const bucketMs = bucketFor(q);
    const [current, previous, series] = await Promise.all([
      this.#repo.kpis(q, q.from, q.to),
      this.#repo.kpis(q, q.from - length, q.from),
      this.#repo.series(q, bucketMs),
    ]);
    return { current, previous, bucketMs, series };
  }

  async content(q: AnalyticsQuery): Promise<AnalyticsContent> {
    await this.#settled();
    return this.#repo.content(q);
  }

  async audience(q: AnalyticsQuery): Promise<AnalyticsAudience> {
    await this.#settled();
    return this.#repo.audience(q);
  }

  async realtime(lang: number | undefined): Promise<AnalyticsRealtime> {
    await this.#settled();
    return this.#repo.realtime(this.#now(), lang);
  }
}
