import crypto from "node:crypto";
import {
  AccountCode,
  type ApiKeySummary,
  antiPhishingBody,
  Code,
  changeEmailBody,
  changePasswordBody,
  changePhoneBody,
  DEFAULT_LOCALE,
  emptyBody,
  googleBindBody,
  googleSwitchBody,
  isSupportedLocale,
  kycSubmitBody,
  LOCALE_COOKIE,
  loginBody,
  loginHistoryQuery,
  NOT_OFFERED_LOGIN_PATHS,
  notOfferedLoginBody,
  oidcLoginBody,
  oidcStartBody,
  ok,
  passkeyDeleteBody,
  passkeyLoginBody,
  passkeyRegisterBody,
  qrTokenBody,
  REFRESH_COOKIE,
  recoveryCodesBody,
  registerEmailBody,
  registerMobileAndEmailBody,
  registerMobileBody,
  resetPasswordBody,
  resetSendCodeBody,
  revokeDeviceBody,
  SESSION_COOKIE,
  SecurityCode,
  SignMode,
  securitySendCodeBody,
  sendCodeBody,
  stepUpBody,
  telegramLoginBody,
  thirdBindBody,
  thirdTicketBody,
  thirdUnbindBody,
  unbindGoogleBody,
  verifyLoginBody,
  verifyLoginV2Body,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { BusinessError } from "../../platform/errors.ts";
import { readCookie } from "../../platform/http/cookies.ts";
import { route } from "../../platform/http/route.ts";
import { markGuard } from "../../platform/http/route-table.ts";
import { deviceOf } from "../gateway-sign/index.ts";
import type { AccountsConfig } from "./config.ts";
import { authOf, clearSessionCookies, isSameOrigin, makeGuard, setSessionCookies } from "./guard.ts";
import { presentUserInfo } from "./present.ts";
import { sha256Hex } from "./secrets.ts";
import type { Actor } from "./security-service.ts";
import type { AccountsService, IssuedSession, RequestMeta, ThirdSignInResult } from "./service.ts";

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
    steppedUpAt: session.stepped_up_at === null ? null : Number(session.stepped_up_at),
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
const SIGNED = SignMode.PATH_TIME_TRACE_BODY;

export interface AccountsRouteDeps {
  service: AccountsService;
  config: AccountsConfig;
  apiKeys: ApiKeyDirectory;
}

/**
 * Handlers read as auth -> validate -> service -> present: guards run before validation
 * (`auth`), the zod schemas are the routes' own (so the OpenAPI document shows them), and
 * thrown errors reach the edge's envelope.
 */
export function accountsRoutes(app: FastifyInstance, deps: AccountsRouteDeps): void {
  const { service } = deps;
  const requireUser = makeGuard(service);
  const requireUserRead = makeGuard(service, { csrf: false });

  function loggedIn(request: FastifyRequest, reply: FastifyReply, s: IssuedSession) {
    setSessionCookies(request, reply, s);
    const cookie = deviceCookies.get(reply);
    if (cookie !== undefined) appendCookie(reply, cookie);
    return { verifyRequired: false, userInfo: { userId: s.userId }, knownDevice: false };
  }

  route(app, {
    method: "POST",
    url: "/v1/user/public/sendCode",
    body: sendCodeBody,
    handler: ({ body, request }) => service.sendCode(body, request.ip, localeOf(request)),
  });

  for (const [kind, body] of [
    ["email", registerEmailBody],
    ["mobile", registerMobileBody],
    ["mobileAndEmail", registerMobileAndEmailBody],
  ] as const) {
    route(app, {
      method: "POST",
      url: `/v1/user/register/${kind}`,
      body,
      handler: async ({ body, request, reply }) =>
        loggedIn(request, reply, await service.register(kind, body, loginMeta(request, reply))),
    });
  }

  route(app, {
    method: "POST",
    url: "/v1/user/login",
    body: loginBody,
    handler: async ({ body, request, reply }) => {
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
      if (result.kind === "challenge") return { verifyRequired: true, ...result.challenge };
      loggedIn(request, reply, result.session);
      return { verifyRequired: false, userInfo: { userId: result.session.userId }, knownDevice };
    },
  });

  route(app, {
    method: "POST",
    url: "/v1/user/login/verify-login",
    body: verifyLoginBody,
    handler: async ({ body, request, reply }) =>
      loggedIn(request, reply, await service.verifyLogin(body, loginMeta(request, reply))),
  });
  // v2: the same step, any factor the challenge lists (fidoVerifyCode too); the answer also
  // carries the user id where the spec's clients read it (`accessTokenResVO.userInfo`).
  route(app, {
    method: "POST",
    url: "/v1/user/login/verify-login-v2",
    body: verifyLoginV2Body,
    handler: async ({ body, request, reply }) => {
      const answer = loggedIn(request, reply, await service.verifyLogin(body, loginMeta(request, reply)));
      return { ...answer, accessTokenResVO: { userInfo: answer.userInfo } };
    },
  });
  route(app, {
    method: "POST",
    url: "/v1/user/public/passkey/options",
    body: emptyBody,
    rateLimit: { limit: 30, windowMs: 60_000 },
    handler: () => service.passkeys.loginOptions(),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/login/passkey",
    body: passkeyLoginBody,
    handler: async ({ body, request, reply }) =>
      loggedIn(
        request,
        reply,
        await service.loginWithPasskey(body.fidoVerifyCode, loginMeta(request, reply)),
      ),
  });
  qrRoutes(app, deps, loggedIn);
  thirdRoutes(app, deps, loggedIn);

  // Named by the spec's list, not offered by Meridian (docs/accounts.md, "Login paths"):
  // a clear 11010 whatever the body, so a client never reads a decryption error into them.
  for (const url of NOT_OFFERED_LOGIN_PATHS) {
    route(app, {
      method: "POST",
      url,
      body: notOfferedLoginBody,
      handler: () => {
        throw new BusinessError(AccountCode.LOGIN_STEP_NOT_OFFERED, "This login step is not offered", {
          status: 404,
        });
      },
    });
  }

  route(app, {
    method: "POST",
    url: "/v1/user/refresh",
    auth: sameOriginOnly,
    handler: async ({ request, reply }) =>
      loggedIn(request, reply, await service.refresh(readCookie(request, REFRESH_COOKIE), meta(request))),
  });

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    await service.logout(readCookie(request, SESSION_COOKIE));
    clearSessionCookies(request, reply);
    return null;
  };
  route(app, {
    method: "POST",
    url: "/v1/user/logout",
    auth: sameOriginOnly,
    handler: ({ request, reply }) => logout(request, reply),
  });
  app.post("/btapi/common/logout", { preHandler: sameOriginOnly }, async (request, reply) =>
    ok(await logout(request, reply)),
  );
  // Clears the cookies only (a forced logout may hold an already-dead token): nothing for a forger to gain.
  route(app, {
    method: "POST",
    url: "/v1/user/public/clearCookie",
    handler: ({ request, reply }) => {
      clearSessionCookies(request, reply);
      return null;
    },
  });

  route(app, {
    method: "POST",
    url: "/v1/user/overview/userinfo",
    auth: requireUserRead,
    handler: ({ request }) => presentUserInfo(authOf(request).user),
  });

  route(app, {
    method: "POST",
    url: "/v1/user/google/setup",
    auth: requireUser,
    sign: SIGNED,
    handler: ({ request }) => service.googleSetup(authOf(request).user),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/google/bind",
    body: googleBindBody,
    auth: requireUser,
    sign: SIGNED,
    handler: async ({ body, request }) => ({
      recoveryCodes: await service.googleBind(authOf(request).user.id, body.googleCode, request.ip),
    }),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/google/recoveryCodes",
    body: recoveryCodesBody,
    auth: requireUser,
    sign: SIGNED,
    handler: async ({ body, request }) => ({
      recoveryCodes: await service.regenerateRecoveryCodes(
        authOf(request).user.id,
        body.googleCode,
        request.ip,
      ),
    }),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/passkey/register/options",
    body: emptyBody,
    auth: requireUser,
    sign: SIGNED,
    handler: ({ request }) => {
      const { user } = authOf(request);
      return service.passkeys.registrationOptions({
        id: user.id,
        name: user.email ?? user.phone_key ?? user.id,
      });
    },
  });
  route(app, {
    method: "POST",
    url: "/v1/user/passkey/register",
    body: passkeyRegisterBody,
    auth: requireUser,
    sign: SIGNED,
    handler: async ({ body, request }) => {
      const { user } = authOf(request);
      const passkey = await service.passkeys.register(user.id, body.name, body.credential);
      await service.security.notify(user, { kind: "setting", setting: "passkeys", time: passkey.createdAt });
      return passkey;
    },
  });
  route(app, {
    method: "GET",
    url: "/v1/user/security/passkeys",
    auth: requireUserRead,
    handler: async ({ request }) => ({ passkeys: await service.passkeys.list(authOf(request).user.id) }),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/passkey/delete",
    body: passkeyDeleteBody,
    auth: requireUser,
    sign: SIGNED,
    handler: async ({ body, request }) => {
      const { user } = authOf(request);
      // Removing a factor needs one proved lately (the step-up), as the other sensitive changes do.
      await service.security.assertStepUp(actorOf(request));
      await service.assertPasskeyRemovable(user);
      if (!(await service.passkeys.remove(user.id, body.id)))
        throw new BusinessError(SecurityCode.NOT_BOUND, "No such passkey");
      await service.security.notify(user, { kind: "setting", setting: "passkeys", time: Date.now() });
      return null;
    },
  });
  route(app, {
    method: "POST",
    url: "/v1/user/security/stepUp/options",
    body: emptyBody,
    auth: requireUser,
    sign: SIGNED,
    handler: ({ request }) => service.security.stepUpOptions(actorOf(request)),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/security/stepUp",
    body: stepUpBody,
    auth: requireUser,
    sign: SIGNED,
    handler: ({ body, request }) => service.security.stepUp(actorOf(request), body),
  });
  route(app, {
    method: "GET",
    url: "/v1/user/security/recoveryCodes",
    auth: requireUserRead,
    handler: ({ request }) => service.recoveryStatus(authOf(request).user),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/google/enable",
    body: googleSwitchBody,
    auth: requireUser,
    sign: SIGNED,
    handler: async ({ body, request }) => {
      await service.googleSwitch(authOf(request).user.id, body.googleCode, body.enable, request.ip);
      return null;
    },
  });

  route(app, {
    method: "POST",
    url: "/v1/user/kyc/submit",
    body: kycSubmitBody,
    auth: requireUser,
    sign: SIGNED,
    handler: ({ body, request }) => service.submitKyc(authOf(request).user, body),
  });

  securityRoutes(app, deps);
}

