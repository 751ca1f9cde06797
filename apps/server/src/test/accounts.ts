import { type Envelope, SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import type { BuildAppOptions } from "../app.ts";
import { type AccountsService, securityRoutes } from "../modules/accounts/index.ts";
import type { PlatformDb } from "../platform/db/internal.ts";
import type { ModuleRoutes } from "../platform/platform.ts";
import { buildTestApp } from "./support.ts";

/** The Host (and same-origin Origin) of the requests the API tests inject. */
export const TEST_HOST = "meridian.test";

export interface AccountsTestApp {
  app: FastifyInstance;
  accounts: AccountsService;
  /** A fresh account with this role (default user), logged in: its session cookie header value. */
  login(role?: "user" | "admin"): Promise<string>;
}

/** The accounts module first (as in production: its gateway hooks cover the rest), then `modules`. */
export async function accountsTestApp(
  options: Omit<BuildAppOptions, "modules"> & { modules: readonly ModuleRoutes[] },
): Promise<AccountsTestApp> {
  let accounts: AccountsService | undefined;
  const app = await buildTestApp({
    ...options,
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
  return { app, accounts: service, login: (role = "user") => loginNewUser(service, role) };
}

let users = 0;

/** Creates an account with this role through the service and logs it in: its session cookie header value. */
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
  const result = await service.login(
    { loginName: email, pwd: "password-123" } as Parameters<typeof service.login>[0],
    { ip: "127.0.0.1", userAgent: "test", device: undefined },
  );
  if (result.kind !== "session") throw new Error("login needs a second factor");
  return `${SESSION_COOKIE}=${result.session.token}`;
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
