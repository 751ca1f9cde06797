import { describe, expect, it, vi } from "vitest";
import type { TrackingQueries } from "../tracking/index.ts";
import { TRACKED_VISITS_TTL_MS, trackedVisits } from "./visits.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 15);

function tracker(week: Record<string, number>, month: Record<string, number>) {
  const calls: { prefix: string; since: number; trackingId?: string | undefined }[] = [];
  const queries: TrackingQueries = {
    pageViewsByPathPrefix: async (prefix, since, query) => {
      calls.push({ prefix, since, trackingId: query?.trackingId });
      const today = Math.floor(NOW / DAY);
      return new Map(Object.entries(since === (today - 6) * DAY ? week : month));
    },
  };
  return { queries, calls };
}

describe("trackedVisits", () => {
  it("turns detail-page views into per-slug counts over the UTC-day windows", async () => {
    const { queries, calls } = tracker(
      { "/telegram-apps/catizen": 3 },
      { "/telegram-apps/catizen": 10, "/telegram-apps/wallet": 4, "/telegram-apps/wallet/articles": 7 },
    );
    const source = trackedVisits({ tracking: () => queries, now: () => NOW });
    const visits = await source();
    expect(visits && Object.fromEntries(visits)).toEqual({
      catizen: { v7: 3, v30: 10 },
      wallet: { v7: 0, v30: 4 },
    });
    const today = Math.floor(NOW / DAY);
    expect(calls).toEqual([
      { prefix: "/telegram-apps/", since: (today - 6) * DAY, trackingId: "b9331" },
      { prefix: "/telegram-apps/", since: (today - 29) * DAY, trackingId: "b9331" },
    ]);
  });

  it("asks the tracker at most once per TTL", async () => {
    let now = NOW;
    const { queries, calls } = tracker({}, { "/telegram-apps/catizen": 1 });
    const source = trackedVisits({ tracking: () => queries, now: () => now });
    await Promise.all([source(), source()]);
    now += TRACKED_VISITS_TTL_MS - 1;
    await source();
    expect(calls).toHaveLength(2);
    now += 1;
    await source();
    expect(calls).toHaveLength(4);
  });

  it("falls back (undefined) without the module, with an empty store, or when the query fails", async () => {
    expect(await trackedVisits({ tracking: () => undefined, now: () => NOW })()).toBeUndefined();
    const empty = tracker({}, {});
    expect(await trackedVisits({ tracking: () => empty.queries, now: () => NOW })()).toBeUndefined();
    const onError = vi.fn();
    const failing: TrackingQueries = {
      pageViewsByPathPrefix: () => Promise.reject(new Error("tracking.db is locked")),
    };
    expect(await trackedVisits({ tracking: () => failing, now: () => NOW, onError })()).toBeUndefined();
    expect(onError).toHaveBeenCalledOnce();
  });
});
