import { z } from "./zod-csp.ts";

/**
 * Visitor tracking (docs/product.md §3, 4, 7, 9): the wire shape shared by the browser
 * SDK (`@meridian/tracker`, which imports this module as types only) and the ingest
 * behind `POST {reportBase}/v1/buried/log/info`.
 *
 * NOTE: the SDK keeps its own copies of the constants below (it ships no zod); each copy
 * is checked against these with `satisfies typeof ...`, so a change here fails its typecheck.
 */

/** `type` of a tracking event. */
export const TrackEventType = {
  page: 1,
  click: 2,
  expose: 3,
  drag: 4,
  sideslip: 5,
  pullUp: 6,
  pullDown: 7,
  video: 8,
  system: 9,
} as const;
export type TrackEventTypeName = keyof typeof TrackEventType;
export type TrackEventTypeValue = (typeof TrackEventType)[TrackEventTypeName];

export const TrackPageStatus = { show: 0, hide: 1 } as const;
export const TrackType = { manual: 0, auto: 1 } as const;

/** `sys` of the common context: where the page runs. */
export const TrackSys = { web: 3, mobile: 4, appH5: 5, windows: 6, mac: 7 } as const;

export const TRACK_LIB_VERSION = "1.1.45";
/** Most events in one upload. */
export const TRACK_BATCH_MAX = 50;
/** `event_tracking_id`: "/" (no specific element) or `b` followed by digits. */
export const TRACK_EVENT_ID_PATTERN = /^(\/|b\d+)$/;
/** `log_env`: pre, online, or test followed by one or two digits. */
export const TRACK_LOG_ENV_PATTERN = /^(pre|online|test\d{1,2})$/;

/**
 * Where the SDK keeps the device id (the fingerprint): local storage first, a cookie
 * shared by the sub-domains second. The API client reads the same places for its
 * `device-id` header (docs/product.md §7).
 */
export const TRACK_DEVICE_ID_STORAGE_KEY = "meridian_fingerprint";
export const TRACK_DEVICE_ID_COOKIE = "meridian_did";

export const TRACK_CONFIG_PATH = "/v1/mix/public/clientCommonConfig";
export const TRACK_REPORT_PATH = "/v1/buried/log/info";

const jsonObject = z.record(z.string(), z.unknown());
const bit = z.union([z.literal(0), z.literal(1)]);
const int = z.number().int();

/** One event as recorded by the SDK. */
export const trackingEventSchema = z.object({
  type: z.literal(Object.values(TrackEventType)),
  url: z.string(),
  title: z.string(),
  /** Tracking id of the page the event happened on ("/" for untracked pages). */
  curr_page: z.string(),
  /** Name of the event type ("page", "click", "expose", ...). */
  event_tracking: z.string(),
  event_tracking_id: z.string().regex(TRACK_EVENT_ID_PATTERN),
  /** Free data of the event; with `merge` 1 the list of every merged event's data. */
  event_tracking_ext: z.union([jsonObject, z.array(jsonObject)]),
  curr_page_ext: jsonObject,
  page_status: bit,
  track_type: bit,
  /** When the event happened (ms since epoch, client clock). */
  timestamp: int,
  /** When the upload carrying it was made (ms since epoch, client clock). */
  ctime: int,
  /** 1 when uploaded by the page load that recorded it, 0 when recovered from storage later. */
  timely: bit,
  merge: bit,
  /** Order within its page view (page_unique_id). */
  seq: int.nonnegative(),
  /** Order within the page load that recorded it. */
  log_seq: int.nonnegative(),
  retry_count: int.nonnegative(),
  /** Number from the tracking language table (`en` 0, `zh-CN` 1, `en-GB` 3, `ar` 99, ...). */
  user_language: int,
  referer: z.string(),
  business1: z.string(),
  business2: z.string(),
  /** One id per page view, shared by its show and hide events. */
  page_unique_id: z.string(),
});
export type TrackingEvent = z.infer<typeof trackingEventSchema>;

/** What every event carries about the app, the visitor and the device. */
export const trackingContextSchema = z.object({
  app_id: z.string(),
  app_name: z.string(),
  ver: z.string(),
  /** Logged-in user id, else the visitor's anonymous event uid (`w-` + 9 digits + ms + 9 digits). */
  uid: z.string(),
  browser: z.string(),
  browser_version: z.string(),
  /** device id + ms timestamp + random 0-100. */
  session_id: z.string(),
  network_type: z.string(),
  sys: z.literal(Object.values(TrackSys)),
  os_version: z.string(),
  device_id: z.string().min(1),
  manufacturer: z.string(),
  brand: z.string(),
  model: z.string(),
  screen_width: int,
  screen_height: int,
  carrier: z.string(),
  url_host: z.string(),
  lib_version: z.string(),
  /** Minutes east of UTC (UTC+8 is 480). */
  timezone_offset: int,
  channel: z.string(),
  log_env: z.string().regex(TRACK_LOG_ENV_PATTERN),
  qr_val: z.string(),
  source_referer: z.string(),
  source_target: z.string(),
  first_visit_time: int,
  /** True while the first visit is less than 24 h old. */
  first_day: z.boolean(),
  /** Visitor IP as seen by the config call (`localVo.ip`); empty until it answered. */
  ip: z.string(),
});
export type TrackingContext = z.infer<typeof trackingContextSchema>;

