import path from "node:path";
import middie from "@fastify/middie";
import { fastifyReactRouter } from "@mcansh/remix-fastify";
import { FORWARDED_API_HEADERS } from "@meridian/contracts";
// NOTE: the one token instance shared with the web build (see apps/web/vite.config.ts).
import { type ServerContext, serverContext } from "@meridian/ssr-context";
import type { FastifyInstance, FastifyRequest, InjectOptions } from "fastify";
import { RouterContextProvider } from "react-router";
import type { RunnableDevEnvironment, ViteDevServer } from "vite";
import { REPO_ROOT } from "../config.ts";
import { sendEdgeAnswer, toEdgeAnswer } from "./api-edge.ts";
import { installMicrocache, microcacheMsFromEnv } from "./microcache.ts";
import { publicOrigin } from "./public-origin.ts";

export const WEB_DIR = path.join(REPO_ROOT, "apps/web");

type Token = typeof serverContext;

/**
 * The context token loaders will look up. Production: the module Node loaded, which the
 * web build imports too (kept external). Development: the instance inside Vite's SSR
 * runner, where route modules live (re-evaluated when the file changes).
 */
async function contextToken(devServer: ViteDevServer | undefined): Promise<Token> {
  if (devServer === undefined) return serverContext;
  const ssr = devServer.environments.ssr as RunnableDevEnvironment;
  const mod = (await ssr.runner.import("@meridian/ssr-context")) as { serverContext: Token };
  return mod.serverContext;
}

type ApiInit = Parameters<ServerContext["api"]>[1];

/**
 * `api()` for loaders: the `/v1` call runs in-process through `inject` (no socket),
 * carrying the visitor's cookies, locale headers and request id.
 */
export function createInProcessApi(app: FastifyInstance, request: FastifyRequest): ServerContext["api"] {
  return async <T>(apiPath: string, init: ApiInit = {}) => {
    if (!apiPath.startsWith("/v1/")) throw new Error(`api() only calls /v1 routes, not ${apiPath}`);
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_API_HEADERS) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    headers["x-forwarded-for"] = request.ip;
    const hasBody = init.body !== undefined;
    if (hasBody) headers["content-type"] = "application/json";
    Object.assign(headers, init.headers);
    const options: InjectOptions = {
      method: (init.method ?? (hasBody ? "POST" : "GET")) as InjectOptions["method"],
      url: apiPath,
      headers,
      ...(hasBody ? { payload: JSON.stringify(init.body) } : {}),
    };
    const response = await app.inject(options);
    return response.json<{ code: string; msg: string; data: T }>();
  };
}

export interface SsrOptions {
  /** Vite in middleware mode (development): hot reload, no build needed. */
  devServer?: ViteDevServer;
  /**
   * TTL of the anonymous-page micro-cache (microcache.ts); default `SSR_MICROCACHE_MS`
   * or 1000, 0 turns it off. Always off with a dev server (pages change under it).
   */
  microcacheMs?: number;
}

/**
 * The React Router handler, in a scope of its own: the adapter removes every content
 * type parser of the scope it is registered in, which must not reach `/v1`.
 */
export async function registerSsr(app: FastifyInstance, options: SsrOptions): Promise<void> {
  await app.register(async (scope) => {
    scope.setErrorHandler((error, request, reply) => {
      // A malformed request (broken body encoding, bad URL) is the client's fault on a
      // page as on the API: the same bounded 4xx envelope, never a 500.
      if (toEdgeAnswer(error).status < 500) return sendEdgeAnswer(request, reply, error);
      request.log.error({ err: error }, "page render failed");
      return reply.status(500).type("text/plain; charset=utf-8").send("Internal Server Error");
    });
    if (options.devServer) {
      await scope.register(middie);
      scope.use(options.devServer.middlewares);
    } else {
      installMicrocache(scope, { ttlMs: options.microcacheMs ?? microcacheMsFromEnv() });
    }
    await scope.register(fastifyReactRouter, {
      ...(options.devServer ? { devServer: options.devServer } : {}),
      serverBuildPath: path.join(WEB_DIR, "build/server/index.js"),
      clientBuildDirectory: path.join(WEB_DIR, "build/client"),
      // Hashed file names: a changed asset is a new URL, so cache for a year.
      assetCacheControl: "public, max-age=31536000, immutable",
      fileCacheControl: "public, max-age=3600",
      // The build writes .br and .gz beside every asset (apps/web/scripts/precompress.ts).
      staticOptions: { preCompressed: true },
      async getLoadContext(request) {
        const context = new RouterContextProvider();
        context.set(await contextToken(options.devServer), {
          requestId: request.id,
          nonce: request.cspNonce,
          origin: publicOrigin(request.protocol, request.host, app.platform.config.publicDomains),
          api: createInProcessApi(app, request),
        });
        return context;
      },
    });
  });
}
