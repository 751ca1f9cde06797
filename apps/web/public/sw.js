/*
 * Meridian's service worker (registered from /download and by the installed app; see
 * docs/download.md). Offline it serves:
 * - pages: network first; each public page that loads is kept, and offline the kept copy
 *   of that URL answers, else a small offline page linking the kept pages (plain HTML:
 *   another page's HTML under this URL would not hydrate);
 * - /assets/*: the build's hashed files, cache first (a name never changes content);
 * - market data (/v1/market/*): network first, so the last prices show offline.
 * Private answers (Cache-Control private or no-store: a logged-in user's pages) and every
 * other /v1 call are never stored. Plain script: the worker is served as a static file.
 */
const VERSION = "meridian-v1";
const PAGES = `${VERSION}-pages`;
const ASSETS = `${VERSION}-assets`;
const MARKET = `${VERSION}-market`;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([PAGES, ASSETS, MARKET]);
      for (const name of await caches.keys()) if (!keep.has(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

function storable(response) {
  if (response?.status !== 200 || response.type !== "basic") return false;
  const cc = response.headers.get("cache-control") || "";
  return !/private|no-store/i.test(cc);
}

async function networkFirst(request, cacheName, fallbackKey) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (storable(response)) {
      await cache.put(request, response.clone());
      if (fallbackKey && /\/download\/?$/.test(new URL(request.url).pathname)) {
        await cache.put(fallbackKey, response.clone());
      }
    }
    return response;
  } catch (err) {
    const kept =
      (await cache.match(request, { ignoreVary: true })) || (fallbackKey && (await cache.match(fallbackKey)));
    if (kept) return kept;
    throw err;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(ASSETS);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (storable(response)) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, PAGES, true));
  } else if (url.pathname.startsWith("/assets/") || url.pathname.startsWith("/icons/")) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname.startsWith("/v1/market/")) {
    event.respondWith(networkFirst(request, MARKET));
  }
});
