import { SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { type AttemptStore, RedisAttemptStore } from "../../platform/attempts/index.ts";
import type { Db } from "../../platform/db/types.ts";
import { readCookie } from "../../platform/http/cookies.ts";
import { markGuard, sameGuardAs } from "../../platform/http/route-table.ts";
import type { Platform } from "../../platform/platform.ts";
import {
  loadServerKeys,
  loadSignSettings,
  MemoryReplayStore,
  RedisReplayStore,
  type ReplayStore,
  registerGatewaySign,
  type ServerKeys,
  type SignSettings,
} from "../gateway-sign/index.ts";
import { securityReportRoutes } from "../security-report/index.ts";
import { type AccountsConfig, loadAccountsConfig } from "./config.ts";
import { makeGuard, sessionLookup } from "./guard.ts";
import { AccountsRepo } from "./repo.ts";
import { type ApiKeyDirectory, accountsRoutes } from "./routes.ts";
import { AccountsService } from "./service.ts";
import {
  DroppingTransport,
  LogTransport,
  type MailLog,
  type MessageTransport,
  SmtpTransport,
} from "./transport.ts";

// readCookie lives in the platform; re-exported for the modules that took it from here.
export { readCookie } from "../../platform/http/cookies.ts";
export { type AccountsConfig, loadAccountsConfig } from "./config.ts";
export { authOf, setSessionCookies } from "./guard.ts";
export type { UserRow, VipMember } from "./repo.ts";
export type { ApiKeyDirectory } from "./routes.ts";
export { hashPassword, open, seal } from "./secrets.ts";
export { accountsSeed } from "./seed.ts";
export type { AuthContext, IssuedSession, RequestMeta } from "./service.ts";
export { AccountsService } from "./service.ts";
export { accountsSharedEnv } from "./shared-env.ts";
export { totp } from "./totp.ts";
export type { MailLog, MessageTransport, OutgoingMessage } from "./transport.ts";
export { DroppingTransport, LogTransport, SmtpTransport } from "./transport.ts";

export interface SecurityModuleOptions {
  db: Db;
  env?: NodeJS.ProcessEnv;
  /** A shared replay store (Redis) when several processes serve; memory otherwise. */
  replay?: ReplayStore;
  /** Attempt counters: Redis when given, else rows of the database (platform/attempts). */
  attempts?: AttemptStore;
  transport?: MessageTransport;
  /** Where the log transport writes (the app's logger unless given). */
  mailLog?: MailLog;
  /** The API keys the security page lists; none unless given here or later (`SecurityModule.listApiKeysFrom`). */
  apiKeys?: ApiKeyDirectory;
  accountsConfig?: AccountsConfig;
  signSettings?: SignSettings;
  serverKeys?: ServerKeys;
  allowPlainLogin?: boolean;
  now?: () => number;
}

export interface SecurityModule {
  service: AccountsService;
  /** preHandler: logged-in users only (writes also need a same-origin Origin). */
  requireUser: preHandlerAsyncHookHandler;
  /** preHandler: users with the admin role only. */
  requireAdmin: preHandlerAsyncHookHandler;
  serverKeys: ServerKeys;
  /**
   * The logged-in user's id for a request that does not require a login (the tracker tags
   * a visitor with it), or undefined: no session cookie or an expired one.
   */
  sessionUserOf(request: FastifyRequest): Promise<string | undefined>;
  /**
   * Where the security page reads the user's API keys: the composition root hands the bot
   * API's key store here once it is built (it registers after this module).
   */
  listApiKeysFrom(directory: ApiKeyDirectory): void;
}

/** The accounts service on `db` without routes: the security modules, tools and tests that create users. */
export function createAccountsService(
  db: Db,
  o: { config: AccountsConfig; transport: MessageTransport; now?: () => number; attempts?: AttemptStore },
): AccountsService {
  return new AccountsService({ repo: new AccountsRepo(db), ...o });
}

/**
 * Accounts, gateway signing and security reports in one call.
 *
 * NOTE: call this on the ROOT instance before other modules register routes: the
 * gateway's signature, decryption and request-time hooks must cover every route.
 */
export function registerSecurityModules(app: FastifyInstance, o: SecurityModuleOptions): SecurityModule {
  const env = o.env ?? process.env;
  const config = o.accountsConfig ?? loadAccountsConfig(env);
  const settings = o.signSettings ?? loadSignSettings(env);
  const serverKeys = o.serverKeys ?? loadServerKeys(env);
  const mailLog = o.mailLog ?? app.log.child({ module: "mail" });
  const fallback = config.mail === "drop" ? new DroppingTransport(mailLog) : new LogTransport(mailLog);
  const transport =
    o.transport ??
    (config.smtpUrl === undefined ? fallback : new SmtpTransport(config.smtpUrl, config.smtpFrom, fallback));
  const service = createAccountsService(o.db, {
    config,
    transport,
    ...(o.now === undefined ? {} : { now: o.now }),
    ...(o.attempts === undefined ? {} : { attempts: o.attempts }),
  });
  registerGatewaySign(app, {
    settings,
    keys: serverKeys,
    replay: o.replay ?? new MemoryReplayStore(o.now),
    sessionKey: (token, request) => service.sessionKey(token, sessionLookup(service, request, token)),
    allowPlainLogin: o.allowPlainLogin ?? env.LOGIN_ALLOW_PLAIN === "true",
    ...(o.now === undefined ? {} : { now: o.now }),
  });
  if (config.mail === "drop")
    app.log.warn("SMTP_URL is not set outside demo mode: account e-mails and SMS codes cannot be delivered");
  let apiKeys: ApiKeyDirectory = o.apiKeys ?? { keysOf: async () => [] };
  accountsRoutes(app, { service, config, apiKeys: { keysOf: (userId) => apiKeys.keysOf(userId) } });
  const requireAdmin = makeGuard(service, { admin: true });
  securityReportRoutes(app, {
    db: o.db,
    userIdOf: (token) => service.sessionUserId(token),
    requireAdmin: sameGuardAs(async (request: FastifyRequest, _reply: FastifyReply) => {
      await requireAdmin(request);
    }, requireAdmin),
    ...(o.now === undefined ? {} : { now: o.now }),
  });
  return {
    service,
    requireUser: makeGuard(service),
    requireAdmin,
    serverKeys,
    sessionUserOf: async (request) => {
      const token = readCookie(request, SESSION_COOKIE);
      if (token === undefined) return undefined;
      return (await service.sessionUserId(token)) ?? undefined;
    },
    listApiKeysFrom: (directory) => {
      apiKeys = directory;
    },
  };
}

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Set by `securityRoutes`: the accounts service and its guards. Read by the composition
     * root (`modules/index.ts`, `trading-core.ts`), which passes what a module needs as an
     * argument, and by this module's own guards; no other module looks it up.
     */
    accounts: SecurityModule;
  }
}

