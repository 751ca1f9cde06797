import type { FastifyInstance } from "fastify";
import { type BuildAppOptions, buildApp } from "../app.ts";
import { type Config, loadConfig } from "../platform/config.ts";
import { openSqlite } from "../platform/db/sqlite.ts";
import { LogOutbox, readsMailOf } from "./log-outbox.ts";

/** Config for tests: never the process environment, SQLite in memory unless told. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: "test", DATA_DIR: "/tmp/meridian-test-unused", ...env });
}

/**
 * An API-only app (no pages) on an in-memory SQLite database, closed with the app. Unless
 * `logger` is given, the log is kept only as the accounts module's outbox (no SMTP: its
 * messages go to the log), which the login helpers read (`readsMailOf`).
 */
export async function buildTestApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const db = options.db ?? openSqlite(":memory:");
  const outbox = new LogOutbox();
  const app = await buildApp({ config: testConfig(), ssr: false, logger: outbox.logger, ...options, db });
  if (options.logger === undefined)
    app.addHook("onReady", async () => {
      if (app.hasDecorator("accounts")) readsMailOf(app.accounts.service, outbox);
    });
  if (options.db === undefined) app.addHook("onClose", () => db.close());
  return app;
}
