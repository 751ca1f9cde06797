import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TrackingRecord } from "@meridian/contracts";
import { afterEach, describe, expect, it } from "vitest";
import { openSqlite } from "../../platform/db/sqlite.ts";
import { sampleRecord } from "../../test/tracking.ts";
import { decodeBatch } from "./batch.ts";
import { purgeOldEvents } from "./maintenance.ts";
import { TrackingRepo } from "./repo.ts";
import { AnalyticsService } from "./service.ts";
import type { SqliteSinkOptions } from "./sink.ts";
import { openTrackingStore, type TrackingStore } from "./store.ts";

/**
 * SQLite accepts an upload as one row and expands it into tracking_events after the
 * acknowledgement (sqlite-writer.worker.ts). What is acknowledged must survive a crash
 * in between and reach the figures once, however often the expansion runs; the upload
 * stays as the record of its events.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const T = Date.UTC(2026, 10, 20, 12);
const meta = { receivedAt: T, isBot: false, ip: "10.0.0.1", pfb: "" };
const views = (pid: string, count: number) =>
  Array.from({ length: count }, (_, seq) =>
    sampleRecord({ page_unique_id: pid, seq, log_seq: seq, timestamp: T + seq, page_status: 0 }),
  );

let dir = "";
const opened: TrackingStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function open(expand = true, checkpoint?: SqliteSinkOptions["checkpoint"]): Promise<TrackingStore> {
  const db = openSqlite(path.join(dir, "meridian.db"));
  const store = await openTrackingStore(db, { sqliteSync: "full" }, path.join(dir, "tracking.db"), {
    expand,
    ...(checkpoint === undefined ? {} : { checkpoint }),
  });
  const close = store.close;
  store.close = async () => {
    await close();
    await db.close();
  };
  opened.push(store);
  return store;
}

const count = async (store: TrackingStore, table: string) =>
  Number((await store.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n ?? 0);
const cursor = async (store: TrackingStore) =>
  Number((await store.db.get<{ upto: number }>("SELECT upto FROM tracking_expansion"))?.upto);
const lastUpload = async (store: TrackingStore) =>
  Number((await store.db.get<{ id: number }>("SELECT MAX(id) AS id FROM tracking_uploads"))?.id);

/** A process that accepts `records`, says so once acknowledged, and waits to be killed. */
function acceptThenWait(records: unknown[]): Promise<{ kill: () => Promise<void> }> {
  const code = `
    const { openSqlite } = await import(${JSON.stringify(path.join(here, "../../platform/db/sqlite.ts"))});
    const { openTrackingStore } = await import(${JSON.stringify(path.join(here, "store.ts"))});
    const db = openSqlite(${JSON.stringify(path.join(dir, "meridian.db"))});
    const store = await openTrackingStore(db, { sqliteSync: "full" }, ${JSON.stringify(path.join(dir, "tracking.db"))}, { expand: false });
    await store.sink.accept({ records: JSON.parse(process.env.RECORDS), meta: ${JSON.stringify(meta)} });
    process.stdout.write("acked\\n");
    setInterval(() => {}, 1000);
  `;
  const script = path.join(dir, "accept.mjs");
  fs.writeFileSync(script, code);
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, RECORDS: JSON.stringify(records) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (!chunk.toString().includes("acked")) return;
      resolve({
        kill: () =>
          new Promise((done) => {
            child.once("exit", () => done());
            child.kill("SIGKILL");
          }),
      });
    });
    child.once("exit", (code) => reject(new Error(`child exited ${code} before acknowledging:\n${errors}`)));
  });
}

