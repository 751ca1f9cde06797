/** Delivery: the 500 ms loop, retries and pauses, the beacon on page hide, the app bridge. */
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  BATCH_MAX,
  BEACON_MAX_BYTES,
  FORBIDDEN_PAUSE_MS,
  HEARTBEAT_MS,
  LOOP_MS,
  MAX_RETRIES,
} from "./constants.ts";
import { fillTitles } from "./events.ts";
import { current, ready, remove, reportUrl, type State, save } from "./state.ts";
import type { QueuedEvent } from "./store.ts";
import { appBridge, beacon, type MeridianBridge, post, splitBodies } from "./transport.ts";
import { byteLength, debug, guard, now, queryParam, warn } from "./util.ts";

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
  if (current.state !== s) return;
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
export function tick(): Promise<void> | undefined {
  const s = current.state;
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

export function startLoop(s: State): void {
  s.loop ??= setInterval(guard(tick), LOOP_MS);
}

export function stopLoop(s: State): void {
  clearInterval(s.loop);
  s.loop = undefined;
}

/** Page hidden or unloading: everything that is ready leaves now, by beacon. */
export function flushByBeacon(s: State): void {
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
