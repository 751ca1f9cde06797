import type { TrackingContext } from "@meridian/contracts";
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  BATCH_MAX,
  BEACON_MAX_BYTES,
  EVENT_ID_PATTERN,
  EVENT_NAMES,
  EventType,
  type EventTypeValue,
  FORBIDDEN_PAUSE_MS,
  HEARTBEAT_MS,
  HELD_MAX,
  KEY_TAB,
  LOOP_MS,
  MAX_RETRIES,
  PageStatus,
  QUEUE_MAX,
  REPORT_PATH,
  TrackMode,
} from "./constants.ts";
import { baseContext, type TrackerConfig } from "./context.ts";
import { type DomWatch, type On, type TrackExt, watchDom } from "./dom.ts";
import { eventUid, newSessionId, resolveDeviceId, tabSync } from "./ids.ts";
import { languageOf, type PageInfo, pageInfo } from "./pages.ts";
import { adoptQueues, ownEntryStored, type QueuedEvent, saveQueue } from "./store.ts";
import { appBridge, beacon, fetchSwitch, type MeridianBridge, post, splitBodies } from "./transport.ts";
import {
  byteLength,
  debug,
  digits,
  getItem,
  guard,
  now,
  parseJson,
  queryParam,
  setItem,
  warn,
} from "./util.ts";
import { watchVitals } from "./vitals.ts";

export type { TrackExt };

interface Page {
  url: string;
  id: string;
  info: PageInfo;
  lang: number;
  referer: string;
  seq: number;
  shownAt: number;
  /** Its hide event is still to be emitted. */
  open: boolean;
  /** id + ext of the exposes recorded in this page view: each counts once. */
  exposes: Set<string>;
}

interface Held {
  url: string;
  id: string;
  ext: TrackExt;
  merge: boolean;
  at: number;
}

/** Everything one `init` owns; `destroy` drops it whole. */
interface State {
  config: TrackerConfig;
  ctx: TrackingContext;
  tab: string;
  queue: QueuedEvent[];
  inflight: Set<QueuedEvent>;
  held: Held[];
  page?: Page;
  /** Undefined until the config call answered. */
  uploadOn?: boolean;
  userSet: boolean;
  resumeAt: number;
  failures: number;
  logSeq: number;
  savedAt: number;
  loop?: ReturnType<typeof setInterval>;
  vitalsSent: boolean;
  cleanups: (() => void)[];
  dom?: DomWatch;
}

let state: State | undefined;

function reportUrl(s: State): string {
  return (s.config.reportBase ?? "") + REPORT_PATH;
}

function ready(s: State): boolean {
  return s.uploadOn === true && !!s.ctx.device_id;
}

function save(s: State): void {
  s.savedAt = now();
  saveQueue(s.tab, s.queue);
}

function remove(s: State, done: QueuedEvent[]): void {
  s.queue = s.queue.filter((event) => !done.includes(event));
  save(s);
}

/** Builds an event of the current page (or of `page` for its hide event). */
function make(
  s: State,
  type: EventTypeValue,
  id: string,
  ext: TrackExt,
  mode: 0 | 1,
  merge: boolean,
  status: 0 | 1 = PageStatus.show,
): QueuedEvent {
  const p = s.page;
  return {
    // events recorded before the device id is known get their context when it is
    ...(s.ctx.device_id ? s.ctx : { uid: s.ctx.uid }),
    type,
    url: p?.url ?? location.href,
    // filled when the event leaves: an SPA sets the new title after changing the URL
    title: "",
    curr_page: p?.info.id ?? "/",
    event_tracking: EVENT_NAMES[type - 1] ?? "",
    event_tracking_id: id,
    event_tracking_ext: merge ? [ext] : ext,
    curr_page_ext: {},
    page_status: status,
    track_type: mode,
    timestamp: now(),
    ctime: 0,
    timely: 1,
    merge: merge ? 1 : 0,
    seq: p ? p.seq++ : 0,
    log_seq: s.logSeq++,
    retry_count: 0,
    user_language: p?.lang ?? 0,
    referer: p?.referer ?? document.referrer,
    business1: p?.info.business1 ?? "",
    business2: p?.info.business2 ?? "",
    page_unique_id: p?.id ?? "",
  };
}

