import { randomBytes } from "node:crypto";
import { Header } from "@meridian/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isApiUrl } from "./api-path.ts";
import { publicHost } from "./public-origin.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** This response's CSP nonce: every inline script must carry it. */
    cspNonce: string;
  }
}

export interface SecurityHeadersOptions {
  /** Image hosts allowed in `img-src` (https). */
  imageHosts: readonly string[];
  /** `frame-ancestors` sources, e.g. `'self'` or `'self' https://partner.example`. */
  frameAncestors: string;
  /** Extra `connect-src` sources (the Vite HMR socket in development). */
  connectSrc?: readonly string[];
  /** The site's own hosts: the socket source names one of them, never a Host the client made up. */
  publicDomains?: readonly string[];
  /** Telegram's Login Widget is configured: its script and frame are allowed where it is shown. */
  telegramWidget?: boolean;
}

/** The pages that show Telegram's Login Widget: login and sign-up, in any site language. */
const WIDGET_PAGES = /^\/(?:[A-Za-z]{2}(?:-[A-Za-z]{2})?\/)?(?:login|register)\/?(?:\?|$)/;

export function buildCsp(nonce: string, request: FastifyRequest, options: SecurityHeadersOptions): string {
  const secure = request.protocol === "https";
  const host = publicHost(request.host, options.publicDomains ?? []);
  const widget = options.telegramWidget === true && WIDGET_PAGES.test(request.url);
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${widget ? " https://telegram.org" : ""}`,
    // antd and React set style attributes; styles cannot run script.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${options.imageHosts.map((h) => `https://${h}`).join(" ")}`.trimEnd(),
    "font-src 'self' data:",
    `connect-src 'self' ${secure ? "wss" : "ws"}://${host} ${(options.connectSrc ?? []).join(" ")}`.trimEnd(),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${options.frameAncestors}`,
    // The widget is a frame of oauth.telegram.org; its sign-in opens a window there.
    ...(widget ? ["frame-src https://oauth.telegram.org"] : []),
  ];
  return directives.join("; ");
}

/**
 * The policy of every `/v1` answer. JSON runs no script, loads nothing and has no reason
 * to be framed, so the API gets the strict policy OWASP's REST security cheat sheet
 * recommends: one constant string, no nonce to draw (a `randomBytes` call and a policy
 * string built per request were about 8 % of the server's CPU per paper order).
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Security headers on every response, including static files and Vite middleware
 * answers: set on the raw response in `onRequest`, so whichever layer writes the
 * head sends them. Pages and everything else outside `/v1` get the page policy with a
 * fresh nonce per response (the SSR handler puts it on every inline script).
 */
export function installSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions): void {
  app.decorateRequest("cspNonce", "");
  app.addHook("onRequest", (request, reply, done) => {
    const raw = reply.raw;
    raw.setHeader(Header.REQUEST_ID, request.id);
    if (isApiUrl(request.url)) {
      raw.setHeader("content-security-policy", API_CSP);
    } else {
      const nonce = randomBytes(16).toString("base64");
      request.cspNonce = nonce;
      raw.setHeader("content-security-policy", buildCsp(nonce, request, options));
    }
    raw.setHeader("x-content-type-options", "nosniff");
    raw.setHeader("referrer-policy", "strict-origin-when-cross-origin");
    raw.setHeader("cross-origin-opener-policy", "same-origin");
    // request.protocol reads X-Forwarded-Proto only from a trusted proxy (TRUST_PROXY).
    if (request.protocol === "https") {
      raw.setHeader("strict-transport-security", "max-age=31536000; includeSubDomains");
    }
    done();
  });
}
