import type { TrackingRecord } from "@meridian/contracts";
import type { StoredRow } from "./columns.ts";

/**
 * One event as the events table stores it (`toRow`). No runtime imports: the SQLite
 * writer thread loads this module to expand accepted uploads (see batch.ts).
 */

const DAY_MS = 86_400_000;

/** What the server adds to every event of one upload. */
export interface UploadMeta {
  receivedAt: number;
  isBot: boolean;
  ip: string;
  pfb: string;
}

/** Path of an absolute or relative URL, without query or fragment. */
export function pathOf(url: string): string {
  const start = url.indexOf("://");
  let rest = url;
  if (start >= 0) {
    const slash = url.indexOf("/", start + 3);
    rest = slash < 0 ? "/" : url.slice(slash);
  }
  const end = rest.search(/[?#]/);
  const path = end < 0 ? rest : rest.slice(0, end);
  return path === "" ? "/" : path.slice(0, 512);
}

/** Host of a referrer URL; "" for none (direct visits). */
export function hostOf(url: string): string {
  const start = url.indexOf("://");
  if (start < 0) return "";
  const rest = url.slice(start + 3);
  const end = rest.search(/[/?#]/);
  return (end < 0 ? rest : rest.slice(0, end)).toLowerCase().slice(0, 255);
}

function durationOf(record: TrackingRecord): number {
  const ext = record.event_tracking_ext;
  if (record.type !== 1 || record.page_status !== 1 || Array.isArray(ext)) return 0;
  const value = ext.duration;
  // a page left open for days is one abandoned tab, not engagement: capped at 30 minutes
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.min(value, 1_800_000) : 0;
}

const INT32_MAX = 2_147_483_647;
/** Columns stored as 32-bit integers: a wild client value is clamped rather than failing the commit. */
const int32 = (value: number) => Math.max(-INT32_MAX, Math.min(INT32_MAX, value));
const BROWSER_MAX = 64;

/** Fields a column holds clamped or cut: in `extra` too, only when that changed them. */
const CLAMPED = ["seq", "log_seq", "user_language", "screen_width", "screen_height"] as const;

/**
 * The fields no column holds as sent, as compact JSON: with the columns they make the
 * whole event (minus unknown keys, which validation drops), without storing it twice.
 * A literal rather than a loop over the schema's keys: an object of fixed shape
 * stringifies several times faster than one filled key by key (measured: ~11 µs an
 * event the other way). `validate.test.ts` checks that the columns plus `extra` give
 * the whole event back, so a field added to the schema cannot be left out unnoticed.
 */
function extraOf(r: TrackingRecord): string {
  const extra: Record<string, unknown> = {
    app_id: r.app_id,
    app_name: r.app_name,
    ver: r.ver,
    browser_version: r.browser_version,
    network_type: r.network_type,
    os_version: r.os_version,
    manufacturer: r.manufacturer,
    brand: r.brand,
    model: r.model,
    carrier: r.carrier,
    url_host: r.url_host,
    lib_version: r.lib_version,
    timezone_offset: r.timezone_offset,
    channel: r.channel,
    log_env: r.log_env,
    qr_val: r.qr_val,
    source_referer: r.source_referer,
    source_target: r.source_target,
    first_visit_time: r.first_visit_time,
    ip: r.ip,
    url: r.url,
    title: r.title,
    event_tracking: r.event_tracking,
    event_tracking_ext: r.event_tracking_ext,
    curr_page_ext: r.curr_page_ext,
    track_type: r.track_type,
    ctime: r.ctime,
    timely: r.timely,
    merge: r.merge,
    retry_count: r.retry_count,
    referer: r.referer,
    business1: r.business1,
    business2: r.business2,
  };
  for (const key of CLAMPED) if (int32(r[key]) !== r[key]) extra[key] = r[key];
  if (r.browser.length > BROWSER_MAX) extra.browser = r.browser;
  return JSON.stringify(extra);
}

/** The fields `extraOf` writes (in its order): every field no column holds as sent. */
export const EXTRA_FIELDS = [
  "app_id",
  "app_name",
  "ver",
  "browser_version",
  "network_type",
  "os_version",
  "manufacturer",
  "brand",
  "model",
  "carrier",
  "url_host",
  "lib_version",
  "timezone_offset",
  "channel",
  "log_env",
  "qr_val",
  "source_referer",
  "source_target",
  "first_visit_time",
  "ip",
  "url",
  "title",
  "event_tracking",
  "event_tracking_ext",
  "curr_page_ext",
  "track_type",
  "ctime",
  "timely",
  "merge",
  "retry_count",
  "referer",
  "business1",
  "business2",
] as const;

/**
 * `extra` of an event expanded from an accepted upload: only `fields` (those of
 * EXTRA_FIELDS that differ between the events of its upload; the shared ones are kept
 * once, in the upload), plus clamped or cut values as in `extraOf`.
 */
export function partialExtra(r: TrackingRecord, fields: readonly string[]): string {
  const extra: Record<string, unknown> = {};
  const fieldsOf = r as unknown as Record<string, unknown>;
  for (const field of fields) extra[field] = fieldsOf[field];
  for (const key of CLAMPED) if (int32(r[key]) !== r[key]) extra[key] = r[key];
  if (r.browser.length > BROWSER_MAX) extra.browser = r.browser;
  return JSON.stringify(extra);
}

/**
 * The stored row of one event. `extra`: given (partialExtra), else the whole `extraOf`.
 */
export function toRow(record: TrackingRecord, meta: UploadMeta, extra?: string): StoredRow {
  return {
    event_day: Math.floor(record.timestamp / DAY_MS),
    ts: record.timestamp,
    received_at: meta.receivedAt,
    uid: record.uid,
    page_unique_id: record.page_unique_id,
    seq: int32(record.seq),
    log_seq: int32(record.log_seq),
    type: record.type,
    event_tracking_id: record.event_tracking_id,
    curr_page: record.curr_page,
    page_status: record.page_status,
    path: pathOf(record.url),
    ref_host: hostOf(record.source_referer),
    session_id: record.session_id,
    device_id: record.device_id,
    first_day: record.first_day ? 1 : 0,
    user_language: int32(record.user_language),
    browser: record.browser.slice(0, BROWSER_MAX),
    sys: record.sys,
    screen_width: int32(record.screen_width),
    screen_height: int32(record.screen_height),
    duration: durationOf(record),
    is_bot: meta.isBot ? 1 : 0,
    // the address the request came from, not the one the page was told by the config call
    ip: meta.ip,
    pfb: meta.pfb.slice(0, 128),
    extra: extra ?? extraOf(record),
  };
}
