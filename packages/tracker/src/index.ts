/**
 * `@meridian/tracker`: the browser tracking SDK (docs/product.md §3, 4, 7, 9).
 *
 * Every export is safe to call anywhere, any time, in any order: before `init`,
 * after `destroy`, during server rendering (no `window`): it never throws and
 * never shows anything to the visitor. Internal errors go to `console.debug` when
 * `init({debug: true})`.
 */
import { EventType, type EventTypeName } from "./constants.ts";
import { record } from "./events.ts";
import { flushNow, setUser as setTrackedUser, start, stop } from "./tracker.ts";
import { guard } from "./util.ts";

export type { TrackingContext, TrackingEvent, TrackingRecord } from "@meridian/contracts";
export { EventType, type EventTypeName, type EventTypeValue, Sys, type SysValue } from "./constants.ts";
export type { TrackerConfig } from "./context.ts";
export type { TrackExt } from "./dom.ts";
export type { MeridianBridge } from "./transport.ts";

/**
 * Starts tracking: page show and hide on every URL change, clicks on
 * `[data-track-click]`, exposes of `[data-track-expose]`, uploads every 500 ms.
 * A second call while running is ignored.
 */
export const init = guard(start);

/**
 * Records an event by hand (`track_type` manual). `type` is a number 1-9 or its name
 * ("click", "expose", ...); `id` must be "/" or `b` + digits, else the event is dropped
 * with a console warning. With `merge`, events of the same type and id that are
 * still unsent become one event whose `event_tracking_ext` lists every `ext`.
 */
export const track = guard(
  (
    type: number | EventTypeName,
    id: string,
    ext?: Record<string, unknown>,
    options?: { merge?: boolean },
  ): void => {
    record(typeof type === "string" ? EventType[type] : type, id, ext ?? {}, 0, !!options?.merge);
  },
);

/** Sets (or with null clears) the logged-in user id sent as `uid` on the following events. */
export const setUser = guard(setTrackedUser);

/** Uploads every event that is ready now. Resolves when done; never rejects. */
export function flush(): Promise<void> {
  try {
    return flushNow().catch(() => undefined);
  } catch {
    return Promise.resolve();
  }
}

/** Stops tracking and removes every listener; unsent events stay stored for the next page load. */
export const destroy = guard(stop);
