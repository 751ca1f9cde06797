import { SETTLE_MS } from "./constants.ts";
import { guard, parseJson } from "./util.ts";

/** Free data attached to an event (`event_tracking_ext`). */
export type TrackExt = Record<string, unknown>;

const EXPOSE = "data-track-expose";
const CLICK = "data-track-click";

/** `data-track-ext` as an object; anything else (bad JSON, arrays) counts as none. */
function extOf(el: Element): TrackExt {
  const ext = parseJson<unknown>(el.getAttribute("data-track-ext"));
  return ext && typeof ext === "object" && !Array.isArray(ext) ? (ext as TrackExt) : {};
}

export type On = (target: EventTarget, type: string, fn: (event: Event) => void, capture?: boolean) => void;
type Found = (id: string, ext: TrackExt, merge: boolean) => void;

export interface DomWatch {
  /**
   * A new page view: elements that stay on screen across the navigation expose again,
   * those of the previous page that the navigation removes do not. `navigated` is false
   * for the first page view, whose elements are its own.
   */
  rescan(navigated: boolean): void;
  /** Reports now what elements on screen across the last URL change hold (the tab is hiding). */
  settle(): void;
  stop(): void;
}

/**
 * Automatic events from markup: a click anywhere inside `[data-track-click="b123"]`,
 * and an expose when `[data-track-expose="b123"]` is at least half visible, once per
 * element per page view. `data-track-ext` (JSON object) and `data-track-merge` apply to both.
 */
export function watchDom(on: On, clicked: Found, exposed: Found): DomWatch {
  on(
    document,
    "click",
    (event) => {
      const target = event.target as Element | null;
      const el = target?.closest?.(`[${CLICK}]`);
      if (el) clicked(el.getAttribute(CLICK) ?? "", extOf(el), el.hasAttribute("data-track-merge"));
    },
    true,
  );
  if (typeof IntersectionObserver === "undefined")
    return { rescan: () => undefined, settle: () => undefined, stop: () => undefined };

  let seen = new WeakSet<Element>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Elements on screen when the URL changed. The router changes the URL before it renders
   * the next page (on back and forward even before its data has loaded), so these are
   * the previous page's until that render. They are observed as any other, but what they
   * report waits in `held`: once one of them has left the document (the next page is in),
   * those still there stayed across the navigation and expose under the new page view,
   * the others are dropped. Without a render (same page, hash change), when the tab hides
   * or after SETTLE_MS, the waiting exposes count as they are.
   */
  let carried: Set<Element> | undefined;
  const held = new Map<Element, [string, TrackExt, boolean]>();
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  const settle = (report: boolean): void => {
    carried = undefined;
    clearTimeout(settleTimer);
    const waiting = [...held];
    held.clear();
    if (report) for (const [el, args] of waiting) if (el.isConnected) exposed(...args);
  };
  const io = new IntersectionObserver(
    guard((entries: IntersectionObserverEntry[]) => {
      for (const entry of entries) {
        const el = entry.target;
        if (!entry.isIntersecting || !el.isConnected) continue;
        io.unobserve(el);
        const args: [string, TrackExt, boolean] = [
          el.getAttribute(EXPOSE) ?? "",
          extOf(el),
          el.hasAttribute("data-track-merge"),
        ];
        if (carried?.has(el)) held.set(el, args);
        else exposed(...args);
      }
    }),
    { threshold: 0.5 },
  );
  const scan = guard(() => {
    timer = undefined;
    if (carried && [...carried].some((el) => !el.isConnected)) settle(true);
    for (const el of document.querySelectorAll(`[${EXPOSE}]`)) {
      if (!seen.has(el)) {
        seen.add(el);
        io.observe(el);
      }
    }
  });
  const mo = new MutationObserver(() => {
    timer ??= setTimeout(scan, 100);
  });
  mo.observe(document.documentElement, { childList: true, subtree: true });
  scan();
  return {
    rescan: (navigated) => {
      seen = new WeakSet();
      io.disconnect();
      // what the previous page view still held is its own business, not the next one's
      settle(false);
      const onScreen = new Set(document.querySelectorAll(`[${EXPOSE}]`));
      if (navigated && onScreen.size > 0) {
        carried = onScreen;
        settleTimer = setTimeout(
          guard(() => settle(true)),
          SETTLE_MS,
        );
      }
      scan();
    },
    settle: () => settle(true),
    stop: () => {
      clearTimeout(timer);
      settle(false);
      mo.disconnect();
      io.disconnect();
    },
  };
}
