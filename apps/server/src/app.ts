import compress from "@fastify/compress";
import websocket from "@fastify/websocket";
import type { Health } from "@meridian/contracts";
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify";
import type { Redis } from "ioredis";
import type { ViteDevServer } from "vite";
import { moduleRoutes, moduleSeeds, moduleSharedEnv, moduleStoredHtml } from "./modules/index.ts";
import { allowedImageHosts, type Config, describeConfig, loadConfig } from "./platform/config.ts";
import { openDb, type PlatformDb } from "./platform/db/index.ts";
import { loadMigrations, migrate } from "./platform/db/migrate.ts";
import { MIGRATIONS_DIR } from "./platform/db/migrations/index.ts";
import { runSeeds, type Seed } from "./platform/db/seed.ts";
import { installApiEdge, sendEdgeAnswer } from "./platform/http/api-edge.ts";
import { compressOptions } from "./platform/http/compression.ts";
import { registerEmbedRoutes } from "./platform/http/embed.ts";
import { installFastImageRewrite } from "./platform/http/fast-image.ts";
import { installOpenApi } from "./platform/http/openapi.ts";
import { installPathEdge, rewriteToCanonical } from "./platform/http/path-edge.ts";
import { genRequestId } from "./platform/http/request-id.ts";
import { installRouteTable } from "./platform/http/route-table.ts";
import { installSecurityHeaders } from "./platform/http/security-headers.ts";
import { registerSsr } from "./platform/http/ssr.ts";
import { zodValidatorCompiler } from "./platform/http/zod-compiler.ts";
import { loggerOptions } from "./platform/logger.ts";
import type { ModuleRoutes, Platform } from "./platform/platform.ts";
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from "./platform/rate-limit.ts";
import { closeRedis, connectRedis } from "./platform/redis.ts";
import { type SharedSecretStore, sharedSecretStore } from "./platform/shared-secrets.ts";
import { refreshStoredHtml, useProductDomains } from "./platform/stored-html.ts";

export interface BuildAppOptions {
  /** Defaults to `loadConfig()` (the process environment). */
  config?: Config;
  /** A database to use (not closed with the app); otherwise opened from config and closed on close. */
  db?: PlatformDb;
  /** A Redis client to use (not closed with the app); otherwise connected when REDIS_URL is set. */
  redis?: Redis;
  /** Serve pages through React Router (default true). API-only tests turn it off. */
  ssr?: boolean;
  /** Vite in middleware mode: pages hot-reload from source (development). */
  devServer?: ViteDevServer;
  /** Extra `connect-src` sources for the CSP (the Vite HMR socket). */
  connectSrc?: string[];
  /** Replaces the logger configuration (tests pass `false`). */
  logger?: FastifyServerOptions["logger"];
  /** Extra API routes (tests); registered in the `/v1` scope after the modules. */
  routes?: ModuleRoutes;
  /** Module routes; default the list in `src/modules/index.ts`. */
  modules?: readonly ModuleRoutes[];
  /** Demo-data seeds; default the list in `src/modules/index.ts` (run when config.seedDemoData). */
  seeds?: readonly Seed[];
  /**
   * What fills the shared environment (`platform.env`) from the database; default the list
   * in `src/modules/index.ts` when `modules` is the default, none otherwise.
   */
  sharedEnv?: readonly ((
    store: SharedSecretStore,
    env: NodeJS.ProcessEnv,
  ) => Promise<Record<string, string>>)[];
}

