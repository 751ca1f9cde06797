import { type Envelope, SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import type { BuildAppOptions } from "../app.ts";
import {
  type AccountsService,
  createAccountsService,
  type IssuedSession,
  LogTransport,
  loadAccountsConfig,
  type RequestMeta,
  securityRoutes,
} from "../modules/accounts/index.ts";
import type { PlatformDb } from "../platform/db/internal.ts";
import type { Db } from "../platform/db/types.ts";
import type { ModuleRoutes } from "../platform/platform.ts";
import { LogOutbox, outboxOf, outboxWithMailTo, readsMailOf } from "./log-outbox.ts";
import { buildTestApp } from "./support.ts";

/** The Host (and same-origin Origin) of the requests the API tests inject. */
export const TEST_HOST = "meridian.test";

export interface AccountsTestApp {
  app: FastifyInstance;
  accounts: AccountsService;
  /** The messages the server wrote to its log (the development outbox): codes are read here. */
  outbox: LogOutbox;
  /** A fresh account with this role (default user), logged in: its session cookie header value. */
  login(role?: "user" | "admin"): Promise<string>;
}

/** The accounts module first (as in production: its gateway hooks cover the rest), then `modules`. */
export async function accountsTestApp(
  options: Omit<BuildAppOptions, "modules"> & { modules: readonly ModuleRoutes[] },
): Promise<AccountsTestApp> {
  let accounts: AccountsService | undefined;
  const outbox = new LogOutbox();
  const app = await buildTestApp({
    ...options,
    logger: options.logger === undefined ? outbox.logger : outbox.tee(options.logger),
    modules: [
      (api, platform) => {
        securityRoutes(api, platform);
        accounts = api.accounts.service;
      },
      ...options.modules,
    ],
  });
  const service = accounts;
  if (service === undefined) throw new Error("accounts module missing");
  readsMailOf(service, outbox);
  return { app, accounts: service, outbox, login: (role = "user") => loginNewUser(service, role) };
}

export { readsMailOf } from "./log-outbox.ts";

/**
 * The accounts service alone on `db` (migrated), as the tools build it, its messages
 * written to a log the login helpers read (`outbox`).
 */
export function testAccountsService(db: Db): { service: AccountsService; outbox: LogOutbox } {
  const outbox = new LogOutbox();
  const service = createAccountsService(db, {
    config: loadAccountsConfig({ NODE_ENV: "test" }),
    transport: new LogTransport(outbox.log),
  });
  readsMailOf(service, outbox);
  return { service, outbox };
}

/** What a test login looks like to the server unless told: no device cookie, no device key. */
const TEST_META: RequestMeta = { ip: "127.0.0.1", userAgent: "test", device: undefined };

/**
 * Logs `loginName` in through the service as a browser new to the account does: the
 * password, then, when the server asks for it (a device it has not seen, no second
 * factor bound), the code it mailed, read from its outbox (`readsMailOf`). Throws when
 * the account has a second factor: tests of those answer the challenge themselves.
 */
export async function loginWithMail(
  service: AccountsService,
  loginName: string,
  pwd: string,
  meta: RequestMeta = TEST_META,
): Promise<IssuedSession> {
  const body = { loginName, pwd } as Parameters<typeof service.login>[0];
  const result = await service.login(body, meta);
  if (result.kind === "session") return result.session;
  if (result.challenge.newDevice !== true) throw new Error("login needs a second factor");
  const outbox = outboxOf(service) ?? outboxWithMailTo(loginName);
  if (outbox === undefined)
    throw new Error("the login mailed a code and this service's messages cannot be read: see readsMailOf");
  const recipient = result.challenge.methods.includes("email") ? loginName : undefined;
  if (recipient === undefined) throw new Error("a phone login's SMS code: answer it in the test");
  return service.verifyLogin(
    { verifyToken: result.challenge.verifyToken, emailCode: outbox.code(recipient) },
    meta,
  );
}

let users = 0;

/**
 * Creates an account with this role through the service and logs it in (answering the
 * new-device e-mail code, see `loginWithMail`): its session cookie header value.
 */
export async function loginNewUser(
  service: AccountsService,
  role: "user" | "admin" = "user",
): Promise<string> {
  users += 1;
  const email = `${role}${users}-${Date.now()}@example.com`;
  await service.createUser({
    email,
    areaCode: null,
    mobile: null,
    phoneKey: null,
    password: "password-123",
    role,
  });
  const session = await loginWithMail(service, email, "password-123");
  return `${SESSION_COOKIE}=${session.token}`;
}

/**
 * One same-origin API call through `app.inject` with the session `cookie` ("" for none) and
 * the extra `headers`; the JSON body as the `{code, msg, data}` envelope.
 */
export async function callApi<T>(
  app: FastifyInstance,
  cookie: string,
  method: "GET" | "POST" | "DELETE",
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Envelope<T>> {
  const res = await app.inject({
    method,
    url,
    headers: {
      host: TEST_HOST,
      origin: `http://${TEST_HOST}`,
      cookie,
      ...headers,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return res.json();
}

export interface AdminTestApp {
  app: FastifyInstance;
  /** A fresh account with this role, logged in: its session cookie header value. */
  login(role: "user" | "admin"): Promise<string>;
  /** Same-origin headers for `app.inject`, with the session cookie when given. */
  headers(cookie?: string): Record<string, string>;
}

/** The accounts module (first, as in production) plus the given modules, on `db`. */
export async function adminTestApp(db: PlatformDb, modules: readonly ModuleRoutes[]): Promise<AdminTestApp> {
  const { app, login } = await accountsTestApp({ db, modules });
  return {
    app,
    login,
    headers(cookie) {
      return {
        host: TEST_HOST,
        origin: `http://${TEST_HOST}`,
        ...(cookie === undefined ? {} : { cookie }),
      };
    },
  };
}