/**
 * QR login (docs/accounts.md, "QR login"): the login page asks for a token and polls it
 * (`getQrKeyStatus`, encrypted like the other login paths, so the session binds the
 * device key the confirming poll proved); a logged-in session scans, confirms or rejects.
 */
function qrRoutes(
  app: FastifyInstance,
  deps: AccountsRouteDeps,
  loggedIn: (request: FastifyRequest, reply: FastifyReply, s: IssuedSession) => unknown,
): void {
  const { service } = deps;
  const requireUser = makeGuard(service);
  /** The asking browser, named by its device cookie (given one here when it has none). */
  const requester = (request: FastifyRequest, reply: FastifyReply) => {
    const m = loginMeta(request, reply);
    return { ...m, deviceId: m.deviceId ?? "" };
  };

  route(app, {
    method: "POST",
    url: "/v1/user/public/getQrKey",
    body: emptyBody,
    rateLimit: { limit: 30, windowMs: 60_000 },
    handler: async ({ request, reply }) => {
      const issued = await service.qr.issue(requester(request, reply));
      const cookie = deviceCookies.get(reply);
      if (cookie !== undefined) appendCookie(reply, cookie);
      return issued;
    },
  });
  route(app, {
    method: "POST",
    url: "/v1/user/public/getQrKeyStatus",
    body: qrTokenBody,
    handler: async ({ body, request, reply }) => {
      const {
        session,
        userId: _userId,
        ...poll
      } = await service.pollQr(body.token, requester(request, reply));
      if (session === undefined) return poll;
      loggedIn(request, reply, session);
      const userInfo = { userId: session.userId };
      return { ...poll, userInfo, accessTokenResVO: { userInfo } };
    },
  });
  route(app, {
    method: "POST",
    url: "/v1/user/qrLogin/scan",
    body: qrTokenBody,
    auth: requireUser,
    sign: SIGNED,
    handler: ({ body, request }) => service.qr.scan(actorOf(request), body.token),
  });
  for (const [verb, to] of [
    ["confirm", "confirmed"],
    ["reject", "rejected"],
  ] as const) {
    route(app, {
      method: "POST",
      url: `/v1/user/qrLogin/${verb}`,
      body: qrTokenBody,
      auth: requireUser,
      sign: SIGNED,
      handler: async ({ body, request }) => {
        await service.qr.decide(actorOf(request), body.token, to);
        return null;
      },
    });
  }
}