describe("tracking on SQLite: accepted uploads are expanded after the acknowledgement", () => {
  it("keeps an acknowledged upload through a crash before its expansion and expands it at the next start", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-trk-crash-"));
    const records = views("4000000000000001", 50);
    const child = await acceptThenWait(records);
    await child.kill();

    // what the crash left: the upload committed, none of its events expanded yet
    const inspect = await open(false);
    expect(await count(inspect, "tracking_uploads")).toBe(1);
    expect(await count(inspect, "tracking_events")).toBe(0);
    expect(await cursor(inspect)).toBe(0);
    await inspect.close();
    opened.length = 0;

    const store = await open();
    const analytics = new AnalyticsService(
      new TrackingRepo(store.db),
      () => T,
      () => store.sink.settled(),
    );
    const overview = await analytics.overview({ from: T - 3_600_000, to: T + 3_600_000 });
    expect(overview.current.pageViews).toBe(50);
    expect(await count(store, "tracking_events")).toBe(50);
    expect(await cursor(store)).toBe(await lastUpload(store));

    // each event points at its upload, which holds it whole; extra keeps only what differs
    const rows = await store.db.all<{ seq: number; extra: string; upload_id: number; upload_index: number }>(
      "SELECT seq, extra, upload_id, upload_index FROM tracking_events ORDER BY seq",
    );
    const upload = await store.db.get<{ id: number; batch: string }>(
      "SELECT id, batch FROM tracking_uploads",
    );
    const kept = decodeBatch(upload?.batch ?? "");
    expect(kept.meta).toEqual(meta);
    for (const row of rows) {
      // these differ between the events of `views` (times follow seq; objects always count)
      const sent = records[row.seq];
      expect(JSON.parse(row.extra)).toEqual({
        first_visit_time: sent?.first_visit_time,
        ctime: sent?.ctime,
        event_tracking_ext: sent?.event_tracking_ext,
        curr_page_ext: sent?.curr_page_ext,
      });
      expect(row.upload_id).toBe(upload?.id);
      expect(kept.records[row.upload_index]).toEqual(records[row.seq]);
    }
  });

  it("stores an event once when its upload is accepted again or expanded twice", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-trk-twice-"));
    const paused = await open(false);
    const records = views("4000000000000002", 20);
    await paused.sink.accept({ records, meta });
    await paused.sink.accept({ records: records.slice(5, 15), meta });
    await paused.close();
    opened.length = 0;
    // an expansion that stored its events but whose upload came back (as if its delete were lost)
    const db = openSqlite(path.join(dir, "tracking.db"));
    const batch = await db.get<{ events: number; batch: string }>(
      "SELECT events, batch FROM tracking_uploads ORDER BY id LIMIT 1",
    );
    await db.close();

    const store = await open();
    await store.sink.settled();
    expect(await count(store, "tracking_events")).toBe(20);
    await store.sink.run("INSERT INTO tracking_uploads (events, batch) VALUES (?, ?)", [
      batch?.events ?? 0,
      batch?.batch ?? "",
    ]);
    await store.sink.accept({ records: records.slice(0, 1), meta });
    await store.sink.settled();
    expect(await count(store, "tracking_events")).toBe(20);
    expect(await cursor(store)).toBe(await lastUpload(store));
  });

  it("stores every event of uploads acknowledged while earlier ones are being expanded", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-trk-busy-"));
    const store = await open();
    // waves of uploads, each sent while the writer expands the ones before it (it stops
    // an expansion for a waiting upload, then goes on where it stopped)
    for (let wave = 0; wave < 4; wave++) {
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          store.sink.accept({ records: views(`5${wave}${String(i).padStart(14, "0")}`, 50), meta }),
        ),
      );
    }
    await store.sink.settled();
    expect(await count(store, "tracking_events")).toBe(4 * 60 * 50);
    expect(await cursor(store)).toBe(await lastUpload(store));
    const perUpload = await store.db.all<{ n: number }>(
      "SELECT COUNT(*) AS n FROM tracking_events GROUP BY upload_id HAVING n <> 50",
    );
    expect(perUpload).toEqual([]);
  });

  it("keeps the WAL bounded under writes that never pause (checkpoints on their own thread)", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-trk-wal-"));
    // a pass every 2 commits; from 64 frames (256 KiB) the WAL is started over while writes wait
    const store = await open(true, { every: 2, resetFrames: 64 });
    const file = path.join(dir, "tracking.db");
    const wave = (n: number) =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.sink.accept({ records: views(`6${n}${String(i).padStart(14, "0")}`, 50), meta }),
        ),
      );
    // the thread starts with the first pass: until it is up the WAL only grows
    await wave(0);
    for (let waited = 0; fs.statSync(file).size <= 4096 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const before = fs.statSync(`${file}-wal`).size;
    for (let n = 1; n < 40; n++) await wave(n);
    await store.sink.settled();
    expect(await count(store, "tracking_events")).toBe(40 * 20 * 50);
    expect(await cursor(store)).toBe(await lastUpload(store));
    // 39,000 more events are MiBs of pages, copied into the database file: the WAL starts
    // over instead of holding them (its file keeps the size it once reached). How far it
    // grows between restarts depends on when the checkpoint thread gets a core (under
    // 1 MiB on a quiet machine, 1.3-5.2 MiB at 19,000 events under load 12-18); holding
    // every page it would grow by about the database's size.
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThan(6 * 1024 * 1024);
    expect(fs.statSync(`${file}-wal`).size - before).toBeLessThan(size / 2);
  });

  it("sets aside an upload that cannot be expanded and expands the ones after it", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-trk-bad-"));
    const store = await open();
    await store.sink.run("INSERT INTO tracking_uploads (events, batch) VALUES (?, ?)", [3, "not a batch"]);
    await store.sink.accept({ records: views("4000000000000003", 3), meta });
    await store.sink.settled();
    expect(await count(store, "tracking_events")).toBe(3);
    const failed = await store.db.all<{ error: string }>(
      "SELECT error FROM tracking_uploads WHERE error IS NOT NULL",
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error).toMatch(/JSON|encoding/);
    expect(await cursor(store)).toBe(await lastUpload(store));
  });

  it("drops an upload with its events once all of them are past retention", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-trk-retention-"));
    const store = await open();
    const old = T - 40 * 86_400_000;
    await store.sink.accept({
      records: views("4000000000000004", 3).map((r, i) => ({ ...r, timestamp: old + i })),
      meta,
    });
    // one event old, one recent: the upload stays while the recent one does
    await store.sink.accept({
      records: [
        { ...views("4000000000000005", 1)[0], timestamp: old } as TrackingRecord,
        { ...views("4000000000000005", 2)[1], timestamp: T } as TrackingRecord,
      ],
      meta,
    });
    await store.sink.settled();
    expect(await purgeOldEvents(store.db, store.sink, T, 30)).toBe(4);
    expect(await count(store, "tracking_events")).toBe(1);
    const left = await store.db.all<{ id: number }>("SELECT id FROM tracking_uploads");
    expect(left).toEqual([{ id: 2 }]);
  });
});
