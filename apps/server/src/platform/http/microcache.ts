import type { Readable } from "node:stream";
import { Header, REFRESH_COOKIE, SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isbot } from "isbot";
import { isApiUrl } from "./api-path.ts";
import { fillGzipTemplate, type GzipTemplate, gzipTemplate } from "./gzip-template.ts";

/**
 * Micro-cache for anonymous HTML pages: the same page for the same visitor inputs is
 * rendered at most once per `ttlMs` (React render is ~all of a page's CPU), so a burst of
 * anonymous traffic costs one render per page per TTL.
 *
 * What may be served from cache: GET page requests (never `/v1`) without a session or
 * refresh cookie. What is stored: 200 `text/html` answers without `Set-Cookie` and without
 * `Cache-Control: private | no-store`, as a string with this response's CSP nonce replaced
 * by a placeholder; every answer from the cache gets the placeholder replaced by its own
 * fresh nonce (the one the CSP header already carries), so no two responses share a
 * nonce. Gzip clients get a template deflated once per entry with the nonce spliced in;
 * other encodings are compressed per response by the plugin, after substitution.
 *
 * NOTE: the key is everything a page loader reads from the request (root.tsx,
 * routes/locale-layout.tsx, the headers `api()` forwards, see FORWARDED_API_HEADERS):
 * origin and URL, the theme and locale cookies, Accept-Language, the locale, language and
 * paper-trading headers, and whether the user agent is a bot (bots get fully rendered
 * HTML). A loader that starts reading another cookie or header must add it here.
 * Other cookies are ignored: for a visitor without a session no loader reads them.
 *
 * A miss buffers the page before sending it (no streaming for cacheable answers); pages
 * that defer slow data to the stream wait for it, as bots already do.
 */
export interface MicrocacheOptions {
  /** Time to live of an entry in milliseconds; 0 turns the cache off. */
  ttlMs: number;
  /** Most entries kept; the least recently used goes first. */
  maxEntries?: number;
}

/** `SSR_MICROCACHE_MS` (default 1000; `0` turns the cache off). */
export function microcacheMsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SSR_MICROCACHE_MS;
  if (raw === undefined || raw === "") return 1000;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`SSR_MICROCACHE_MS must be a number >= 0, got ${raw}`);
  return ms;
}

/** Stands in for the CSP nonce in stored HTML; never a valid base64 nonce. */
export const NONCE_PLACEHOLDER = "__meridian_csp_nonce__";

const KEYED_COOKIES = ["theme", "locale"] as const;
const KEYED_HEADERS = ["accept-language", Header.LOCALE, Header.LANGUAGE, Header.PAPER_TRADING] as const;
/** Set per response by installSecurityHeaders or by the transport; never replayed. */
const UNSTORED_HEADERS = new Set([
  "content-security-policy",
  Header.REQUEST_ID.toLowerCase(),
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "set-cookie",
]);

interface Entry {
  expiresAt: number;
  html: string;
  headers: Record<string, string | string[]>;
  /** The page deflated around its nonce holes, made on the first gzip answer. */
  gzip?: GzipTemplate;
}

/** Whether Accept-Encoding takes gzip (an explicit `q=0` refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  for (const token of header.split(",")) {
    const [name = "", ...params] = token.split(";");
    const coding = name.trim().toLowerCase();
    if (coding !== "gzip" && coding !== "x-gzip") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The cache key, or undefined when this request must not use the cache. */
export function microcacheKey(request: FastifyRequest): string | undefined {
  if (request.method !== "GET") return undefined;
  if (isApiUrl(request.url)) return undefined;
  const cookie = request.headers.cookie ?? "";
  if (
    cookieValue(cookie, SESSION_COOKIE) !== undefined ||
    cookieValue(cookie, REFRESH_COOKIE) !== undefined
  ) {
    return undefined;
  }
  const parts = [`${request.protocol}://${request.host}${request.url}`];
  for (const name of KEYED_COOKIES) parts.push(cookieValue(cookie, name) ?? "");
  for (const name of KEYED_HEADERS) {
    const value = request.headers[name];
    parts.push(typeof value === "string" ? value : "");
  }
  const userAgent = request.headers["user-agent"];
  parts.push(userAgent && isbot(userAgent) ? "bot" : "");
  return parts.join("\n");
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

function isStorable(reply: FastifyReply): boolean {
  if (reply.statusCode !== 200 || reply.hasHeader("set-cookie")) return false;
  const type = reply.getHeader("content-type");
  if (typeof type !== "string" || !type.startsWith("text/html")) return false;
  const cacheControl = reply.getHeader("cache-control");
  return !(typeof cacheControl === "string" && /private|no-store/i.test(cacheControl));
}

function storedHeaders(reply: FastifyReply): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || UNSTORED_HEADERS.has(name.toLowerCase())) continue;
    out[name] = typeof value === "number" ? String(value) : value;
  }
  return out;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The micro-cache key of a cacheable request that missed (set on a miss only). */
    microcacheKey?: string | undefined;
    /** Whether this request renders the page others with the same key wait for. */
    microcacheOwner?: boolean | undefined;
  }
}

