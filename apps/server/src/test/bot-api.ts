import { type CreatedApiKey, type Envelope, SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../app.ts";
import { type AccountsService, securityRoutes } from "../modules/accounts/index.ts";
import { siteModules } from "../modules/index.ts";
import type { PlatformDb } from "../platform/db/index.ts";
import { openSqlite } from "../platform/db/sqlite.ts";
import type { ModuleRoutes } from "../platform/platform.ts";
import { loginWithMail, readsMailOf } from "./accounts.ts";
import { reopenableDbTargets } from "./db-targets.ts";
import { LogOutbox } from "./log-outbox.ts";
import { testConfig } from "./support.ts";

/**
 * A real server for the ccxt contract tests, the example bot's test and `bench:api`: every
 * module (market feed running), listening on a loopback port, with a logged-in user.
 */
export interface BotApiServer {
  app: FastifyInstance;
  /** The scope the modules registered in (their decorators: `paper`, `vip`, ...). */
  scope: FastifyInstance;
  /** `http://127.0.0.1:<port>` */
  base: string;
  accounts: AccountsService;
  /** A new user, logged in: its session cookie header value. */
  newUser(): Promise<string>;
  /** A `/v1` call as the web pages make it (same origin, session cookie, `paptrading: 1`). */
  web<T>(
    cookie: string,
    method: "GET" | "POST" | "DELETE",
    url: string,
    body?: unknown,
  ): Promise<Envelope<T>>;
  /** Creates an API key for the user through `/v1/user/api-keys`. */
  createKey(
    cookie: string,
    o?: { permissions?: string[]; ips?: string[]; passphrase?: string; subUid?: string },
  ): Promise<CreatedApiKey & { passphrase: string }>;
  close(): Promise<void>;
}

let users = 0;

/**
 * SQLite (a file, or in memory), or with TEST_DATABASE_URL a PostgreSQL schema of its own,
 * dropped on close (the contract tests run on either).
 */
async function openDb(dbPath: string | undefined): Promise<{ db: PlatformDb; cleanup(): Promise<void> }> {
  const postgres =
    dbPath === undefined ? reopenableDbTargets("botapi").find((t) => t.name === "postgres") : undefined;
  if (postgres !== undefined) {
    const opened = await postgres.open();
    return { db: opened.db(), cleanup: opened.cleanup };
  }
  const db = openSqlite(dbPath ?? ":memory:");
  return { db, cleanup: async () => db.close() };
}

export async function startBotApiServer(
  o: { rateScale?: number; dbPath?: string; liveMarket?: boolean } = {},
): Promise<BotApiServer> {
  // NOTE: under NODE_ENV=test the market clock is paused (no public trades, no price moves);
  // `liveMarket` runs it as in production (a few seconds more to start: every symbol catches up).
  if (o.liveMarket === true) process.env.MARKET_CLOCK = "system";
  let accounts: AccountsService | undefined;
  let scope: FastifyInstance | undefined;
  const modules: ModuleRoutes[] = [
    (api, platform) => {
      securityRoutes(api, platform);
      accounts = api.accounts.service;
      scope = api;
    },
    ...siteModules({ botApi: { rateScale: o.rateScale ?? 1 } }).filter((m) => m !== securityRoutes),
  ];
  const { db, cleanup } = await openDb(o.dbPath);
  const outbox = new LogOutbox();
  const app = await buildApp({ config: testConfig(), ssr: false, logger: outbox.logger, db, modules });
  app.addHook("onClose", cleanup);
  const service = accounts;
  if (service === undefined || scope === undefined) throw new Error("accounts module missing");
  readsMailOf(service, outbox);
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const base = address.replace("localhost", "127.0.0.1");
  const host = new URL(base).host;

  const web = async <T>(cookie: string, method: "GET" | "POST" | "DELETE", url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        origin: base,
        host,
        cookie,
        paptrading: "1",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as Envelope<T>;
  };

  return {
    app,
    scope,
    base,
    accounts: service,
    web,
    async newUser() {
      users += 1;
      const email = `bot${users}-${Date.now()}@example.com`;
      await service.createUser({
        email,
        areaCode: null,
        mobile: null,
        phoneKey: null,
        password: "password-123",
        role: "user",
      });
      const session = await loginWithMail(service, email, "password-123");
      return `${SESSION_COOKIE}=${session.token}`;
    },
    async createKey(cookie, k = {}) {
      const passphrase = k.passphrase ?? "Passphrase123";
      const res = await web<CreatedApiKey>(cookie, "POST", "/v1/user/api-keys", {
        label: "bot",
        permissions: k.permissions ?? ["read", "spot_trade", "futures_trade", "transfer"],
        passphrase,
        ips: k.ips ?? [],
        ...(k.subUid === undefined ? {} : { subUid: k.subUid }),
      });
      if (res.code !== "00000") throw new Error(`create key: ${res.code} ${res.msg}`);
      return { ...res.data, passphrase };
    },
    close: () => app.close(),
  };
}

import { bitgetClient } from "./bitget-client.ts";

export { bitgetClient, onMessages, subscribed } from "./bitget-client.ts";

/** A bot-API server, one trader's web session on it and that trader's ccxt client (markets loaded). */
export interface BotApiTrader {
  server: BotApiServer;
  cookie: string;
  ex: Awaited<ReturnType<typeof bitgetClient>>;
}

/**
 * A test file's trader: the server starts, the trader signs up and creates an API key, and
 * a ccxt client loads the markets before the file's tests; both close after them. The
 * fields are there once the tests run (read them inside tests, not at the file's top).
 */
export function useBotApiTrader(o: Parameters<typeof startBotApiServer>[0] = {}): BotApiTrader {
  const t = {} as BotApiTrader;
  beforeAll(async () => {
    t.server = await startBotApiServer(o);
    t.cookie = await t.server.newUser();
    t.ex = await bitgetClient(t.server.base, await t.server.createKey(t.cookie));
    await t.ex.loadMarkets();
  }, 60_000);
  afterAll(async () => {
    await t.ex?.close();
    await t.server?.close();
  });
  return t;
}
