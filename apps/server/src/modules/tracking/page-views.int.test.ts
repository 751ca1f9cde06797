import type { TrackingRecord } from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbTarget, openTarget, sampleRecord, TARGETS } from "../../test/tracking.ts";
import { toRow } from "./ingest.ts";
import { ensurePartitions } from "./maintenance.ts";
import { pageViewsByPathPrefix } from "./page-views.ts";
import { openTrackingStore, type TrackingStore } from "./store.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const D = Date.UTC(2026, 10, 20);

let next = 0;
function event(path: string, at: number, over: Partial<TrackingRecord> = {}): TrackingRecord {
  return sampleRecord({
    url: `https://meridian.test${path}`,
    timestamp: at,
    page_unique_id: String(4_000_000_000_000_000 + next++),
    event_tracking_id: "b9331",
    curr_page: "b9331",
    ...over,
  });
}

describe.each(TARGETS)("page views by path prefix on %s", (name) => {
  let target: DbTarget;
  let store: TrackingStore;

  beforeAll(async () => {
    target = await openTarget(name);
    store = await openTrackingStore(target.db, { sqliteSync: "normal" }, target.trackingFile);
    await ensurePartitions(store.db, D - 10 * DAY, 12);
    const human = { receivedAt: D, isBot: false, ip: "10.0.0.1", pfb: "" };
    const records = [
      event("/telegram-apps/catizen", D + HOUR),
      event("/ja/telegram-apps/catizen?ref=x", D + 2 * HOUR),
      event("/zh-CN/telegram-apps/wallet", D + 3 * HOUR),
      event("/telegram-apps/wallet", D - 8 * DAY),
      // Not views of a detail page: a hide event, an expose, the list, another id.
      event("/telegram-apps/catizen", D + 4 * HOUR, { page_status: 1, event_tracking_ext: { duration: 5 } }),
      event("/telegram-apps/catizen", D + 5 * HOUR, { type: 3, event_tracking: "expose" }),
      event("/telegram-apps", D + HOUR, { event_tracking_id: "b9332", curr_page: "b9332" }),
      event("/telegram-apps/catizen/articles", D + HOUR, { event_tracking_id: "b9642", curr_page: "b9642" }),
      // A path that only looks like it: its first segment is no language.
      event("/blog/telegram-apps/catizen", D + HOUR),
    ];
    await store.sink.write(records.map((r) => toRow(r, human)));
    await store.sink.write([toRow(event("/telegram-apps/catizen", D + HOUR), { ...human, isBot: true })]);
  });
  afterAll(async () => {
    await store?.close();
    await target?.cleanup();
  });

  it("counts shown pages per unprefixed path, bots and other event types left out", async () => {
    const views = await pageViewsByPathPrefix(store.db, "/telegram-apps/", D - 7 * DAY, {
      trackingId: "b9331",
    });
    expect(Object.fromEntries(views)).toEqual({ "/telegram-apps/catizen": 2, "/telegram-apps/wallet": 1 });
  });

  it("honours the window and, without a tracking id, every page under the prefix", async () => {
    const month = await pageViewsByPathPrefix(store.db, "/telegram-apps/", D - 30 * DAY);
    expect(Object.fromEntries(month)).toEqual({
      "/telegram-apps/catizen": 2,
      "/telegram-apps/wallet": 2,
      "/telegram-apps/catizen/articles": 1,
    });
    const before = await pageViewsByPathPrefix(store.db, "/telegram-apps/", D - 30 * DAY, { untilMs: D });
    expect(Object.fromEntries(before)).toEqual({ "/telegram-apps/wallet": 1 });
    expect((await pageViewsByPathPrefix(store.db, "/airdrops/", D - 30 * DAY)).size).toBe(0);
  });
});
