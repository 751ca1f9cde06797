import crypto from "node:crypto";
import {
  type ApiKeySummary,
  antiPhishingBody,
  Code,
  changeEmailBody,
  changePasswordBody,
  changePhoneBody,
  DEFAULT_LOCALE,
  googleBindBody,
  googleSwitchBody,
  isSupportedLocale,
  kycSubmitBody,
  LOCALE_COOKIE,
  loginBody,
  loginHistoryQuery,
  ok,
  REFRESH_COOKIE,
  registerEmailBody,
  registerMobileAndEmailBody,
  registerMobileBody,
  resetPasswordBody,
  resetSendCodeBody,
  revokeDeviceBody,
  SESSION_COOKIE,
  SignMode,
  securitySendCodeBody,
  sendCodeBody,
  unbindGoogleBody,
  verifyLoginBody,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { BusinessError } from "../../platform/errors.ts";
import { readCookie } from "../../platform/http/cookies.ts";
import { markGuard } from "../../platform/http/route-table.ts";
import { deviceOf } from "../gateway-sign/index.ts";
import type { AccountsConfig } from "./config.ts";
import { authOf, clearSessionCookies, isSameOrigin, makeGuard, setSessionCookies } from "./guard.ts";
import { parseBody } from "./http.ts";
import { presentUserInfo } from "./present.ts";
import { sha256Hex } from "./secrets.ts";
import type { Actor } from "./security-service.ts";
import type { AccountsService, IssuedSession, RequestMeta } from "./service.ts";

/** A long-lived random id per browser (HttpOnly): the devices page and new-device notices. */
export const DEVICE_COOKIE = "mer_device";
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

/** The request's site locale: the `locale` header the client sends, else the locale cookie. */
function localeOf(request: FastifyRequest): string {
  const header = request.headers.locale;
  const candidate = typeof header === "string" ? header : readCookie(request, LOCALE_COOKIE);
  return candidate !== undefined && isSupportedLocale(candidate) ? candidate : DEFAULT_LOCALE;
}

/** The stored device id: a hash of the cookie, so the page can name a device without exposing the cookie. */
function deviceIdOf(request: FastifyRequest): string | null {
  const value = readCookie(request, DEVICE_COOKIE);
  return value !== undefined && /^[0-9a-f]{32}$/.test(value) ? sha256Hex(value) : null;
}

function appendCookie(reply: FastifyReply, line: string): void {
  const prev = reply.getHeader("set-cookie");
  const lines = Array.isArray(prev) ? prev.map(String) : prev === undefined ? [] : [String(prev)];
  reply.header("set-cookie", [...lines, line]);
}

/** Gives a browser without one its device cookie (at sign-up and login). */
function ensureDevice(request: FastifyRequest): { deviceId: string; cookie: string | undefined } {
  const existing = deviceIdOf(request);
  if (existing !== null) return { deviceId: existing, cookie: undefined };
  const value = crypto.randomBytes(16).toString("hex");
  const secure = request.protocol === "https" ? "; Secure" : "";
  return {
    deviceId: sha256Hex(value),
    cookie: `${DEVICE_COOKIE}=${value}; Path=/; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`,
  };
}

function meta(request: FastifyRequest, deviceId: string | null = deviceIdOf(request)): RequestMeta {
  return {
    ip: request.ip,
    userAgent: request.headers["user-agent"] ?? "",
    device: deviceOf(request),
    locale: localeOf(request),
    deviceId,
  };
}

const deviceCookies = new WeakMap<FastifyReply, string | undefined>();

/** Login-type handlers: the meta with a device id, and the device cookie set on the reply when new. */
function loginMeta(request: FastifyRequest, reply: FastifyReply): RequestMeta {
  const device = ensureDevice(request);
  deviceCookies.set(reply, device.cookie);
  return meta(request, device.deviceId);
}

function actorOf(request: FastifyRequest): Actor {
  const { user, session } = authOf(request);
  return {
    user,
    tokenHash: session.token_hash,
    deviceId: session.device_id,
    ip: request.ip,
    userAgent: request.headers["user-agent"] ?? "",
  };
}

/** What the API keys page reads; the bot-API module provides it (keys of an account and its subs). */
export interface ApiKeyDirectory {
  keysOf(userId: string): Promise<ApiKeySummary[]>;
}

/** preHandler of cookie-authenticated writes that need no session (refresh, logout): same-origin only. */
const sameOriginOnly = markGuard(
  async function sameOriginOnly(request: FastifyRequest): Promise<void> {
    if (!isSameOrigin(request))
      throw new BusinessError(Code.FORBIDDEN, "Cross-site request refused", { status: 403 });
  },
  { user: false, admin: false, csrf: true },
);

/** Account security changes are signed with the body (docs/product.md §7 mode 2). */
const SIGNED = { sign: SignMode.PATH_TIME_TRACE_BODY } as const;

export interface AccountsRouteDeps {
  service: AccountsService;
  config: AccountsConfig;
  apiKeys: ApiKeyDirectory;
}

/** Handlers read as auth -> validate -> service -> present; thrown AppErrors reach the edge's envelope. */
export function accountsRoutes(app: FastifyInstance, deps: AccountsRouteDeps): void {
  const { service } = deps;
  const requireUser = makeGuard(service);
  const requireUserRead = makeGuard(service, { csrf: false });

  function loggedIn(request: FastifyRequest, reply: FastifyReply, s: IssuedSession) {
    setSessionCookies(request, reply, s);
    const cookie = deviceCookies.get(reply);
    if (cookie !== undefined) appendCookie(reply, cookie);
    return ok({ verifyRequired: false, userInfo: { userId: s.userId }, knownDevice: false });
  }

  app.post("/v1/user/public/sendCode", async (request) =>
    ok(await service.sendCode(parseBody(sendCodeBody, request.body), request.ip, localeOf(request))),
  );

  app.post("/v1/user/register/email", async (request, reply) =>
    loggedIn(
      request,
      reply,
      await service.register("email", parseBody(registerEmailBody, request.body), loginMeta(request, reply)),
    ),
  );
  app.post("/v1/user/register/mobile", async (request, reply) =>
    loggedIn(
      request,
      reply,
      await service.register(
        "mobile",
        parseBody(registerMobileBody, request.body),
        loginMeta(request, reply),
      ),
    ),
  );
  app.post("/v1/user/register/mobileAndEmail", async (request, reply) =>
    loggedIn(
      request,
      reply,
      await service.register(
        "mobileAndEmail",
        parseBody(registerMobileAndEmailBody, request.body),
        loginMeta(request, reply),
      ),
    ),
  );

  app.post("/v1/user/login", async (request, reply) => {
    const body = parseBody(loginBody, request.body);
    let knownDevice = false;
    if (
      body.hashUserId !== undefined &&
      body.userCheckDeviceSign !== undefined &&
      body.lastAlgorithm !== undefined &&
      body.deviceCheckTime !== undefined
    ) {
      knownDevice = await service.checkDevice({
        hashUserId: body.hashUserId,
        alg: body.lastAlgorithm,
        signature: body.userCheckDeviceSign,
        path: "/v1/user/login",
        tm: body.deviceCheckTime,
      });
    }
    const result = await service.login(body, loginMeta(request, reply));
    // No cookie before the second factor: the device cookie comes with the session.
    if (result.kind === "challenge") return ok({ verifyRequired: true, ...result.challenge });
    loggedIn(request, reply, result.session);
    return ok({ verifyRequired: false, userInfo: { userId: result.session.userId }, knownDevice });
  });

  app.post("/v1/user/login/verify-login", async (request, reply) => {
    const session = await service.verifyLogin(
      parseBody(verifyLoginBody, request.body),
      loginMeta(request, reply),
    );
    return loggedIn(request, reply, session);
  });

  app.post("/v1/user/refresh", { preHandler: sameOriginOnly }, async (request, reply) => {
    const session = await service.refresh(readCookie(request, REFRESH_COOKIE), meta(request));
    return loggedIn(request, reply, session);
  });

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    await service.logout(readCookie(request, SESSION_COOKIE));
    clearSessionCookies(request, reply);
    return ok(null);
  };
  app.post("/v1/user/logout", { preHandler: sameOriginOnly }, logout);
  app.post("/btapi/common/logout", { preHandler: sameOriginOnly }, logout);
  // Clears the cookies only (a forced logout may hold an already-dead token): nothing for a forger to gain.
  app.post("/v1/user/public/clearCookie", async (request, reply) => {
    clearSessionCookies(request, reply);
    return ok(null);
  });

  app.post("/v1/user/overview/userinfo", { preHandler: requireUserRead }, async (request) =>
    ok(presentUserInfo(authOf(request).user)),
  );

  app.post("/v1/user/google/setup", { preHandler: requireUser, config: SIGNED }, async (request) =>
    ok(await service.googleSetup(authOf(request).user)),
  );
  app.post("/v1/user/google/bind", { preHandler: requireUser, config: SIGNED }, async (request) => {
    await service.googleBind(
      authOf(request).user.id,
      parseBody(googleBindBody, request.body).googleCode,
      request.ip,
    );
    return ok(null);
  });
  app.post("/v1/user/google/enable", { preHandler: requireUser, config: SIGNED }, async (request) => {
    const body = parseBody(googleSwitchBody, request.body);
    await service.googleSwitch(authOf(request).user.id, body.googleCode, body.enable, request.ip);
    return ok(null);
  });

  app.post("/v1/user/kyc/submit", { preHandler: requireUser, config: SIGNED }, async (request) =>
    ok(await service.submitKyc(authOf(request).user, parseBody(kycSubmitBody, request.body))),
  );

  securityRoutes(app, deps);
}

