import type { ViteDevServer } from "vite";
import { buildApp } from "./app.ts";
import { checkModuleEnvironment } from "./modules/index.ts";
import { type Config, ConfigError, loadConfig } from "./platform/config.ts";
import { WEB_DIR } from "./platform/http/ssr.ts";
import { ensureLocalSecrets } from "./platform/local-secrets.ts";

/** A bad setting is the operator's to fix: one line naming it, no stack trace. */
function exitOnConfigError(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

function readConfig(): Config {
  try {
    const { dataDir } = loadConfig();
    // Every setting is checked before anything is written to DATA_DIR.
    checkModuleEnvironment(process.env, dataDir);
    // Before the config is read again: it may fill SECRETS_KEY (and ACCOUNTS_SECRET) from DATA_DIR.
    ensureLocalSecrets(dataDir);
    return loadConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
}

const config = readConfig();

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
}).catch(exitOnConfigError);
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