/**
 * Third-party sign-in (docs/accounts.md, "Sign-in with Telegram or an OpenID provider"):
 * every write is under `/v1/user/public/third/`, encrypted like the other login paths, so
 * a session it makes binds the device key its request proved. A ticket is bound to the
 * browser's device cookie, given here when it has none.
 */
function thirdRoutes(
  app: FastifyInstance,
  deps: AccountsRouteDeps,
  loggedIn: (request: FastifyRequest, reply: FastifyReply, s: IssuedSession) => unknown,
): void {
  const { service } = deps;
  const requireUser = makeGuard(service);
  const requireUserRead = makeGuard(service, { csrf: false });
  const requester = (request: FastifyRequest, reply: FastifyReply) => {
    const m = loginMeta(request, reply);
    return { ...m, deviceId: m.deviceId ?? "" };
  };
  const withDevice = (reply: FastifyReply) => {
    const cookie = deviceCookies.get(reply);
    if (cookie !== undefined) appendCookie(reply, cookie);
  };
  const answer = (request: FastifyRequest, reply: FastifyReply, r: ThirdSignInResult) => {
    if (r.kind === "ticket") {
      withDevice(reply);
      return r.ticket;
    }
    if (r.kind === "challenge") return { verifyRequired: true, ...r.challenge };
    return loggedIn(request, reply, r.session);
  };

  route(app, {
    method: "GET",
    url: "/v1/user/public/third/providers",
    handler: () => service.third.providers(),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/public/third/oidc/start",
    body: oidcStartBody,
    rateLimit: { limit: 30, windowMs: 60_000 },
    handler: async ({ body, request, reply }) => {
      const origin = typeof request.headers.origin === "string" ? request.headers.origin : undefined;
      const started = await service.third.start(body.provider, origin, requester(request, reply).deviceId);
      withDevice(reply);
      return started;
    },
  });
  route(app, {
    method: "POST",
    url: "/v1/user/public/third/oidc/login",
    body: oidcLoginBody,
    handler: async ({ body, request, reply }) => {
      const m = requester(request, reply);
      return answer(
        request,
        reply,
        await service.thirdSignIn(() => service.third.callback(body.provider, body.callback, m.deviceId), m),
      );
    },
  });
  route(app, {
    method: "POST",
    url: "/v1/user/public/third/telegram/login",
    body: telegramLoginBody,
    handler: async ({ body, request, reply }) => {
      const m = requester(request, reply);
      const claimed = { provider: "telegram", subject: body.id };
      return answer(
        request,
        reply,
        await service.thirdSignIn(() => service.third.telegram(body), m, claimed),
      );
    },
  });
  route(app, {
    method: "POST",
    url: "/v1/user/public/third/check",
    body: thirdTicketBody,
    handler: ({ body, request, reply }) => service.thirdCheck(body.token, requester(request, reply)),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/public/third/register",
    body: thirdTicketBody,
    handler: async ({ body, request, reply }) =>
      loggedIn(request, reply, await service.thirdRegister(body.token, requester(request, reply))),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/public/third/bind",
    body: thirdBindBody,
    handler: async ({ body, request, reply }) =>
      answer(request, reply, await service.thirdBind(body, requester(request, reply))),
  });
  route(app, {
    method: "GET",
    url: "/v1/user/security/thirdParty",
    auth: requireUserRead,
    handler: async ({ request }) => ({ identities: await service.third.list(authOf(request).user.id) }),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/third/unbind",
    body: thirdUnbindBody,
    auth: requireUser,
    sign: SIGNED,
    handler: async ({ body, request }) => {
      await service.thirdUnbind(actorOf(request), body.provider);
      return null;
    },
  });
}