/** The account centre: passwords, anti-phishing, bindings, devices, history, API keys, agreements. */
function securityRoutes(app: FastifyInstance, deps: AccountsRouteDeps): void {
  const security = deps.service.security;
  const requireUser = makeGuard(deps.service);
  const requireUserRead = makeGuard(deps.service, { csrf: false });

  app.post("/v1/user/public/password/sendCode", async (request) =>
    ok(await security.sendResetCode(parseBody(resetSendCodeBody, request.body), request.ip)),
  );
  app.post("/v1/user/public/password/reset", { preHandler: sameOriginOnly }, async (request) => {
    await security.resetPassword(parseBody(resetPasswordBody, request.body), meta(request));
    return ok(null);
  });

  app.post("/v1/user/security/sendCode", { preHandler: requireUser, config: SIGNED }, async (request) =>
    ok(await security.sendCode(authOf(request).user, parseBody(securitySendCodeBody, request.body))),
  );
  app.post(
    "/v1/user/security/password/change",
    { preHandler: requireUser, config: SIGNED },
    async (request) =>
      ok(await security.changePassword(actorOf(request), parseBody(changePasswordBody, request.body))),
  );
  app.post("/v1/user/security/antiPhishing", { preHandler: requireUser, config: SIGNED }, async (request) => {
    await security.setAntiPhishing(actorOf(request), parseBody(antiPhishingBody, request.body));
    return ok(null);
  });
  app.post("/v1/user/security/email/change", { preHandler: requireUser, config: SIGNED }, async (request) => {
    await security.changeEmail(actorOf(request), parseBody(changeEmailBody, request.body));
    return ok(null);
  });
  app.post("/v1/user/security/phone/change", { preHandler: requireUser, config: SIGNED }, async (request) => {
    await security.changePhone(actorOf(request), parseBody(changePhoneBody, request.body));
    return ok(null);
  });
  app.post("/v1/user/google/unbind", { preHandler: requireUser, config: SIGNED }, async (request) => {
    await security.unbindGoogle(actorOf(request), parseBody(unbindGoogleBody, request.body));
    return ok(null);
  });

  app.get("/v1/user/security/devices", { preHandler: requireUserRead }, async (request) =>
    ok(await security.devices(actorOf(request))),
  );
  app.post("/v1/user/security/devices/revoke", { preHandler: requireUser, config: SIGNED }, async (request) =>
    ok(await security.revokeDevice(actorOf(request), parseBody(revokeDeviceBody, request.body).deviceId)),
  );
  app.post(
    "/v1/user/security/devices/revokeOthers",
    { preHandler: requireUser, config: SIGNED },
    async (request) => ok(await security.revokeOthers(actorOf(request))),
  );
  app.get("/v1/user/security/loginHistory", { preHandler: requireUserRead }, async (request) => {
    const q = parseBody(loginHistoryQuery, request.query);
    return ok(await security.history(actorOf(request), q.page, q.pageSize));
  });
  app.get("/v1/user/security/apiKeys", { preHandler: requireUserRead }, async (request) =>
    ok({ keys: await deps.apiKeys.keysOf(authOf(request).user.id) }),
  );
  app.post("/v1/user/agreement/contract", { preHandler: requireUser, config: SIGNED }, async (request) => {
    await security.agreeContract(authOf(request).user);
    return ok(null);
  });
}
