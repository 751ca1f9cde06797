import { NO_ANTD_HANDLE } from "./antd-settings.ts";
import { HYDRATE_START_EVENT, HYDRATED_EVENT } from "./storage-keys.ts";

/**
 * Paint first, hydrate after: the public content pages (airdrops, Telegram apps) are
 * complete in their server HTML, so on those pages the browser paints that HTML before it
 * fetches a byte of JavaScript. The server renames React Router's module preloads and its
 * inline module script (paint-first.server.ts) so that neither fetches nor runs while the
 * page loads; PAINT_FIRST_BOOT_SCRIPT restores them after the first frame has been painted,
 * and hydration then proceeds exactly as on any other page. On a slow phone connection the
 * stylesheets and the document get the whole link instead of sharing it with ~200 KB of
 * scripts, and the first paint no longer waits behind script evaluation.
 *
 * Before hydration links are plain links and forms post natively; only widgets (the
 * countdown, the theme and language menus) wait a frame longer.
 */

/** `type` of React Router's module script while it waits for the first paint (browsers ignore unknown types). */
export const DEFERRED_MODULE_TYPE = "text/x-module-after-paint";
/** `rel` of React Router's module preloads while they wait (browsers ignore unknown relations). */
export const DEFERRED_PRELOAD_REL = "x-modulepreload-after-paint";

/** A route module's `handle`: `{ paintFirst: true }` asks for hydration after the first paint. */
export interface PaintFirstRouteHandle {
  paintFirst?: boolean;
}

/** Handle of the public content pages: no antd, hydrated after the first paint. */
export const CONTENT_PAGE_HANDLE = {
  ...NO_ANTD_HANDLE,
  paintFirst: true,
} as const satisfies PaintFirstRouteHandle;

/** Whether the matched page hydrates after its first paint: when one of its routes asks. */
export function routePaintsFirst(handles: readonly unknown[]): boolean {
  return handles.some((h) => (h as PaintFirstRouteHandle | undefined)?.paintFirst === true);
}

export { HYDRATE_START_EVENT, HYDRATED_EVENT };

/**
 * Module preloads restored per task: each starts a request, ~1.7 ms of main thread apiece
 * on a fast machine, so a trading page's ~25 in one task were a long task on a slow phone.
 */
const PRELOADS_PER_TASK = 6;

/**
 * Inline head script (every page; a no-op where nothing waits). After DOMContentLoaded it
 * waits for the browser to report the first contentful paint (Paint Timing; where that is
 * not supported, for the next animation frame and a task; and at most a second after the
 * first frame, for a page with nothing contentful), then turns the waiting preloads back
 * into module preloads (a few per task) and replaces the waiting script with a live module script carrying
 * the same CSP nonce (and the same `src`: a page without hydration waits the same way
 * for its islands bundle, features/shell/islands.ts). A page loading in a background tab paints nothing (and gets no
 * animation frames), so there it starts at once.
 *
 * Until React takes over, a click on a button that submits nothing (the "Show more" kind,
 * which does nothing without its handler) is remembered and replayed once hydration has
 * committed, so a visitor who clicks early is not ignored. Links and submit buttons keep
 * their native behaviour. Clicks from `hydrateRoot` on are React's own (it replays those
 * that land on parts still hydrating).
 */
export const PAINT_FIRST_BOOT_SCRIPT = `(function(){var d=document,w=window,done=0,q=[];function go(){if(done)return;done=1;var ls=[].slice.call(d.querySelectorAll('link[rel="${DEFERRED_PRELOAD_REL}"]'));(function step(){ls.splice(0,${PRELOADS_PER_TASK}).forEach(function(l){var n=d.createElement("link");n.rel="modulepreload";n.href=l.href;l.replaceWith(n)});if(ls.length)return setTimeout(step,0);var o=d.querySelector('script[type="${DEFERRED_MODULE_TYPE}"]');if(!o)return;var s=d.createElement("script");s.type="module";s.nonce=o.nonce;if(o.src)s.src=o.src;else s.textContent=o.textContent;o.replaceWith(s)})()}function later(){if(d.visibilityState==="hidden")return go();d.addEventListener("visibilitychange",go,{once:true});var P=w.PerformanceObserver,t=P&&P.supportedEntryTypes||[];if(t.indexOf("paint")>=0)new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();go()}}).observe({type:"paint",buffered:true});requestAnimationFrame(function(){setTimeout(go,t.indexOf("paint")>=0?1000:0)})}function early(e){var b=e.target instanceof Element&&e.target.closest("button");if(b&&!b.disabled&&(b.type==="button"||!b.form))q.push(b)}d.addEventListener("click",early,true);w.addEventListener("${HYDRATE_START_EVENT}",function(){d.removeEventListener("click",early,true)},{once:true});w.addEventListener("${HYDRATED_EVENT}",function(){var b=q;q=[];b.forEach(function(x){if(x.isConnected)x.click()})},{once:true});if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",later,{once:true});else later()})()`;

/** Tells the boot script that hydration has committed: it replays the early clicks. */
export function announceHydrated(): void {
  window.dispatchEvent(new Event(HYDRATED_EVENT));
}