/** The account centre: passwords, anti-phishing, bindings, devices, history, API keys, agreements. */
function securityRoutes(app: FastifyInstance, deps: AccountsRouteDeps): void {
  const security = deps.service.security;
  const requireUser = makeGuard(deps.service);
  const requireUserRead = makeGuard(deps.service, { csrf: false });

  route(app, {
    method: "POST",
    url: "/v1/user/public/password/sendCode",
    body: resetSendCodeBody,
    handler: ({ body, request }) => security.sendResetCode(body, request.ip),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/public/password/reset/options",
    body: emptyBody,
    rateLimit: { limit: 30, windowMs: 60_000 },
    handler: () => security.resetOptions(),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/public/password/reset",
    body: resetPasswordBody,
    auth: sameOriginOnly,
    handler: async ({ body, request }) => {
      await security.resetPassword(body, meta(request));
      return null;
    },
  });

  route(app, {
    method: "POST",
    url: "/v1/user/security/sendCode",
    body: securitySendCodeBody,
    auth: requireUser,
    sign: SIGNED,
    handler: ({ body, request }) => security.sendCode(authOf(request).user, body),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/security/password/change",
    body: changePasswordBody,
    auth: requireUser,
    sign: SIGNED,
    handler: ({ body, request }) => security.changePassword(actorOf(request), body),
  });
  /** The account-centre changes that answer nothing: signed, for the logged-in actor. */
  const change = <B extends z.ZodType>(
    url: string,
    body: B,
    run: (actor: Actor, body: z.output<B>) => Promise<void>,
  ) =>
    route(app, {
      method: "POST",
      url,
      body,
      auth: requireUser,
      sign: SIGNED,
      handler: async ({ body, request }) => {
        await run(actorOf(request), body as z.output<B>);
        return null;
      },
    });
  change("/v1/user/security/antiPhishing", antiPhishingBody, (actor, body) =>
    security.setAntiPhishing(actor, body),
  );
  change("/v1/user/security/email/change", changeEmailBody, (actor, body) =>
    security.changeEmail(actor, body),
  );
  change("/v1/user/security/phone/change", changePhoneBody, (actor, body) =>
    security.changePhone(actor, body),
  );
  change("/v1/user/google/unbind", unbindGoogleBody, (actor, body) => security.unbindGoogle(actor, body));

  route(app, {
    method: "GET",
    url: "/v1/user/security/devices",
    auth: requireUserRead,
    handler: ({ request }) => security.devices(actorOf(request)),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/security/devices/revoke",
    body: revokeDeviceBody,
    auth: requireUser,
    sign: SIGNED,
    handler: ({ body, request }) => security.revokeDevice(actorOf(request), body.deviceId),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/security/devices/revokeOthers",
    auth: requireUser,
    sign: SIGNED,
    handler: ({ request }) => security.revokeOthers(actorOf(request)),
  });
  route(app, {
    method: "GET",
    url: "/v1/user/security/loginHistory",
    query: loginHistoryQuery,
    auth: requireUserRead,
    handler: ({ query, request }) => security.history(actorOf(request), query.page, query.pageSize),
  });
  route(app, {
    method: "GET",
    url: "/v1/user/security/apiKeys",
    auth: requireUserRead,
    handler: async ({ request }) => ({ keys: await deps.apiKeys.keysOf(authOf(request).user.id) }),
  });
  route(app, {
    method: "POST",
    url: "/v1/user/agreement/contract",
    auth: requireUser,
    sign: SIGNED,
    handler: async ({ request }) => {
      await security.agreeContract(authOf(request).user);
      return null;
    },
  });
}
