import type { TrackingContext, TrackingEvent } from "@meridian/contracts";
import { KEY_EVENTS, STALE_TAB_MS } from "./constants.ts";
import { getItem, now, parseJson, removeItem, setItem } from "./util.ts";

/** An event as queued: its context is filled in once known (device id resolved). */
export type QueuedEvent = TrackingEvent & Partial<TrackingContext>;

/**
 * The tracking event list in local storage: one entry per tab, so that two open tabs
 * never upload each other's events. A tab's entry is its unsent queue plus when it
 * last wrote it; entries of tabs silent for 10 s (closed before uploading) are adopted
 * by the next tab that starts.
 */
type StoredQueues = Record<string, { t: number; e: QueuedEvent[] }>;

function read(): StoredQueues {
  const value = parseJson<StoredQueues>(getItem(KEY_EVENTS));
  return value && typeof value === "object" ? value : {};
}

function write(all: StoredQueues): void {
  if (Object.keys(all).length) setItem(KEY_EVENTS, JSON.stringify(all));
  else removeItem(KEY_EVENTS);
}

/** Replaces this tab's entry with its current queue. */
export function saveQueue(tab: string, queue: QueuedEvent[]): void {
  const all = read();
  if (queue.length) all[tab] = { t: now(), e: queue };
  else delete all[tab];
  write(all);
}

/** This tab's stored events (kept over a reload) plus those of stale tabs, taken over. */
export function adoptQueues(tab: string): QueuedEvent[] {
  const all = read();
  const taken: QueuedEvent[] = [];
  for (const [key, entry] of Object.entries(all)) {
    if (key === tab || !(now() - entry.t < STALE_TAB_MS)) {
      if (Array.isArray(entry.e)) taken.push(...entry.e);
      delete all[key];
    }
  }
  if (taken.length) write(all);
  return taken;
}

/**
 * This tab's stored events, for a page back from the back/forward cache: while it was
 * away the tab's later pages adopted its entry and left there what they could not send.
 */
export function ownQueue(tab: string): QueuedEvent[] {
  const entry = read()[tab];
  return Array.isArray(entry?.e) ? entry.e : [];
}

/** Whether this tab's entry is still stored (another tab may have adopted it while hidden). */
export function ownEntryStored(tab: string): boolean {
  return tab in read();
}
