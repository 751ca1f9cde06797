import {
  ApiKeyCode,
  ApiKeyPath,
  apiKeyParamsSchema,
  createApiKeyBodySchema,
  SignMode,
  SubCode,
  updateApiKeyBodySchema,
} from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { route } from "../../platform/http/route.ts";
import { type AccountsService, authOf, requireUser, type UserRow } from "../accounts/index.ts";
import type { ApiKeyStore } from "./keys.ts";

/**
 * `/v1/user/api-keys*`: the `/account/newapi` page's calls. Creating and editing need the
 * authenticator code when one is bound; every change e-mails the user. Secrets and
 * passphrases never reach a log line (they are not in any error or notice).
 */
export function keyRoutes(app: FastifyInstance, store: ApiKeyStore, accounts: AccountsService): void {
  const auth = async (request: FastifyRequest, reply: FastifyReply) => {
    await requireUser.call(app, request, reply);
  };
  const secondFactor = async (request: FastifyRequest, code: string | undefined) => {
    const { user, session } = authOf(request);
    const verdict = await accounts.checkSecondFactor(user.id, code, request.ip, {
      steppedUpAt: session.stepped_up_at,
    });
    if (verdict === false)
      throw code === undefined
        ? new AppError(ApiKeyCode.SECOND_FACTOR_REQUIRED, "Enter your authenticator code", { status: 400 })
        : new AppError(ApiKeyCode.SECOND_FACTOR_INVALID, "Authenticator code is wrong", { status: 400 });
  };
  /** Whose paper account a new key trades: the caller's, or (a master's call) one of its subs'. */
  const ownerOf = async (user: UserRow, subUid: string | undefined): Promise<UserRow> => {
    if (subUid === undefined || subUid === user.id) return user;
    if (user.parent_id !== null)
      throw new AppError(SubCode.NOT_MASTER, "A sub-account cannot make keys for other accounts", {
        status: 403,
      });
    const sub = await accounts.repo.userById(subUid);
    if (sub === undefined || sub.parent_id !== user.id)
      throw new AppError(SubCode.NOT_FOUND, "Sub-account not found", { status: 404 });
    return sub;
  };
  const notify = (userId: string, what: string, label: string) =>
    accounts
      .notify(
        userId,
        `Meridian: API key ${what}`,
        `Your API key "${label}" was ${what}. If this was not you, delete the key and change your password.`,
      )
      .catch((err: unknown) => app.log.warn({ err }, "api key notice not sent"));

  route(app, {
    method: "GET",
    url: ApiKeyPath.LIST,
    auth,
    handler: ({ request }) => store.listByUser(authOf(request).user.id),
  });
  route(app, {
    method: "POST",
    url: ApiKeyPath.CREATE,
    auth,
    sign: SignMode.PATH_TIME_TRACE_BODY,
    body: createApiKeyBodySchema,
    rateLimit: { limit: 20, windowMs: 60_000 },
    handler: async ({ request, body }) => {
      const user = authOf(request).user;
      await secondFactor(request, body.googleCode);
      const target = await ownerOf(user, body.subUid);
      const created = await store.create(target.id, body, {
        type: target.parent_id === null ? "user" : "sub",
        id: target.id,
      });
      await notify(user.id, "created", created.label);
      return created;
    },
  });
  route(app, {
    method: "POST",
    url: ApiKeyPath.UPDATE,
    auth,
    sign: SignMode.PATH_TIME_TRACE_BODY,
    params: apiKeyParamsSchema,
    body: updateApiKeyBodySchema,
    rateLimit: { limit: 30, windowMs: 60_000 },
    handler: async ({ request, params, body }) => {
      const userId = authOf(request).user.id;
      await store.get(userId, params.apiKey);
      await secondFactor(request, body.googleCode);
      const { googleCode: _code, ...patch } = body;
      const updated = await store.update(userId, params.apiKey, patch);
      await notify(userId, "changed", updated.label);
      return updated;
    },
  });
  for (const [method, url] of [
    ["DELETE", ApiKeyPath.DELETE],
    ["POST", ApiKeyPath.DELETE_POST],
  ] as const)
    route(app, {
      method,
      url,
      auth,
      sign: SignMode.PATH_TIME_TRACE_BODY,
      params: apiKeyParamsSchema,
      handler: async ({ request, params }) => {
        const userId = authOf(request).user.id;
        const key = await store.get(userId, params.apiKey);
        await store.delete(userId, params.apiKey);
        await notify(userId, "deleted", key.label);
        return null;
      },
    });
}
