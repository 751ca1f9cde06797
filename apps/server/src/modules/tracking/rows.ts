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
  return extraTail(r, extra);
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
 * once, in the upload), plus clamped or cut values as in `extraOf`. Returns the writer
 * for that field list, made once per list: a fixed-shape literal (see `extraOf` for
 * why), so only the per-event values are read and stringified.
 */
export function partialExtraOf(fields: readonly string[]): (record: TrackingRecord) => string {
  const key = fields.join(",");
  let write = partialExtras.get(key);
  if (write === undefined) {
    // the keys are the schema's (EXTRA_FIELDS), never client input
    const own = fields.filter((field) => (EXTRA_FIELDS as readonly string[]).includes(field));
    if (own.length !== fields.length) throw new Error(`tracking extra: unknown field in ${key}`);
    const make = new Function(
      "tail",
      `return (r) => tail(r, { ${own.map((f) => `${JSON.stringify(f)}: r[${JSON.stringify(f)}]`).join(", ")} });`,
    ) as (tail: typeof extraTail) => (record: TrackingRecord) => string;
    write = make(extraTail);
    if (partialExtras.size >= 1024) partialExtras.clear();
    partialExtras.set(key, write);
  }
  return write;
}

const partialExtras = new Map<string, (record: TrackingRecord) => string>();

/** Adds the clamped or cut values of `r` to `extra` (as `extraOf` does) and stringifies it. */
function extraTail(r: TrackingRecord, extra: Record<string, unknown>): string {
  // CLAMPED spelled out, in its order: constant property names read faster than a loop's keys
  if (int32(r.seq) !== r.seq) extra.seq = r.seq;
  if (int32(r.log_seq) !== r.log_seq) extra.log_seq = r.log_seq;
  if (int32(r.user_language) !== r.user_language) extra.user_language = r.user_language;
  if (int32(r.screen_width) !== r.screen_width) extra.screen_width = r.screen_width;
  if (int32(r.screen_height) !== r.screen_height) extra.screen_height = r.screen_height;
  if (r.browser.length > BROWSER_MAX) extra.browser = r.browser;
  return JSON.stringify(extra);
}

/** The fields besides `partialExtraOf`'s own list whose values its `extra` depends on. */
export const EXTRA_TAIL_FIELDS: readonly (keyof TrackingRecord)[] = [...CLAMPED, "browser"];

type PlainColumn = Exclude<keyof StoredRow, "extra">;

export interface Derivation {
  /** The event fields the value is computed from (besides the upload's meta). */
  from: readonly (keyof TrackingRecord)[];
  value(record: TrackingRecord, meta: UploadMeta): string | number;
}

/**
 * Every column of a stored row but `extra`: the event fields it reads and its value.
 * `toRow` computes them all; an expanded upload computes a column once when none of its
 * fields differ between the events of the upload (expand.ts). `rows.test.ts` holds each
 * `from` to what its `value` reads.
 */
export const DERIVED: { readonly [C in PlainColumn]: Derivation } = {
  event_day: { from: ["timestamp"], value: (r) => Math.floor(r.timestamp / DAY_MS) },
  ts: { from: ["timestamp"], value: (r) => r.timestamp },
  received_at: { from: [], value: (_r, meta) => meta.receivedAt },
  uid: { from: ["uid"], value: (r) => r.uid },
  page_unique_id: { from: ["page_unique_id"], value: (r) => r.page_unique_id },
  seq: { from: ["seq"], value: (r) => int32(r.seq) },
  log_seq: { from: ["log_seq"], value: (r) => int32(r.log_seq) },
  type: { from: ["type"], value: (r) => r.type },
  event_tracking_id: { from: ["event_tracking_id"], value: (r) => r.event_tracking_id },
  curr_page: { from: ["curr_page"], value: (r) => r.curr_page },
  page_status: { from: ["page_status"], value: (r) => r.page_status },
  path: { from: ["url"], value: (r) => pathOf(r.url) },
  ref_host: { from: ["source_referer"], value: (r) => hostOf(r.source_referer) },
  session_id: { from: ["session_id"], value: (r) => r.session_id },
  device_id: { from: ["device_id"], value: (r) => r.device_id },
  first_day: { from: ["first_day"], value: (r) => (r.first_day ? 1 : 0) },
  user_language: { from: ["user_language"], value: (r) => int32(r.user_language) },
  browser: { from: ["browser"], value: (r) => r.browser.slice(0, BROWSER_MAX) },
  sys: { from: ["sys"], value: (r) => r.sys },
  screen_width: { from: ["screen_width"], value: (r) => int32(r.screen_width) },
  screen_height: { from: ["screen_height"], value: (r) => int32(r.screen_height) },
  duration: { from: ["type", "page_status", "event_tracking_ext"], value: durationOf },
  is_bot: { from: [], value: (_r, meta) => (meta.isBot ? 1 : 0) },
  // the address the request came from, not the one the page was told by the config call
  ip: { from: [], value: (_r, meta) => meta.ip },
  pfb: { from: [], value: (_r, meta) => meta.pfb.slice(0, 128) },
};

/**
 * The stored row of one event. `extra`: given (partialExtraOf), else the whole `extraOf`.
 * A literal of the DERIVED values, so every row has one shape.
 */
export function toRow(record: TrackingRecord, meta: UploadMeta, extra?: string): StoredRow {
  const d = DERIVED;
  return {
    event_day: d.event_day.value(record, meta),
    ts: d.ts.value(record, meta),
    received_at: d.received_at.value(record, meta),
    uid: d.uid.value(record, meta),
    page_unique_id: d.page_unique_id.value(record, meta),
    seq: d.seq.value(record, meta),
    log_seq: d.log_seq.value(record, meta),
    type: d.type.value(record, meta),
    event_tracking_id: d.event_tracking_id.value(record, meta),
    curr_page: d.curr_page.value(record, meta),
    page_status: d.page_status.value(record, meta),
    path: d.path.value(record, meta),
    ref_host: d.ref_host.value(record, meta),
    session_id: d.session_id.value(record, meta),
    device_id: d.device_id.value(record, meta),
    first_day: d.first_day.value(record, meta),
    user_language: d.user_language.value(record, meta),
    browser: d.browser.value(record, meta),
    sys: d.sys.value(record, meta),
    screen_width: d.screen_width.value(record, meta),
    screen_height: d.screen_height.value(record, meta),
    duration: d.duration.value(record, meta),
    is_bot: d.is_bot.value(record, meta),
    ip: d.ip.value(record, meta),
    pfb: d.pfb.value(record, meta),
    extra: extra ?? extraOf(record),
  };
}