/**
 * The platform's module entry (`src/modules/index.ts`): list it FIRST so its hooks cover
 * every later module. Uses Redis for the replay store and the brute-force counters when
 * the platform has it, so several processes behind a load balancer share one count.
 */
export function securityRoutes(api: FastifyInstance, platform: Platform): void {
  const redis = platform.redis;
  const module = registerSecurityModules(api, {
    db: platform.db,
    // process.env plus the secrets shared through the database (accountsSharedEnv).
    env: platform.env,
    ...(redis === undefined
      ? {}
      : { replay: new RedisReplayStore(redis), attempts: new RedisAttemptStore(redis) }),
  });
  api.decorate("accounts", module);
  // Login history is kept 90 days: forget older lines at start and then daily.
  const prune = () =>
    void module.service.security.pruneHistory().catch((err: unknown) => {
      api.log.warn({ err }, "login history prune failed");
    });
  api.addHook("onReady", async () => prune());
  const timer = setInterval(prune, 24 * 60 * 60_000);
  timer.unref();
  api.addHook("onClose", async () => clearInterval(timer));
}

/** preHandler (or route `auth`): logged-in users only; cookie-authenticated writes must be same-origin. */
export const requireUser: preHandlerAsyncHookHandler = markGuard(
  async function requireUser(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    await request.server.accounts.requireUser.call(this, request, reply);
  },
  { user: true, admin: false, csrf: true },
);

/** preHandler (or route `auth`): users with the admin role only. */
export const requireAdmin: preHandlerAsyncHookHandler = markGuard(
  async function requireAdmin(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    await request.server.accounts.requireAdmin.call(this, request, reply);
  },
  { user: true, admin: true, csrf: true },
);

/**
 * `requireUser` and `requireAdmin` as route `auth` on `app` (tagged with the guards they
 * call, so the route table reports what they check): what another module's routes use.
 */
export function routeGuards(app: FastifyInstance) {
  return {
    user: sameGuardAs(async (request: FastifyRequest, reply: FastifyReply) => {
      await requireUser.call(app, request, reply);
    }, requireUser),
    admin: sameGuardAs(async (request: FastifyRequest, reply: FastifyReply) => {
      await requireAdmin.call(app, request, reply);
    }, requireAdmin),
  };
}
