import {
  SignMode,
  SubCode,
  SubPath,
  subCreateBodySchema,
  subFreezeBodySchema,
  subLabelBodySchema,
  subSwitchBodySchema,
  subTransferBodySchema,
  subTransfersQuerySchema,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { route } from "../../platform/http/route.ts";
import {
  type AccountsService,
  authOf,
  type RequestMeta,
  routeGuards,
  setSessionCookies,
} from "../accounts/index.ts";
import { deviceOf } from "../gateway-sign/index.ts";
import type { SubAccountsApi } from "./index.ts";

function meta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers["user-agent"] ?? "", device: deviceOf(request) };
}

/** `/v1/user/sub/*`: thin handlers (auth -> validate -> service -> present). */
export function subAccountRoutes(
  app: FastifyInstance,
  subs: SubAccountsApi,
  accounts: AccountsService,
): void {
  const auth = routeGuards(app).user;
  const user = (request: FastifyRequest) => authOf(request).user;

  route(app, { method: "GET", url: SubPath.LIST, auth, handler: ({ request }) => subs.list(user(request)) });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: SubPath.CREATE,
    auth,
    body: subCreateBodySchema,
    rateLimit: { limit: 30, windowMs: 60_000 },
    handler: ({ request, body }) => subs.create(user(request), body),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: SubPath.FREEZE,
    auth,
    body: subFreezeBodySchema,
    handler: ({ request, body }) => subs.freeze(user(request), body.subUserId, body.frozen),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: SubPath.LABEL,
    auth,
    body: subLabelBodySchema,
    handler: ({ request, body }) => subs.setLabel(user(request), body.subUserId, body.label),
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: SubPath.TRANSFER,
    auth,
    body: subTransferBodySchema,
    handler: async ({ request, body }) => {
      // Money leaving an account: a second factor at most 5 minutes old when one is bound.
      const { session } = authOf(request);
      await accounts.security.assertStepUpFor(user(request), session.stepped_up_at);
      return subs.transfer(user(request), body);
    },
  });
  route(app, {
    method: "GET",
    url: SubPath.TRANSFERS,
    auth,
    query: subTransfersQuerySchema,
    handler: ({ request, query }) => subs.transfers(user(request), query),
  });

  // NOTE: both switch paths are under /v1/user/sub/switch, which the gateway decrypts
  // (docs/product.md §7): `userId` arrives only inside the ciphertext, and the device key the
  // request proved is bound to the new session, as at login.
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: SubPath.SWITCH,
    auth,
    body: subSwitchBodySchema,
    handler: async ({ request, reply, body }) => {
      const { user: master, session } = authOf(request);
      const sub = await subs.switchTarget(master, body.userId);
      const issued = await accounts.switchSession(session, sub.id, master.id, meta(request));
      setSessionCookies(request, reply, issued);
      return { userInfo: { userId: issued.userId } };
    },
  });
  route(app, {
    method: "POST",
    sign: SignMode.PATH_TIME_TRACE_BODY,
    url: SubPath.SWITCH_BACK,
    auth,
    handler: async ({ request, reply }) => {
      const { user: sub, session } = authOf(request);
      const master = session.switched_from;
      if (master === null || sub.parent_id !== master)
        throw new AppError(SubCode.NOT_SWITCHED, "This session did not switch into a sub-account", {
          status: 200,
        });
      const issued = await accounts.switchSession(session, master, null, meta(request));
      setSessionCookies(request, reply, issued);
      return { userInfo: { userId: issued.userId } };
    },
  });
}
