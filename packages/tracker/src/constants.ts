import type {
  TRACK_DEVICE_ID_COOKIE,
  TRACK_DEVICE_ID_STORAGE_KEY,
  TRACK_LIB_VERSION,
  TrackEventType,
  TrackPageStatus,
  TrackSys,
  TrackType,
} from "@meridian/contracts";

// NOTE: copies of @meridian/contracts' tracking constants (the SDK ships no zod);
// `satisfies` keeps them equal to the contract at typecheck time.

export const EventType = {
  page: 1,
  click: 2,
  expose: 3,
  drag: 4,
  sideslip: 5,
  pullUp: 6,
  pullDown: 7,
  video: 8,
  system: 9,
} as const satisfies typeof TrackEventType;
export type EventTypeName = keyof typeof EventType;
export type EventTypeValue = (typeof EventType)[EventTypeName];
/** Index = type - 1: the `event_tracking` name of each type. */
export const EVENT_NAMES = Object.keys(EventType) as EventTypeName[];

export const PageStatus = { show: 0, hide: 1 } as const satisfies typeof TrackPageStatus;
export const TrackMode = { manual: 0, auto: 1 } as const satisfies typeof TrackType;
export const Sys = { web: 3, mobile: 4, appH5: 5, windows: 6, mac: 7 } as const satisfies typeof TrackSys;
export type SysValue = (typeof Sys)[keyof typeof Sys];

export const LIB_VERSION: typeof TRACK_LIB_VERSION = "1.1.45";

export const BATCH_MAX = 50;
export const LOOP_MS = 500;
export const FORBIDDEN_PAUSE_MS = 10_000;
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 60_000;
/** After this many failed uploads an event is dropped: the ingest keeps refusing it. */
export const MAX_RETRIES = 10;
/** Beacon and keepalive bodies are limited to 64 KiB by browsers. */
export const BEACON_MAX_BYTES = 64 * 1024;
/** Most events kept unsent (oldest dropped first), so storage stays bounded. */
export const QUEUE_MAX = 500;
/** Exposes waiting for their URL to become the current page. */
export const HELD_MAX = 100;
export const FIRST_DAY_MS = 24 * 3600 * 1000;
export const AUDIO_CAP_MS = 500;
export const TAB_SYNC_MS = 1_000;
export const COOKIE_MARKERS_MAX = 10;
/** A tab whose stored queue has not been touched for this long is gone; another tab adopts it. */
export const STALE_TAB_MS = 10_000;
export const HEARTBEAT_MS = 3_000;
/** How long exposable elements on screen at a URL change wait for the next page's render. */
export const SETTLE_MS = 2_000;

export const EVENT_ID_PATTERN = /^(\/|b\d+)$/;
export const LOG_ENV_PATTERN = /^(pre|online|test\d{1,2})$/;

export const CONFIG_PATH = "/v1/mix/public/clientCommonConfig";
export const REPORT_PATH = "/v1/buried/log/info";

/** Local storage keys (docs/product.md §3, "Local stored keys"). */
export const KEY_EVENTS = "meridian_track_events";
export const KEY_EVENT_UID = "meridian_event_uid";
export const KEY_FINGERPRINT: typeof TRACK_DEVICE_ID_STORAGE_KEY = "meridian_fingerprint";
export const KEY_FIRST_VISIT = "meridian_first_visit_time";
/** Session storage: this tab's id and session id (survive a reload, not a new tab). */
export const KEY_TAB = "meridian_track_tab";
export const COOKIE_DEVICE: typeof TRACK_DEVICE_ID_COOKIE = "meridian_did";
export const TAB_CHANNEL = "meridian-tracker";
