import type { ViteDevServer } from "vite";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./platform/config.ts";
import { WEB_DIR } from "./platform/http/ssr.ts";
import { ensureLocalSecrets } from "./platform/local-secrets.ts";

// Before the config is read: it may fill SECRETS_KEY (and ACCOUNTS_SECRET) from DATA_DIR.
ensureLocalSecrets(loadConfig().dataDir);
const config = loadConfig();

/** Development: Vite in middleware mode, so pages hot-reload without a build. */
async function startVite(): Promise<{ vite: ViteDevServer; connectSrc: string[] }> {
  const { createServer } = await import("vite");
  // NOTE: HMR gets its own port: @fastify/websocket answers every upgrade on the main server.
  const hmrPort = Number(process.env.HMR_PORT ?? 24678);
  const vite = await createServer({
    root: WEB_DIR,
    configFile: `${WEB_DIR}/vite.config.ts`,
    appType: "custom",
    server: { middlewareMode: true, hmr: { port: hmrPort } },
  });
  return { vite, connectSrc: [`ws://localhost:${hmrPort}`, `ws://127.0.0.1:${hmrPort}`] };
}

const dev = config.nodeEnv === "development" ? await startVite() : undefined;
// A bad setting found while the modules start (e.g. an unknown MARKET_FEED exchange or
// MARKET_SYMBOLS pair) stops the start with one line naming it and the valid values.
const app = await buildApp({
  config,
  ...(dev ? { devServer: dev.vite, connectSrc: dev.connectSrc } : {}),
}).catch((error: unknown) => {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
if (dev) app.addHook("onClose", () => dev.vite.close());

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, "shutting down: finishing in-flight requests");
  const timer = setTimeout(() => {
    app.log.error("shutdown timed out; exiting");
    process.exit(1);
  }, config.shutdownTimeoutMs);
  timer.unref();
  try {
    // Stops accepting, lets in-flight requests finish, then closes db and redis (onClose).
    await app.close();
    process.exitCode = 0;
  } catch (error) {
    app.log.error({ err: error }, "shutdown failed");
    process.exitCode = 1;
  }
}
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  app.log.fatal({ err: error }, "could not listen");
  await app.close();
  process.exit(1);
}
