import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TrackingRecord } from "@meridian/contracts";
import fc from "fast-check";
import pg from "pg";
import type { PlatformDb } from "../platform/db/index.ts";
import { openPostgres } from "../platform/db/postgres.ts";
import { openSqlite } from "../platform/db/sqlite.ts";
import { loginNewUser, testAccountsService } from "./accounts.ts";
import { withSqliteTarget } from "./db-targets.ts";

/** A valid upload element; `over` replaces fields. */
export function sampleRecord(over: Partial<TrackingRecord> = {}): TrackingRecord {
  const ts = over.timestamp ?? Date.UTC(2026, 10, 20, 12, 0, 0);
  return {
    app_id: "meridian-web",
    app_name: "Meridian",
    ver: "1.0.0",
    uid: "w-123456789",
    browser: "Chrome",
    browser_version: "140",
    session_id: "dev1-1",
    network_type: "4g",
    sys: 3,
    os_version: "Linux",
    device_id: "dev1",
    manufacturer: "",
    brand: "",
    model: "",
    screen_width: 1280,
    screen_height: 800,
    carrier: "",
    url_host: "meridian.test",
    lib_version: "1.1.45",
    timezone_offset: 0,
    channel: "",
    log_env: "online",
    qr_val: "",
    source_referer: "https://www.google.com/search?q=x",
    source_target: "https://meridian.test/",
    first_visit_time: ts,
    first_day: true,
    ip: "",
    type: 1,
    url: "https://meridian.test/telegram-apps?x=1",
    title: "Apps",
    curr_page: "b9332",
    event_tracking: "page",
    event_tracking_id: "b9332",
    event_tracking_ext: {},
    curr_page_ext: {},
    page_status: 0,
    track_type: 1,
    timestamp: ts,
    ctime: ts,
    timely: 1,
    merge: 0,
    seq: 0,
    log_seq: 0,
    retry_count: 0,
    user_language: 0,
    referer: "",
    business1: "Price",
    business2: "Crypto Price",
    page_unique_id: "1000000000000001",
    ...over,
  };
}

export interface DbTarget {
  name: "sqlite" | "postgres";
  db: PlatformDb;
  /** The tracking file for SQLite (undefined on PostgreSQL). */
  trackingFile: string | undefined;
  cleanup(): Promise<void>;
}

/** A fresh database: SQLite files in a temporary folder, or a PostgreSQL schema of its own. */
export async function openTarget(name: "sqlite" | "postgres"): Promise<DbTarget> {
  if (name === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-trk-"));
    const db = openSqlite(path.join(dir, "meridian.db"));
    return {
      name,
      db,
      trackingFile: path.join(dir, "tracking.db"),
      cleanup: async () => {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL ?? "";
  const schema = `trk_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const db = openPostgres({ connectionString: url, schema, max: 6 });
  return {
    name,
    db,
    trackingFile: undefined,
    cleanup: async () => {
      await db.close();
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

/** The databases to run against: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const TARGETS: ("sqlite" | "postgres")[] = [
  ...(withSqliteTarget() ? (["sqlite"] as const) : []),
  ...(process.env.TEST_DATABASE_URL ? (["postgres"] as const) : []),
];

/** A session cookie of a new user with `role` (the platform database must be migrated). */
export async function sessionCookie(db: PlatformDb, role: "user" | "admin"): Promise<string> {
  return loginNewUser(testAccountsService(db).service, role);
}

const text = fc.constantFrom(
  "",
  "a",
  "b9331",
  "https://Meridian.example:8443/en/a/b?c=1#d",
  "http://x.example",
  "/relative/path#frag",
  'quote " back \\ newline \n',
  "emoji \u{1F600}",
  "B".repeat(80),
);
const integer = fc.constantFrom(
  0,
  1,
  7,
  -1,
  480,
  2 ** 31,
  2 ** 40,
  -(2 ** 40),
  1_763_000_000_000,
  1_763_086_400_123,
);
const bit = fc.constantFrom(0 as const, 1 as const);
const json = fc.dictionary(
  fc.constantFrom("pos", "slot", "duration", "x"),
  fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), text),
  { maxKeys: 3 },
);

/** Every field of a TrackingRecord with values of its type, edge cases included (long, odd, clamped, far apart). */
export const recordFields = {
  app_id: text,
  app_name: text,
  ver: text,
  uid: text,
  browser: text,
  browser_version: text,
  session_id: text,
  network_type: text,
  sys: fc.constantFrom(3 as const, 4 as const, 5 as const, 6 as const, 7 as const),
  os_version: text,
  device_id: fc.constantFrom("dev1", "dev2"),
  manufacturer: text,
  brand: text,
  model: text,
  screen_width: integer,
  screen_height: integer,
  carrier: text,
  url_host: text,
  lib_version: text,
  timezone_offset: integer,
  channel: text,
  log_env: fc.constantFrom("online", "pre", "test12"),
  qr_val: text,
  source_referer: text,
  source_target: text,
  first_visit_time: integer,
  first_day: fc.boolean(),
  ip: text,
  type: fc.constantFrom(1 as const, 2 as const, 3 as const, 9 as const),
  url: text,
  title: text,
  curr_page: text,
  event_tracking: text,
  event_tracking_id: fc.constantFrom("/", "b1", "b9331"),
  event_tracking_ext: fc.oneof(json, fc.array(json, { maxLength: 2 })),
  curr_page_ext: json,
  page_status: bit,
  track_type: bit,
  timestamp: integer,
  ctime: integer,
  timely: bit,
  merge: bit,
  seq: fc.constantFrom(0, 1, 2, 2 ** 40),
  log_seq: fc.constantFrom(0, 3, 2 ** 31),
  retry_count: fc.constantFrom(0, 2),
  user_language: integer,
  referer: text,
  business1: text,
  business2: text,
  page_unique_id: text,
} satisfies { [K in keyof TrackingRecord]: fc.Arbitrary<TrackingRecord[K]> };

/** A valid TrackingRecord with arbitrary values. */
export const arbitraryRecord: fc.Arbitrary<TrackingRecord> = fc.record(recordFields);

/**
 * The events of one upload (1 to 50): a base record, each event overriding some of its
 * fields, so some fields are shared by every event and others differ.
 */
export const arbitraryUpload: fc.Arbitrary<TrackingRecord[]> = fc
  .tuple(
    arbitraryRecord,
    fc.array(fc.record(recordFields, { requiredKeys: [] }), { minLength: 1, maxLength: 50 }),
  )
  .map(([base, overrides]) => overrides.map((override) => ({ ...base, ...override })));

export const arbitraryMeta = fc.record({
  receivedAt: fc.constantFrom(1_763_000_000_123, 0),
  isBot: fc.boolean(),
  ip: fc.constantFrom("203.0.113.7", "2001:db8::1", ""),
  pfb: fc.constantFrom("", "campaign-7", "P".repeat(200)),
});
