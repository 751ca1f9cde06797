import type { TrackingRecord } from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbTarget, openTarget, sampleRecord, TARGETS } from "../../test/tracking.ts";
import { toRow } from "./ingest.ts";
import { dayOf, ensurePartitions, partitionName, purgeOldEvents } from "./maintenance.ts";
import { TrackingRepo } from "./repo.ts";
import { AnalyticsService } from "./service.ts";
import { openTrackingStore, type TrackingStore } from "./store.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const D = Date.UTC(2026, 10, 20);
const NOW = D + 23 * HOUR;

let nextPage = 0;
/** One page view of a visitor: show at `at`, then `extra` events, then hide after `ms`. */
function pageView(
  visitor: Partial<TrackingRecord>,
  path: string,
  id: string,
  at: number,
  ms: number,
  extra: Partial<TrackingRecord>[] = [],
): TrackingRecord[] {
  const pid = String(3_000_000_000_000_000 + nextPage++);
  const base = { ...visitor, page_unique_id: pid, url: `https://meridian.test${path}`, curr_page: id };
  const show = sampleRecord({ ...base, timestamp: at, seq: 0, event_tracking_id: id });
  const events = extra.map((e, i) => sampleRecord({ ...base, timestamp: at + 1000 + i, seq: i + 1, ...e }));
  const hide = sampleRecord({
    ...base,
    timestamp: at + ms,
    seq: extra.length + 1,
    event_tracking_id: id,
    page_status: 1,
    event_tracking_ext: { duration: ms },
  });
  return [show, ...events, hide];
}

const A = { device_id: "devA", session_id: "devA-1", uid: "w-A", first_day: true };
const B = {
  device_id: "devB",
  session_id: "devB-1",
  uid: "w-B",
  first_day: false,
  user_language: 1,
  source_referer: "",
  browser: "Firefox",
  screen_width: 390,
  screen_height: 844,
  sys: 4 as const,
};
const expose = {
  type: 3 as const,
  event_tracking: "expose",
  event_tracking_id: "b100",
  track_type: 1 as const,
};
const click = {
  type: 2 as const,
  event_tracking: "click",
  event_tracking_id: "b100",
  track_type: 1 as const,
};

