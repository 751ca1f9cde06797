/** The running tracker's state, shared by recording and delivery. */
import type { TrackingContext } from "@meridian/contracts";
import { REPORT_PATH } from "./constants.ts";
import type { TrackerConfig } from "./context.ts";
import type { DomWatch, TrackExt } from "./dom.ts";
import type { PageInfo } from "./pages.ts";
import { type QueuedEvent, saveQueue } from "./store.ts";
import { now } from "./util.ts";

/** One page view: from its show event to its hide event. */
export interface Page {
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

export interface Held {
  url: string;
  id: string;
  ext: TrackExt;
  merge: boolean;
  at: number;
}

/** Everything one `init` owns; `destroy` drops it whole. */
export interface State {
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

/** The running tracker, set by `init` and dropped by `destroy`. */
export const current: { state?: State } = {};

export function reportUrl(s: State): string {
  return (s.config.reportBase ?? "") + REPORT_PATH;
}

export function ready(s: State): boolean {
  return s.uploadOn === true && !!s.ctx.device_id;
}

export function save(s: State): void {
  s.savedAt = now();
  saveQueue(s.tab, s.queue);
}

export function remove(s: State, done: QueuedEvent[]): void {
  s.queue = s.queue.filter((event) => !done.includes(event));
  save(s);
}
