/** Start and stop: wiring of listeners, device id, upload switch and the page lifecycle. */
import { BATCH_MAX, EventType, KEY_TAB, QUEUE_MAX, TrackMode } from "./constants.ts";
import { baseContext, type TrackerConfig } from "./context.ts";
import { type On, type TrackExt, watchDom } from "./dom.ts";
import { emitHide, exposed, onRestored, onUrl, record } from "./events.ts";
import { eventUid, newSessionId, resolveDeviceId, tabSync } from "./ids.ts";
import { current, type State, save } from "./state.ts";
import { adoptQueues, ownEntryStored, ownQueue, type QueuedEvent, saveQueue } from "./store.ts";
import { appBridge, fetchSwitch } from "./transport.ts";
import { flushByBeacon, startLoop, stopLoop, tick } from "./upload.ts";
import { debug, digits, getItem, guard, parseJson, setItem, warn } from "./util.ts";
import { watchVitals } from "./vitals.ts";

export type { TrackExt };

function onHidden(): void {
  const s = current.state;
  if (!s) return;
  stopLoop(s);
  // exposes still waiting for the page to settle belong to this page view: before its leave event
  s.dom?.settle();
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
  const s = current.state;
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
  if (current.state || typeof window === "undefined") return;
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
  current.state = s;
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
  on(window, "pageshow", (event) => {
    if (!(event as PageTransitionEvent).persisted) return;
    // the tab's stored queue is newer than this page's: what it held was adopted, and sent
    // or stored again, by the pages shown meanwhile
    const sending = s.queue.filter((queued) => s.inflight.has(queued));
    const key = (queued: QueuedEvent) => `${queued.page_unique_id}:${queued.seq}`;
    const inflight = new Set(sending.map(key));
    s.queue = [...sending, ...ownQueue(s.tab).filter((stored) => !inflight.has(key(stored)))];
    onRestored();
    if (document.visibilityState !== "hidden") startLoop(s);
  });
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
  const s = current.state;
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
  const s = current.state;
  if (!s) return;
  current.state = undefined;
  stopLoop(s);
  for (const cleanup of s.cleanups) guard(cleanup)();
  saveQueue(s.tab, s.queue);
}

/** Test and debugging view of the running state. */
export function peek(): Readonly<State> | undefined {
  return current.state;
}