function enqueue(s: State, event: QueuedEvent): void {
  if (s.uploadOn === false) return;
  if (event.merge) {
    const into = s.queue.find(
      (q) =>
        q.merge &&
        q.type === event.type &&
        q.event_tracking_id === event.event_tracking_id &&
        Array.isArray(q.event_tracking_ext) &&
        !s.inflight.has(q),
    );
    if (into && Array.isArray(into.event_tracking_ext) && Array.isArray(event.event_tracking_ext)) {
      into.event_tracking_ext.push(...event.event_tracking_ext);
      save(s);
      return;
    }
  }
  s.queue.push(event);
  if (s.queue.length > QUEUE_MAX) s.queue.splice(0, s.queue.length - QUEUE_MAX);
  save(s);
}

/** Validates and records an event on the current page. */
export function record(
  type: number,
  id: string,
  ext: TrackExt = {},
  mode: 0 | 1 = TrackMode.manual,
  merge = false,
  at?: number,
): void {
  const s = state;
  if (!s) return;
  if (!EVENT_ID_PATTERN.test(id)) {
    warn("event dropped, invalid id:", id);
    return;
  }
  if (!(type >= EventType.page && type <= EventType.system)) {
    warn("event dropped, invalid type:", type);
    return;
  }
  // a copy, so later changes by the caller do not leak in; throws (caught) on what JSON cannot carry
  const data = parseJson<TrackExt>(JSON.stringify(ext)) ?? {};
  const event = make(s, type as EventTypeValue, id, data, mode, merge);
  if (at) event.timestamp = at;
  enqueue(s, event);
}

/**
 * Once per page view: the same element can be reported twice, held while the URL was
 * changing and seen again by the new page view's scan.
 */
function recordExpose(p: Page, id: string, ext: TrackExt, merge: boolean, at?: number): void {
  const key = id + JSON.stringify(ext);
  if (p.exposes.has(key)) return;
  p.exposes.add(key);
  record(EventType.expose, id, ext, TrackMode.auto, merge, at);
}

/** An expose seen while `url` was on screen: recorded now, or held until `url` is the current page. */
function exposed(id: string, ext: TrackExt, merge: boolean): void {
  const s = state;
  if (!s) return;
  const url = location.href;
  if (s.page?.url === url) {
    recordExpose(s.page, id, ext, merge);
    return;
  }
  s.held.push({ url, id, ext, merge, at: now() });
  if (s.held.length > HELD_MAX) s.held.shift();
}

function fillTitles(s: State): void {
  for (const event of s.queue)
    if (!event.title && event.page_unique_id === s.page?.id) event.title = document.title;
}

/** Emits the pending leave (page hide) event of the current page, once. */
function emitHide(s: State): void {
  const p = s.page;
  if (!p?.open) return;
  p.open = false;
  fillTitles(s);
  const event = make(s, EventType.page, p.info.id, { duration: now() - p.shownAt }, TrackMode.auto, false, 1);
  event.title = document.title;
  enqueue(s, event);
}

/** On every URL change: the old page's hide, the new page's show, its held exposes. */
export function onUrl(): void {
  const s = state;
  if (!s) return;
  const url = location.href;
  if (s.page?.url === url) return;
  emitHide(s);
  const path = location.pathname;
  s.page = {
    url,
    id: digits(16),
    info: pageInfo(path),
    lang: languageOf(path, document.documentElement.lang),
    referer: s.page?.url ?? document.referrer,
    seq: 0,
    shownAt: now(),
    open: true,
    exposes: new Set(),
  };
  enqueue(s, make(s, EventType.page, s.page.info.id, {}, TrackMode.auto, false));
  const waiting = s.held.filter((h) => h.url === url);
  s.held = s.held.filter((h) => h.url !== url);
  for (const h of waiting) recordExpose(s.page, h.id, h.ext, h.merge, h.at);
  s.dom?.rescan();
}

