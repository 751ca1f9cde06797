import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SESSION_COOKIE, type TrackingRecord } from "@meridian/contracts";
import pg from "pg";
import type { PlatformDb } from "../../platform/db/index.ts";
import { openPostgres } from "../../platform/db/postgres.ts";
import { openSqlite } from "../../platform/db/sqlite.ts";
import { loadAccountsConfig } from "../accounts/config.ts";
import { AccountsRepo } from "../accounts/repo.ts";
import { sha256Hex } from "../accounts/secrets.ts";
import { AccountsService } from "../accounts/service.ts";
import { OutboxTransport } from "../accounts/transport.ts";

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
export const TARGETS: ("sqlite" | "postgres")[] = process.env.TEST_DATABASE_URL
  ? ["sqlite", "postgres"]
  : ["sqlite"];

/** A session cookie of a new user with `role` (the platform database must be migrated). */
export async function sessionCookie(db: PlatformDb, role: "user" | "admin"): Promise<string> {
  const repo = new AccountsRepo(db);
  const service = new AccountsService({
    repo,
    config: loadAccountsConfig({}),
    transport: new OutboxTransport(db),
  });
  const userId = await service.createUser({
    email: `${role}-${crypto.randomBytes(4).toString("hex")}@meridian.test`,
    areaCode: null,
    mobile: null,
    phoneKey: null,
    password: "correct horse battery",
    role,
  });
  const token = crypto.randomBytes(24).toString("hex");
  const now = Date.now();
  await repo.insertSession({
    tokenHash: sha256Hex(token),
    refreshHash: sha256Hex(`${token}r`),
    userId,
    now,
    expiresAt: now + 3_600_000,
    refreshExpiresAt: now + 7_200_000,
    deviceKeyId: null,
    devicePublicKey: null,
    deviceAlg: null,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  return `${SESSION_COOKIE}=${token}`;
}