/** One element of an upload: the event with its context, flat. */
export const trackingRecordSchema = z.object({
  ...trackingContextSchema.shape,
  ...trackingEventSchema.shape,
});
export type TrackingRecord = z.infer<typeof trackingRecordSchema>;

/** Body of `POST {reportBase}/v1/buried/log/info`. */
export const trackingBatchSchema = z.array(trackingRecordSchema).min(1).max(TRACK_BATCH_MAX);

/** `data` of `POST {configBase}/v1/mix/public/clientCommonConfig`, as far as the SDK reads it. */
export const clientCommonConfigSchema = z.object({
  clientCommonConfig: z.object({
    eventLogUploadSwitch: z.boolean(),
    userId: z.string().nullish(),
  }),
  localVo: z.object({ ip: z.string().nullish() }).nullish(),
});
export type ClientCommonConfig = z.infer<typeof clientCommonConfigSchema>;

/**
 * Why one event of an upload was refused: its index in the array and the failing fields
 * (the first few fields of the first few refused events; the others carry `issues: []`,
 * so an answer stays a few KB whatever the upload holds).
 */
export interface TrackingRejection {
  index: number;
  issues: { field: string; rule: string; message: string }[];
}

/**
 * `data` of a successful upload. Valid events are stored (a repeat of an event already
 * stored counts as accepted and is kept once); invalid ones are listed and dropped, and
 * resending them will not help, so the answer is still a success.
 */
export interface TrackingIngestResult {
  received: number;
  accepted: number;
  rejected: TrackingRejection[];
}

/** Query of every `GET /v1/analytics/...` call: a half-open range [from, to) in ms, optional locale. */
export const analyticsQuerySchema = z
  .object({
    from: z.coerce.number().int().nonnegative(),
    to: z.coerce.number().int().positive(),
    /** A `user_language` number of the tracking table (en 0, zh-CN 1, ...). */
    lang: z.coerce.number().int().optional(),
  })
  .refine((q) => q.to > q.from, { message: "to must be after from", path: ["to"] })
  .refine((q) => q.to - q.from <= 400 * 86_400_000, { message: "at most 400 days", path: ["to"] });
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

export interface AnalyticsKpis {
  visitors: number;
  sessions: number;
  pageViews: number;
  firstDayVisitors: number;
  /** Sessions with exactly one page view over sessions with any, 0..1. */
  bounceRate: number;
  /** Time on pages summed per session, averaged over sessions (ms). */
  avgSessionMs: number;
}

/** `GET /v1/analytics/overview`: the range and the same-length range just before it. */
export interface AnalyticsOverview {
  current: AnalyticsKpis;
  previous: AnalyticsKpis;
  /** Bucket width of `series` (ms): an hour up to two days, a day beyond. */
  bucketMs: number;
  series: { t: number; pageViews: number; visitors: number; sessions: number }[];
}

export interface AnalyticsCount {
  key: string;
  count: number;
}

/** `GET /v1/analytics/content`: pages, tracking ids and element expose -> click rates. */
export interface AnalyticsContent {
  pages: { path: string; views: number; visitors: number }[];
  trackingIds: { id: string; views: number; visitors: number }[];
  elements: { id: string; exposes: number; clicks: number; rate: number | null }[];
}

/** `GET /v1/analytics/audience`: visitors per referrer host, language, device, browser, screen. */
export interface AnalyticsAudience {
  referrers: AnalyticsCount[];
  languages: AnalyticsCount[];
  devices: AnalyticsCount[];
  browsers: AnalyticsCount[];
  screens: AnalyticsCount[];
}

/** `GET /v1/analytics/realtime`: the last 30 minutes by received time. */
export interface AnalyticsRealtime {
  since: number;
  visitors: number;
  pageViews: number;
  perMinute: { t: number; pageViews: number; visitors: number }[];
  pages: { path: string; views: number }[];
}

/**
 * `user_language` numbers of the tracking table, by locale code (the SDK keeps its own
 * copy in packages/tracker/src/pages.ts; `asia` and `bg` count as en). The dashboard
 * names languages and filters by them through this.
 */
export const TRACK_LANGUAGES: Readonly<Record<string, number>> = {
  en: 0,
  "zh-CN": 1,
  ja: 2,
  "en-GB": 3,
  vi: 4,
  "zh-TC": 5,
  ru: 6,
  es: 7,
  tr: 8,
  it: 9,
  fr: 10,
  de: 11,
  pt: 12,
  id: 13,
  pl: 20,
  uk: 21,
  sv: 22,
  "es-ES": 23,
  "pt-PT": 24,
  uz: 25,
  ph: 40,
  "es-AR": 42,
  "en-CA": 43,
  ar: 99,
};
