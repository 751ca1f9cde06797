import type { IncomingMessage } from "node:http";
import { Code } from "@meridian/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError, errors } from "../errors.ts";
import { sendEdgeAnswer } from "./api-edge.ts";
import { isApiUrl } from "./api-path.ts";
import { type BadPathReason, canonicalPath, canonicalUrl } from "./canonical-path.ts";
import { verdictMemo } from "./verdict-memo.ts";

/** Where a request whose path has no canonical form is routed: a route that only answers 400. */
export const BAD_PATH_URL = "/_meridian/bad-path";

interface EdgeVerdict {
  /** Decoded canonical path; undefined for a refused path. */
  path: string | undefined;
  reason: BadPathReason | undefined;
  /** The raw target differed from its canonical form. */
  changed: boolean;
}

const verdicts = new WeakMap<IncomingMessage, EdgeVerdict>();

/**
 * Fastify's `rewriteUrl`: runs before routing, so the router, every hook and every
 * handler see the canonical target (`request.url`; the raw one stays in
 * `request.originalUrl` for logs only).
 */
export function rewriteToCanonical(req: IncomingMessage): string {
  const raw = req.url ?? "/";
  const c = canonicalUrl(raw);
  if (!c.ok) {
    verdicts.set(req, { path: undefined, reason: c.reason, changed: true });
    return BAD_PATH_URL;
  }
  verdicts.set(req, { path: c.path, reason: undefined, changed: !c.unchanged });
  return c.url;
}

/**
 * The decoded canonical path of a request: what every check that looks at a path uses.
 * Requests that did not come through `rewriteUrl` (none in the app) are canonicalised here.
 */
export function canonicalPathOf(request: FastifyRequest): string {
  const known = verdicts.get(request.raw)?.path;
  if (known !== undefined) return known;
  const q = request.url.indexOf("?");
  const c = canonicalPath(q < 0 ? request.url : request.url.slice(0, q));
  return c.ok ? c.path : BAD_PATH_URL;
}

/** A reg-name, IPv4 address or bracketed IPv6 literal, then an optional port (RFC 9110 §7.2). */
const HOST_SHAPE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=-]+)(?::\d{1,5})?$/;

/**
 * Whether a Host header can name this server. Pages build URLs from it (canonical links,
 * redirects), so a value such as `a b` or `[::1` would otherwise fail deep inside a page
 * as a 500; the edge answers it 400 instead. WHATWG URL parsing settles what the shape
 * lets through (a port over 65535, a malformed IPv6 literal).
 */
export const isWellFormedHost: (host: string) => boolean = verdictMemo(256, hostShapeHolds);

function hostShapeHolds(host: string): boolean {
  if (!HOST_SHAPE.test(host)) return false;
  try {
    const url = new URL(`http://${host}/`);
    return url.pathname === "/" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

const REASONS: Record<BadPathReason, string> = {
  "not-origin-form": "The request target must be a path starting with /",
  "bad-escape": "The path has a malformed percent-escape or character",
  "encoded-slash": "The path has an encoded slash (%2F)",
  backslash: "The path has a backslash",
  control: "The path has a control character",
};

/**
 * The root scope's part of the canonical path: the 400 answer for refused paths, and a
 * permanent redirect of page requests (GET/HEAD outside `/v1`) to their canonical path,
 * so the address bar, the page cache and the browser router agree with the server. API
 * requests are served as their canonical path without a redirect.
 */
export function installPathEdge(app: FastifyInstance): void {
  app.all(BAD_PATH_URL, async (request, reply) => {
    const reason = verdicts.get(request.raw)?.reason;
    const msg = reason === undefined ? "Malformed request path" : REASONS[reason];
    return sendEdgeAnswer(request, reply, new AppError(Code.MALFORMED_PATH, msg, { status: 400 }));
  });
  // A route declared `websocket: true` says so in its config, which the hook below reads.
  app.addHook("onRoute", (route) => {
    if ((route as { websocket?: boolean }).websocket === true)
      route.config = { ...route.config, websocket: true };
  });
  app.addHook("onRequest", async (request, reply) => {
    const host = request.headers.host;
    if (host !== undefined && !isWellFormedHost(host)) {
      return sendEdgeAnswer(
        request,
        reply,
        new AppError(Code.MALFORMED_HOST, "The Host header is not a host name with an optional port", {
          status: 400,
        }),
      );
    }
    // An upgrade to a path that is no WebSocket route is refused before anything else:
    // @fastify/websocket would otherwise complete the handshake (101) and then close, and
    // a client could hold sockets open that way. The answer ends the connection.
    if (request.headers.upgrade !== undefined && request.routeOptions.config.websocket !== true) {
      reply.header("connection", "close");
      // The socket left Node's HTTP parser for the upgrade: nothing else closes it.
      reply.raw.once("finish", () => request.raw.socket.destroy());
      return sendEdgeAnswer(
        request,
        reply,
        errors.notFound(`No WebSocket endpoint at ${canonicalPathOf(request)}`),
      );
    }
    const verdict = verdicts.get(request.raw);
    if (verdict?.path === undefined || !verdict.changed) return;
    if (isApiUrl(request.url) || (request.method !== "GET" && request.method !== "HEAD")) return;
    // NOTE: request.url is the canonical target: one leading slash, never `//` or `/\`.
    return reply.redirect(request.url, 301);
  });
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Set for routes declared `websocket: true` (installPathEdge): upgrades go only there. */
    websocket?: boolean;
  }
}
