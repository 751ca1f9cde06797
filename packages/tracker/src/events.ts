/** Recording: page views (show, then hide on leaving), clicks, exposes, manual events, merge. */
import {
  EVENT_ID_PATTERN,
  EVENT_NAMES,
  EventType,
  type EventTypeValue,
  HELD_MAX,
  PageStatus,
  QUEUE_MAX,
  TrackMode,
} from "./constants.ts";
import type { TrackExt } from "./dom.ts";
import { languageOf, pageInfo } from "./pages.ts";
import { current, type Page, type State, save } from "./state.ts";
import type { QueuedEvent } from "./store.ts";
import { digits, now, parseJson, warn } from "./util.ts";

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
        !s.inflight.has(q) &&
        // NOTE: never into an event that may already be stored: the ingest keeps the first
        // copy of (uid, page_unique_id, seq), so items merged into a resend would be lost.
        q.retry_count === 0 &&
        q.timely === 1 &&
        // within one page view: its exposes stay attributed to it, and its seqs add up
        q.page_unique_id === event.page_unique_id,
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
  const s = current.state;
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
export function exposed(id: string, ext: TrackExt, merge: boolean): void {
  const s = current.state;
  if (!s) return;
  const url = location.href;
  if (s.page?.url === url) {
    recordExpose(s.page, id, ext, merge);
    return;
  }
  s.held.push({ url, id, ext, merge, at: now() });
  if (s.held.length > HELD_MAX) s.held.shift();
}

export function fillTitles(s: State): void {
  for (const event of s.queue)
    if (!event.title && event.page_unique_id === s.page?.id) event.title = document.title;
}

/** Emits the pending leave (page hide) event of the current page, once. */
export function emitHide(s: State): void {
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
  const s = current.state;
  if (!s || s.page?.url === location.href) return;
  showPage(s);
}

/**
 * Back from the browser's back/forward cache (`pageshow` with `persisted`): the page the
 * visitor sees again is a new page view; the last one ended with its leave event when the
 * page was put away. No page load and no URL change tells the tracker otherwise.
 */
export function onRestored(): void {
  const s = current.state;
  if (!s || s.page?.open === true) return;
  showPage(s);
}

function showPage(s: State): void {
  const url = location.href;
  emitHide(s);
  const navigated = s.page !== undefined;
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
  s.dom?.rescan(navigated);
}
