import type { FastifyInstance } from "fastify";
import type { PlatformDb } from "../../platform/db/internal.ts";
import type { ModuleRoutes } from "../../platform/platform.ts";
import { accountsTestApp, TEST_HOST } from "../../test/accounts.ts";

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
