import { SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import type { PlatformDb } from "../../platform/db/internal.ts";
import type { ModuleRoutes } from "../../platform/platform.ts";
import { buildTestApp } from "../../test/support.ts";
import { securityRoutes } from "./index.ts";

export const ADMIN_TEST_HOST = "meridian.test";

export interface AdminTestApp {
  app: FastifyInstance;
  /** A fresh account with this role, logged in: its session cookie header value. */
  login(role: "user" | "admin"): Promise<string>;
  /** Same-origin headers for `app.inject`, with the session cookie when given. */
  headers(cookie?: string): Record<string, string>;
}

let users = 0;

/** The accounts module (first, as in production) plus the given modules, on `db`. */
export async function adminTestApp(db: PlatformDb, modules: readonly ModuleRoutes[]): Promise<AdminTestApp> {
  let accounts: FastifyInstance["accounts"] | undefined;
  const app = await buildTestApp({
    db,
    modules: [
      (api, platform) => {
        securityRoutes(api, platform);
        accounts = api.accounts;
      },
      ...modules,
    ],
  });
  const service = accounts?.service;
  if (service === undefined) throw new Error("accounts module missing");
  return {
    app,
    async login(role) {
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
    },
    headers(cookie) {
      return {
        host: ADMIN_TEST_HOST,
        origin: `http://${ADMIN_TEST_HOST}`,
        ...(cookie === undefined ? {} : { cookie }),
      };
    },
  };
}
