import { Code, REFRESH_COOKIE, SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { BusinessError } from "../../platform/errors.ts";
import { readCookie } from "../../platform/http/cookies.ts";
import { markGuard } from "../../platform/http/route-table.ts";
import { verdictMemo } from "../../platform/http/verdict-memo.ts";
import type { AccountsService, AuthContext, IssuedSession, SessionLookup } from "./service.ts";
import { REFRESH_TTL_MS, SESSION_TTL_MS } from "./service.ts";

const auth = new WeakMap<FastifyRequest, AuthContext>();
/** The session read of a request, shared by the signature check (preValidation) and the guard. */
const lookups = new WeakMap<FastifyRequest, { token: string; found: Promise<SessionLookup> }>();

/** The request's session rows for `token`, read once per request (see `findSession`). */
export function sessionLookup(
  service: Pick<AccountsService, "findSession">,
  request: FastifyRequest,
  token: string,
): Promise<SessionLookup> {
  const hit = lookups.get(request);
  if (hit !== undefined && hit.token === token) return hit.found;
  const found = service.findSession(token);
  // A failed read is not kept: the guard reads again and answers with its own error.
  found.catch(() => lookups.delete(request));
  lookups.set(request, { token, found });
  return found;
}

/** The authenticated user and session of a request that passed `requireUser`. */
export function authOf(request: FastifyRequest): AuthContext {
  const ctx = auth.get(request);
  if (ctx === undefined) throw new BusinessError(Code.SESSION_INVALID, "Please log in");
  return ctx;
}

/**
 * Cross-site request forgery check for cookie-authenticated writes: the Origin must
 * name this host, or, without Origin, the browser must say Sec-Fetch-Site: same-origin.
 */
export function isSameOrigin(request: FastifyRequest): boolean {
  const host = request.headers.host;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (host === undefined || origin === "null") return false;
    return originNamesHost(`${origin}\n${host}`);
  }
  return request.headers["sec-fetch-site"] === "same-origin";
}

/**
 * Whether an Origin names the Host, given as "origin\nhost" (no header holds a line
 * break); remembered: a URL parse per write was measurable on the order path.
 */
const originNamesHost = verdictMemo(256, (pair) => {
  const cut = pair.indexOf("\n");
  try {
    return new URL(pair.slice(0, cut)).host === pair.slice(cut + 1);
  } catch {
    return false;
  }
});

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function cookieOptions(request: FastifyRequest, maxAgeMs: number, path = "/") {
  const secure = request.protocol === "https";
  return `Path=${path}; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Sets the session and refresh cookies (HttpOnly, SameSite=Lax, Secure under https). */
export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, s: IssuedSession): void {
  reply.header("set-cookie", [
    `${SESSION_COOKIE}=${s.token}; ${cookieOptions(request, SESSION_TTL_MS)}`,
    `${REFRESH_COOKIE}=${s.refreshToken}; ${cookieOptions(request, REFRESH_TTL_MS, "/v1/user")}`,
  ]);
}

export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void {
  reply.header("set-cookie", [
    `${SESSION_COOKIE}=; ${cookieOptions(request, 0)}`,
    `${REFRESH_COOKIE}=; ${cookieOptions(request, 0, "/v1/user")}`,
  ]);
}

export interface GuardOptions {
  /** Read-only POSTs (user info) skip the Origin check: they change nothing. */
  csrf?: boolean;
  admin?: boolean;
}

/** Builds a Fastify preHandler (or route `auth`) that admits logged-in users (or admins) only; it throws the envelope error. */
export function makeGuard(
  service: AccountsService,
  options: GuardOptions = {},
): (request: FastifyRequest) => Promise<void> {
  const csrf = options.csrf ?? true;
  return markGuard(guard, { user: true, admin: options.admin === true, csrf });
  async function guard(request: FastifyRequest): Promise<void> {
    if (csrf && !SAFE_METHODS.has(request.method) && !isSameOrigin(request)) {
      throw new BusinessError(Code.FORBIDDEN, "Cross-site request refused", { status: 403 });
    }
    const token = readCookie(request, SESSION_COOKIE);
    const ctx = await service.authenticate(
      token,
      token === undefined || token.length < 16 ? undefined : sessionLookup(service, request, token),
    );
    if (options.admin === true && ctx.user.role !== "admin") {
      throw new BusinessError(Code.FORBIDDEN, "Administrators only", { status: 403 });
    }
    auth.set(request, ctx);
  }
}
