import {
  Code,
  googleBindBody,
  googleSwitchBody,
  kycSubmitBody,
  loginBody,
  ok,
  REFRESH_COOKIE,
  registerEmailBody,
  registerMobileAndEmailBody,
  registerMobileBody,
  SESSION_COOKIE,
  SignMode,
  sendCodeBody,
  verifyLoginBody,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { markGuard } from "../../platform/http/route-table.ts";
import { deviceOf } from "../gateway-sign/routes.ts";
import type { AccountsConfig } from "./config.ts";
import { AppError } from "./errors.ts";
import {
  authOf,
  clearSessionCookies,
  isSameOrigin,
  makeGuard,
  readCookie,
  setSessionCookies,
} from "./guard.ts";
import { parseBody } from "./http.ts";
import { presentUserInfo } from "./present.ts";
import type { AccountsService, IssuedSession, RequestMeta } from "./service.ts";
import type { OutboxTransport } from "./transport.ts";

function meta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers["user-agent"] ?? "", device: deviceOf(request) };
}

/** preHandler of cookie-authenticated writes that need no session (refresh, logout): same-origin only. */
const sameOriginOnly = markGuard(
  async function sameOriginOnly(request: FastifyRequest): Promise<void> {
    if (!isSameOrigin(request))
      throw new AppError(Code.FORBIDDEN, "Cross-site request refused", { status: 403 });
  },
  { user: false, admin: false, csrf: true },
);

/** Account security changes are signed with the body (SPEC section 7 mode 2). */
const SIGNED = { sign: SignMode.PATH_TIME_TRACE_BODY } as const;

export interface AccountsRouteDeps {
  service: AccountsService;
  config: AccountsConfig;
  /** Present when the outbox is the transport and the dev outbox is allowed. */
  outbox: OutboxTransport | undefined;
}

/** Handlers read as auth -> validate -> service -> present; thrown AppErrors reach the edge's envelope. */
export function accountsRoutes(app: FastifyInstance, deps: AccountsRouteDeps): void {
  const { service } = deps;
  const requireUser = makeGuard(service);
  const requireUserRead = makeGuard(service, { csrf: false });

  function loggedIn(request: FastifyRequest, reply: FastifyReply, s: IssuedSession) {
    setSessionCookies(request, reply, s);
    return ok({ verifyRequired: false, userInfo: { userId: s.userId }, knownDevice: false });
  }

  app.post("/v1/user/public/sendCode", async (request) =>
    ok(await service.sendCode(parseBody(sendCodeBody, request.body), request.ip)),
  );

  app.post("/v1/user/register/email", async (request, reply) =>
    loggedIn(
      request,
      reply,
      await service.register("email", parseBody(registerEmailBody, request.body), meta(request)),
    ),
  );
  app.post("/v1/user/register/mobile", async (request, reply) =>
    loggedIn(
      request,
      reply,
      await service.register("mobile", parseBody(registerMobileBody, request.body), meta(request)),
    ),
  );
  app.post("/v1/user/register/mobileAndEmail", async (request, reply) =>
    loggedIn(
      request,
      reply,
      await service.register(
        "mobileAndEmail",
        parseBody(registerMobileAndEmailBody, request.body),
        meta(request),
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
    const result = await service.login(body, meta(request));
    if (result.kind === "challenge") return ok({ verifyRequired: true, ...result.challenge });
    setSessionCookies(request, reply, result.session);
    return ok({ verifyRequired: false, userInfo: { userId: result.session.userId }, knownDevice });
  });

  app.post("/v1/user/login/verify-login", async (request, reply) => {
    const session = await service.verifyLogin(parseBody(verifyLoginBody, request.body), meta(request));
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

  const outbox = deps.outbox;
  if (deps.config.devOutbox && outbox !== undefined) {
    const query = z.object({
      recipient: z.string().max(254).optional(),
      limit: z.coerce.number().int().min(1).max(200).default(50),
    });
    app.get("/v1/dev/outbox", async (request) => {
      const q = parseBody(query, request.query);
      return ok({ messages: await outbox.list(q.recipient?.toLowerCase(), q.limit) });
    });
  }
}