/** Completes events recorded before the device id was known. */
function fillContext(s: State): void {
  for (const event of s.queue) if (!event.device_id) Object.assign(event, { ...s.ctx, ...event });
}

function stamp(event: QueuedEvent): QueuedEvent {
  return { ...event, ctime: now() };
}

/** Failed upload: retry_count up, capped jittered exponential pause. */
function fail(s: State, batch: QueuedEvent[], status: number): void {
  warn("upload failed, will retry:", status || "network error");
  s.failures++;
  const dropped: QueuedEvent[] = [];
  for (const event of batch) if (++event.retry_count > MAX_RETRIES) dropped.push(event);
  const delay = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (s.failures - 1));
  s.resumeAt = now() + delay / 2 + (Math.random() * delay) / 2;
  remove(s, dropped);
}

function settle(s: State, batch: QueuedEvent[], status: number): void {
  for (const event of batch) s.inflight.delete(event);
  if (state !== s) return;
  if (status >= 200 && status < 300) {
    s.failures = 0;
    remove(s, batch);
  } else if (status === 403) {
    s.resumeAt = now() + FORBIDDEN_PAUSE_MS;
  } else {
    fail(s, batch, status);
  }
}

function sendHttp(s: State, batch: QueuedEvent[], body: string): Promise<void> {
  for (const event of batch) s.inflight.add(event);
  return post(reportUrl(s), body, byteLength(body) <= BEACON_MAX_BYTES).then(
    guard((status: number) => settle(s, batch, status)),
  );
}

/** Native apps take events one at a time; a throwing bridge counts as a failed upload. */
function sendBridge(s: State, bridge: MeridianBridge, events: QueuedEvent[]): void {
  const sent: QueuedEvent[] = [];
  for (const event of events) {
    try {
      bridge.postEvent(JSON.stringify(stamp(event)));
      sent.push(event);
    } catch (error) {
      debug(error);
      fail(s, [event], 0);
      break;
    }
  }
  remove(s, sent);
}

function pending(s: State): QueuedEvent[] {
  fillContext(s);
  fillTitles(s);
  return s.queue.filter((event) => !s.inflight.has(event));
}

/** One turn of the upload loop: at most one batch of 50 in flight. */
function tick(): Promise<void> | undefined {
  const s = state;
  if (!s) return undefined;
  if (!ready(s) || s.inflight.size || now() < s.resumeAt) {
    if (s.queue.length && now() - s.savedAt > HEARTBEAT_MS) save(s);
    return undefined;
  }
  const batch = pending(s).slice(0, BATCH_MAX);
  if (!batch.length) return undefined;
  const bridge = appBridge();
  if (bridge) {
    sendBridge(s, bridge, batch);
    return Promise.resolve();
  }
  return sendHttp(s, batch, JSON.stringify(batch.map(stamp)));
}

function startLoop(s: State): void {
  s.loop ??= setInterval(guard(tick), LOOP_MS);
}

function stopLoop(s: State): void {
  clearInterval(s.loop);
  s.loop = undefined;
}

/** Page hidden or unloading: everything that is ready leaves now, by beacon. */
function flushByBeacon(s: State): void {
  if (!ready(s)) {
    save(s);
    return;
  }
  const events = pending(s);
  const bridge = appBridge();
  if (bridge) {
    sendBridge(s, bridge, events);
    return;
  }
  // a beacon cannot carry the pfb header: with pfb the keepalive fetch goes instead
  const withHeader = !!queryParam("pfb");
  for (const { items, body } of splitBodies(events, stamp)) {
    if (!withHeader && beacon(reportUrl(s), body)) remove(s, items);
    else void sendHttp(s, items, body);
  }
}

function onHidden(): void {
  const s = state;
  if (!s) return;
  stopLoop(s);
  emitHide(s);
  if (!s.vitalsSent) {
    const metrics = takeVitals();
    if (metrics) {
      s.vitalsSent = true;
      record(EventType.system, "/", metrics, TrackMode.auto);
    }
  }
  flushByBeacon(s);
}