/**
 * Installs the cache on the page scope (the React Router handler's). Hooks of the scope
 * run before the route's compression hook, so stored HTML is always uncompressed.
 */
export function installMicrocache(scope: FastifyInstance, options: MicrocacheOptions): void {
  const { ttlMs } = options;
  // Pages are ~35 KB: a few MB at most, even when a crawler walks every query string.
  const maxEntries = options.maxEntries ?? 200;
  if (ttlMs <= 0) return;
  scope.decorateRequest("microcacheKey", undefined);
  scope.decorateRequest("microcacheOwner", undefined);
  // Map iteration order is insertion order: re-inserting on use makes the first key the LRU.
  const entries = new Map<string, Entry>();

  // Renders in flight per key: requests for the same page wait for the first one's HTML
  // instead of rendering it again (an expiry under load would otherwise start one render
  // per waiting connection). Settled with undefined when that answer is not stored.
  const inFlight = new Map<string, { promise: Promise<Entry | undefined>; settle: (e?: Entry) => void }>();
  const settle = (request: FastifyRequest, entry?: Entry) => {
    const key = request.microcacheKey;
    const flight = key === undefined ? undefined : inFlight.get(key);
    if (key === undefined || flight === undefined || request.microcacheOwner !== true) return;
    inFlight.delete(key);
    request.microcacheOwner = false;
    flight.settle(entry);
  };

  // A hit for a gzip client costs no compression: the page is deflated once around its
  // nonce holes (gzip-template.ts) and each answer splices its own nonce in. Gzip rather
  // than brotli here: level 6 is about brotli quality 2's size, and brotli cannot splice.
  // Others go through the compression plugin like any answer.
  const serve = (request: FastifyRequest, reply: FastifyReply, entry: Entry) => {
    reply.code(200).headers(entry.headers).header("x-ssr-cache", "hit");
    if (
      acceptsGzip(request.headers["accept-encoding"]) &&
      request.headers["x-no-compression"] === undefined
    ) {
      entry.gzip ??= gzipTemplate(entry.html, NONCE_PLACEHOLDER);
      const vary = reply.getHeader("vary");
      return reply
        .header("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding")
        .header("content-encoding", "gzip")
        .send(fillGzipTemplate(entry.gzip, request.cspNonce));
    }
    return reply.send(entry.html.replaceAll(NONCE_PLACEHOLDER, request.cspNonce));
  };

  scope.addHook("onRequest", async (request, reply) => {
    const key = microcacheKey(request);
    if (key === undefined) return;
    const entry = entries.get(key);
    if (entry !== undefined && entry.expiresAt > Date.now()) {
      entries.delete(key);
      entries.set(key, entry);
      return serve(request, reply, entry);
    }
    if (entry) entries.delete(key);
    const flight = inFlight.get(key);
    if (flight) {
      const rendered = await flight.promise;
      if (rendered) return serve(request, reply, rendered);
    }
    request.microcacheKey = key;
    if (!inFlight.has(key)) {
      let resolve: (e?: Entry) => void = () => {};
      const promise = new Promise<Entry | undefined>((r) => {
        resolve = r;
      });
      inFlight.set(key, { promise, settle: resolve });
      request.microcacheOwner = true;
    }
  });
  // Whatever ends the request (stored, not storable, failed, aborted) releases the waiters.
  scope.addHook("onResponse", async (request) => settle(request));
  scope.addHook("onRequestAbort", async (request) => settle(request));

  scope.addHook("onSend", async (request, reply, payload) => {
    const key = request.microcacheKey;
    if (key === undefined || reply.getHeader("x-ssr-cache") === "hit" || !isStorable(reply)) return payload;
    let html: string;
    if (typeof payload === "string") html = payload;
    else if (Buffer.isBuffer(payload)) html = payload.toString("utf8");
    else if (payload !== null && typeof (payload as Readable).pipe === "function") {
      html = await readAll(payload as Readable);
    } else return payload;
    if (reply.statusCode !== 200) return html;
    const nonce = request.cspNonce;
    const entry: Entry = {
      expiresAt: Date.now() + ttlMs,
      html: nonce ? html.replaceAll(nonce, NONCE_PLACEHOLDER) : html,
      headers: storedHeaders(reply),
    };
    entries.set(key, entry);
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
    settle(request, entry);
    reply.header("x-ssr-cache", "miss");
    return html;
  });
}