describe.each(TARGETS)("tracking aggregates and retention on %s", (name) => {
  let target: DbTarget;
  let store: TrackingStore;
  let service: AnalyticsService;

  beforeAll(async () => {
    target = await openTarget(name);
    store = await openTrackingStore(target.db, { sqliteSync: "normal" }, target.trackingFile);
    await ensurePartitions(store.db, D - DAY, 3);
    const human = { receivedAt: NOW - 5 * 60_000, isBot: false, ip: "10.0.0.1", pfb: "" };
    const records = [
      ...pageView(A, "/telegram-apps", "b9332", D + HOUR, 10_000, [expose]),
      ...pageView(A, "/telegram-apps/wallet", "b9331", D + HOUR + 20_000, 20_000, [expose, click]),
      ...pageView(B, "/telegram-apps", "b9332", D + 3 * HOUR, 5_000, [expose]),
      ...pageView(A, "/", "/", D - 12 * HOUR, 1_000),
    ];
    await store.sink.write(records.map((r) => toRow(r, human)));
    const bot = pageView(
      { device_id: "bot", session_id: "bot-1", uid: "w-bot" },
      "/",
      "/",
      D + 2 * HOUR,
      100,
    );
    await store.sink.write(bot.map((r) => toRow(r, { ...human, isBot: true })));
    service = new AnalyticsService(new TrackingRepo(store.db), () => NOW);
  });
  afterAll(async () => {
    await store?.close();
    await target?.cleanup();
  });

  it("computes the KPIs of a range and of the range before it, bots excluded", async () => {
    const o = await service.overview({ from: D, to: D + DAY });
    expect(o.current).toEqual({
      visitors: 2,
      sessions: 2,
      pageViews: 3,
      firstDayVisitors: 1,
      bounceRate: 0.5,
      avgSessionMs: 17_500,
    });
    expect(o.previous).toEqual({
      visitors: 1,
      sessions: 1,
      pageViews: 1,
      firstDayVisitors: 1,
      bounceRate: 1,
      avgSessionMs: 1_000,
    });
    expect(o.bucketMs).toBe(HOUR);
    expect(o.series).toEqual([
      { t: D + HOUR, pageViews: 2, visitors: 1, sessions: 1 },
      { t: D + 3 * HOUR, pageViews: 1, visitors: 1, sessions: 1 },
    ]);
  });

  it("ranks pages, tracking ids and expose -> click rates", async () => {
    const c = await service.content({ from: D, to: D + DAY });
    expect(c.pages).toEqual([
      { path: "/telegram-apps", views: 2, visitors: 2 },
      { path: "/telegram-apps/wallet", views: 1, visitors: 1 },
    ]);
    expect(c.trackingIds).toEqual([
      { id: "b9332", views: 2, visitors: 2 },
      { id: "b9331", views: 1, visitors: 1 },
    ]);
    expect(c.elements).toEqual([{ id: "b100", exposes: 3, clicks: 1, rate: 1 / 3 }]);
  });

  it("breaks visitors down and filters by language", async () => {
    const a = await service.audience({ from: D, to: D + DAY });
    expect(a.referrers).toEqual([
      { key: "", count: 1 },
      { key: "www.google.com", count: 1 },
    ]);
    expect(a.languages).toEqual([
      { key: "0", count: 1 },
      { key: "1", count: 1 },
    ]);
    expect(a.devices).toEqual([
      { key: "3", count: 1 },
      { key: "4", count: 1 },
    ]);
    expect(a.browsers).toEqual([
      { key: "Chrome", count: 1 },
      { key: "Firefox", count: 1 },
    ]);
    expect(a.screens).toEqual([
      { key: "390x844", count: 1 },
      { key: "1280x800", count: 1 },
    ]);
    const zh = await service.overview({ from: D, to: D + DAY, lang: 1 });
    expect(zh.current.visitors).toBe(1);
    expect(zh.current.pageViews).toBe(1);
  });

  it("shows the last 30 minutes by received time", async () => {
    const r = await service.realtime(undefined);
    expect(r.since).toBe(NOW - 30 * 60_000);
    expect(r.visitors).toBe(2);
    expect(r.pageViews).toBe(3);
    expect(r.perMinute).toEqual([{ t: NOW - 5 * 60_000, pageViews: 3, visitors: 2 }]);
    expect(r.pages[0]).toEqual({ path: "/telegram-apps", views: 2 });
  });

  it("drops days older than the retention window", async () => {
    const old = D - 40 * DAY;
    await ensurePartitions(store.db, old, 1);
    const meta = { receivedAt: old, isBot: false, ip: "", pfb: "" };
    const rows = pageView(
      { device_id: "devOld", session_id: "old-1", uid: "w-old" },
      "/",
      "/",
      old + HOUR,
      100,
    );
    await store.sink.write(rows.map((r) => toRow(r, meta)));
    // an upload of that day too: it goes with its events
    const uploaded = pageView(
      { device_id: "devOld2", session_id: "old-2", uid: "w-old2" },
      "/",
      "/",
      old + HOUR,
      50,
    );
    await store.sink.accept({ records: uploaded, meta });
    await store.sink.settled();
    const count = async (where: string, table = "tracking_events") =>
      Number((await store.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`))?.n);
    expect(await count(`event_day = ${dayOf(old)}`)).toBe(4);
    expect(await count(`last_day = ${dayOf(old)}`, "tracking_uploads")).toBe(1);
    const removed = await purgeOldEvents(store.db, store.sink, NOW, 30);
    expect(await count(`event_day = ${dayOf(old)}`)).toBe(0);
    expect(await count(`last_day = ${dayOf(old)}`, "tracking_uploads")).toBe(0);
    expect(await count(`event_day >= ${dayOf(D - DAY)}`)).toBeGreaterThan(0);
    if (name === "postgres") {
      expect(removed).toBe(2);
      const left = await store.db.all<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?",
        [partitionName(dayOf(old))],
      );
      expect(left).toEqual([]);
    } else {
      expect(removed).toBe(4);
    }
  });
});
