import type { TrackingContext } from "@meridian/contracts";
import {
  FIRST_DAY_MS,
  KEY_FIRST_VISIT,
  LIB_VERSION,
  LOG_ENV_PATTERN,
  Sys,
  type SysValue,
} from "./constants.ts";
import { debug, getItem, now, queryParam, setItem } from "./util.ts";

/** What the host page passes to `init` (see the package README). */
export interface TrackerConfig {
  appId: string;
  appName: string;
  /** Version of the host app. */
  ver: string;
  /** Origin (or path prefix) of `POST /v1/mix/public/clientCommonConfig`; default same origin. */
  configBase?: string;
  /** Origin (or path prefix) of `POST /v1/buried/log/info`; default same origin. */
  reportBase?: string;
  channel?: string;
  /** pre, online or test1..test99; anything else is ignored (online). */
  logEnv?: string;
  /** Overrides the detected `sys` (3 web, 4 mobile web, 5 app H5, 6 Windows app, 7 Mac app). */
  sys?: SysValue;
  /** Logged-in user id, when known at start (same as calling `setUser`). */
  uid?: string;
  /** Prints swallowed internal errors with console.debug. */
  debug?: boolean;
}

/** `log_env`: accepted only when pre, online or test + 1-2 digits; online otherwise. */
export function validLogEnv(value: string | undefined): string {
  if (value && LOG_ENV_PATTERN.test(value)) return value;
  if (value) debug("log_env ignored", value);
  return "online";
}

/** First visit time (stored once) and whether it was less than 24 h ago. */
export function firstVisit(at = now()): { first_visit_time: number; first_day: boolean } {
  let first = Number(getItem(KEY_FIRST_VISIT));
  if (!first) {
    first = at;
    setItem(KEY_FIRST_VISIT, String(first));
  }
  return { first_visit_time: first, first_day: at - first < FIRST_DAY_MS };
}

function pick(ua: string, pattern: RegExp): string {
  return pattern.exec(ua)?.[1] ?? "";
}

const BROWSERS: [string, RegExp][] = [
  ["Edge", /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ["Opera", /OPR\/([\d.]+)/],
  ["Samsung", /SamsungBrowser\/([\d.]+)/],
  ["Firefox", /(?:Firefox|FxiOS)\/([\d.]+)/],
  ["Chrome", /(?:Chrome|CriOS)\/([\d.]+)/],
  ["Safari", /Version\/([\d.]+).*Safari/],
];

/** Browser, OS and device as far as the user agent string tells. */
export function parseAgent(
  ua: string,
): Pick<
  TrackingContext,
  "browser" | "browser_version" | "os_version" | "manufacturer" | "brand" | "model"
> & { mobile: boolean; os: string } {
  let browser = "";
  let version = "";
  for (const [name, pattern] of BROWSERS) {
    version = pick(ua, pattern);
    if (version) {
      browser = name;
      break;
    }
  }
  const ios = pick(ua, /(?:iPhone|iPad|iPod|CPU) OS ([\d_]+)/);
  const android = pick(ua, /Android ([\d.]+)/);
  const windows = pick(ua, /Windows NT ([\d.]+)/);
  const mac = pick(ua, /Mac OS X ([\d_.]+)/);
  const os = ios
    ? "iOS"
    : android
      ? "Android"
      : windows
        ? "Windows"
        : mac
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  const apple = /iPhone|iPad|iPod|Macintosh/.exec(ua)?.[0] ?? "";
  const model = apple || pick(ua, /Android [\d.]+; (?:[a-z]{2}[-_][A-Za-z]{2}; )?([^;)]+?)(?: Build|[;)])/);
  return {
    browser,
    browser_version: version,
    os,
    os_version: `${os} ${(ios || android || windows || mac).replace(/_/g, ".")}`.trim(),
    manufacturer: apple ? "Apple" : "",
    brand: apple ? "Apple" : "",
    model,
    mobile: /Mobi|Android|iPhone|iPad|iPod/.test(ua),
  };
}

/** `sys`: app H5 inside the native apps, the desktop apps by OS, else mobile or desktop web. */
export function detectSys(ua: string, inApp: boolean): SysValue {
  if (inApp) return Sys.appH5;
  if (/Electron/.test(ua)) return /Mac OS X/.test(ua) ? Sys.mac : Sys.windows;
  return /Mobi|Android|iPhone|iPad|iPod/.test(ua) ? Sys.mobile : Sys.web;
}

/** The context known synchronously; device id and session id follow when resolved. */
export function baseContext(config: TrackerConfig, uid: string, inApp: boolean): TrackingContext {
  const ua = navigator.userAgent;
  const agent = parseAgent(ua);
  const connection = (navigator as Navigator & { connection?: { effectiveType?: string } }).connection;
  return {
    app_id: config.appId,
    app_name: config.appName,
    ver: config.ver,
    uid,
    browser: agent.browser,
    browser_version: agent.browser_version,
    session_id: "",
    network_type: connection?.effectiveType ?? "unknown",
    sys: config.sys ?? detectSys(ua, inApp),
    os_version: agent.os_version,
    device_id: "",
    manufacturer: agent.manufacturer,
    brand: agent.brand,
    model: agent.model,
    screen_width: screen.width,
    screen_height: screen.height,
    // browsers do not expose the mobile carrier
    carrier: "",
    url_host: location.host,
    lib_version: LIB_VERSION,
    timezone_offset: -new Date().getTimezoneOffset(),
    channel: config.channel ?? "",
    log_env: validLogEnv(config.logEnv),
    qr_val: queryParam("qr"),
    source_referer: document.referrer,
    source_target: location.href,
    ...firstVisit(),
    ip: "",
  };
}