function onVisibility(): void {
  const s = state;
  if (!s) return;
  if (document.visibilityState === "hidden") {
    onHidden();
    return;
  }
  // while this tab was hidden another tab may have adopted (and sent) its stored events
  if (s.queue.length && !ownEntryStored(s.tab)) s.queue = s.queue.filter((event) => s.inflight.has(event));
  startLoop(s);
}

let takeVitals: () => TrackExt | undefined = () => undefined;

interface TabSession {
  tab: string;
  sid?: string;
}

export function start(config: TrackerConfig): void {
  if (state || typeof window === "undefined") return;
  const tabSession = parseJson<TabSession>(getItem(KEY_TAB, true)) ?? { tab: digits(12) };
  setItem(KEY_TAB, JSON.stringify(tabSession), true);
  const s: State = {
    config,
    ctx: baseContext(config, config.uid || eventUid(), !!appBridge()),
    tab: tabSession.tab,
    queue: adoptQueues(tabSession.tab).map((event) => ({ ...event, timely: 0 })),
    inflight: new Set(),
    held: [],
    userSet: !!config.uid,
    resumeAt: 0,
    failures: 0,
    logSeq: 0,
    savedAt: 0,
    vitalsSent: false,
    cleanups: [],
  };
  state = s;
  const on: On = (target, type, fn, capture = false) => {
    const handler = guard(fn);
    target.addEventListener(type, handler, capture);
    s.cleanups.push(() => target.removeEventListener(type, handler, capture));
  };

  const sync = tabSync(() => s.ctx.device_id);
  s.cleanups.push(sync.close);
  resolveDeviceId(sync.ask).then(
    guard((id: string) => {
      s.ctx.device_id = id;
      const session = parseJson<TabSession>(getItem(KEY_TAB, true)) ?? tabSession;
      if (!session.sid?.startsWith(id)) {
        session.sid = newSessionId(id);
        setItem(KEY_TAB, JSON.stringify(session), true);
      }
      s.ctx.session_id = session.sid;
    }),
    debug,
  );

  fetchSwitch(config.configBase ?? "").then(
    guard((answer) => {
      s.uploadOn = answer.on;
      if (answer.userId && !s.userSet) s.ctx.uid = answer.userId;
      s.ctx.ip = answer.ip;
      if (!answer.on) {
        s.queue = [];
        save(s);
      }
    }),
    guard((error: unknown) => {
      s.uploadOn = false;
      warn("tracking config unavailable, uploads disabled:", error);
    }),
  );

  for (const name of ["pushState", "replaceState"] as const) {
    const original = history[name];
    const patched = function (this: History, ...args: Parameters<History["pushState"]>) {
      const result = original.apply(this, args);
      guard(onUrl)();
      return result;
    };
    history[name] = patched;
    s.cleanups.push(() => {
      if (history[name] === patched) history[name] = original;
    });
  }
  on(window, "popstate", onUrl);
  on(window, "hashchange", onUrl);
  // window, bubbling: runs after web-vitals' own capture listeners have reported
  on(window, "visibilitychange", onVisibility);
  on(window, "pagehide", onHidden);
  const dom = watchDom(
    on,
    (id, ext, merge) => record(EventType.click, id, ext, TrackMode.auto, merge),
    exposed,
  );
  s.dom = dom;
  s.cleanups.push(dom.stop);
  takeVitals = watchVitals();

  onUrl();
  if (document.visibilityState !== "hidden") startLoop(s);
}

export function setUser(uid: string | null | undefined): void {
  const s = state;
  if (!s) return;
  s.userSet = !!uid;
  s.ctx.uid = uid || eventUid();
}

/** Uploads what is ready now, batch after batch; resolves when done (never rejects). */
export async function flushNow(): Promise<void> {
  for (let i = 0; i < QUEUE_MAX / BATCH_MAX; i++) {
    const sent = tick();
    if (!sent) return;
    await sent;
  }
}

export function stop(): void {
  const s = state;
  if (!s) return;
  state = undefined;
  stopLoop(s);
  for (const cleanup of s.cleanups) guard(cleanup)();
  saveQueue(s.tab, s.queue);
}

/** Test and debugging view of the running state. */
export function peek(): Readonly<State> | undefined {
  return state;
}
