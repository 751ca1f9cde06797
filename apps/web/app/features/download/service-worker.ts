/** Path of the service worker (apps/web/public/sw.js), scope the whole site. */
export const SERVICE_WORKER_URL = "/sw.js";

/**
 * Registers the offline worker. Called by /download and, on every page, by the installed
 * app (display-mode standalone); a browser tab elsewhere never gets one unasked, so the
 * worker never sits between an ordinary visit and the server.
 */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return null;
  try {
    return await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/" });
  } catch {
    // Insecure origin or blocked storage: the site works as before, without offline pages.
    return null;
  }
}

/** True inside the installed app. */
export function isStandalone(): boolean {
  return typeof window !== "undefined" && window.matchMedia?.("(display-mode: standalone)").matches === true;
}