/**
 * The whole server as a Fastify instance, ready to `listen` or `inject`: database
 * migrated (and seeded when configured), `/v1` API with its edge, `/healthz`, security
 * headers, and the React Router pages. `close()` releases what it opened.
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const config = options.config ?? loadConfig();
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    genReqId: genRequestId,
    logController: new LogController({ requestIdLogLabel: "requestId" }),
    // A list goes to proxy-addr as it is: request.ip is then the nearest hop that is not
    // a trusted proxy, and protocol/host come from X-Forwarded-* only when a trusted proxy sent them.
    trustProxy:
      typeof config.trustProxy === "number"
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: config.bodyLimit,
    // NOTE: one canonical path for routing and every check (platform/http/path-edge.ts).
    rewriteUrl: rewriteToCanonical,
    return503OnClosing: true,
    // Module start (books rebuilt, a writer elected) may outlast the 10 s default on a loaded machine.
    pluginTimeout: 60_000,
    forceCloseConnections: "idle",
    frameworkErrors: (error, request, reply) => sendEdgeAnswer(request, reply, error),
  });
  installRouteTable(app);
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setErrorHandler((error, request, reply) => sendEdgeAnswer(request, reply, error));

  useProductDomains(config.productDomains);
  const ownsDb = options.db === undefined;
  const db = options.db ?? openDb(config);
  let redis: Redis | undefined;
  const sharedEnv: Record<string, string> = {};
  try {
    // Nothing is acknowledged to a client before the server listens: one sync at the end.
    // NOTE: instances started together on one database take turns here (the start-up
    // lock), so none seeds or makes shared secrets while another is half done.
    await db.deferSync(() =>
      db.exclusive("startup", async () => {
        const applied = await migrate(db, await loadMigrations(MIGRATIONS_DIR));
        if (applied.length > 0) app.log.info({ applied }, "migrations applied");
        const store = sharedSecretStore(db, { production: config.isProduction, key: config.secretsKey });
        const fills = options.sharedEnv ?? (options.modules === undefined ? moduleSharedEnv : []);
        for (const fill of fills)
          Object.assign(sharedEnv, await fill(store, { ...process.env, ...sharedEnv }));
        if (Object.keys(sharedEnv).length > 0)
          app.log.info({ shared: Object.keys(sharedEnv) }, "shared secrets read from the database");
        if (config.seedDemoData) {
          const seeded = await runSeeds(db, options.seeds ?? moduleSeeds, app.log);
          if (seeded.length > 0) app.log.info({ seeded }, "demo data seeded");
        }
        // Before the first answer: pages serve stored HTML as it is, so none may be stale.
        const refreshed = await refreshStoredHtml(db, moduleStoredHtml, app.log);
        if (refreshed > 0) app.log.info({ refreshed }, "stored HTML cleaned by the current sanitiser");
      }),
    );
    redis = options.redis ?? (await connectRedis(config.redisUrl, config.redisPrefix));
  } catch (error) {
    if (ownsDb) await db.close();
    throw error;
  }
  const ownsRedis = options.redis === undefined;
  const rateLimiter: RateLimiter = redis
    ? createRedisRateLimiter(redis, { onError: (err) => app.log.warn({ err }, "rate limiter: redis failed") })
    : createMemoryRateLimiter();
  const platform: Platform = { config, db, redis, rateLimiter, env: { ...process.env, ...sharedEnv } };
  app.decorate("platform", platform);
  app.decorate("rateLimiter", rateLimiter);
  app.addHook("onClose", async () => {
    if (ownsRedis) await closeRedis(redis);
    if (ownsDb) await db.close();
  });
  app.log.info({ config: describeConfig(config), db: db.location }, "platform ready");
  if (config.isProduction && config.publicDomainsDefaulted) {
    app.log.warn(
      { publicDomains: config.publicDomains },
      "PUBLIC_DOMAINS is not set: pages, policies and sitemaps name the local address; set it to the site's domains",
    );
  }

  // NOTE: close() waits for every socket; a keep-alive socket whose request was in
  // flight at close would keep it waiting, so answers sent while closing end theirs.
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });

  installPathEdge(app);
  installSecurityHeaders(app, {
    imageHosts: allowedImageHosts(config),
    frameAncestors: config.frameAncestors,
    connectSrc: options.connectSrc ?? [],
    publicDomains: config.publicDomains,
    telegramWidget:
      platform.env.TELEGRAM_BOT_TOKEN !== undefined && platform.env.TELEGRAM_BOT_NAME !== undefined,
  });
  await app.register(compress, compressOptions);
  await app.register(websocket);

  app.get("/healthz", async (_request, reply) => {
    const [dbOk, redisOk] = await Promise.all([
      db.ping().then(
        () => true,
        () => false,
      ),
      redis === undefined
        ? Promise.resolve(undefined)
        : redis.ping().then(
            () => true,
            () => false,
          ),
    ]);
    const health: Health = {
      status: dbOk && redisOk !== false ? "ok" : "degraded",
      db: dbOk ? "ok" : "down",
      redis: redisOk === undefined ? "absent" : redisOk ? "ok" : "down",
    };
    return reply.status(dbOk ? 200 : 503).send(health);
  });

  await installOpenApi(app);
  const modules = options.modules ?? moduleRoutes;
  await app.register(async (api) => {
    installApiEdge(api, config);
    installFastImageRewrite(api, allowedImageHosts(config));
    for (const register of modules) await register(api, platform);
    if (options.routes) await options.routes(api, platform);
  });

  if (options.ssr !== false) {
    registerEmbedRoutes(app);
    await registerSsr(app, options.devServer ? { devServer: options.devServer } : {});
  }
  return app;
}

declare module "fastify" {
  interface FastifyInstance {
    platform: Platform;
  }
}
