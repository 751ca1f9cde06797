/**
 * The production server as a child process: `node apps/server/src/main.ts` with
 * NODE_ENV=production on a free port and its own data directory, ready once `/healthz`
 * answers. Used by the browser harness (apps/web/e2e/harness.ts) and the benchmarks.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../apps/server/src/test/ports.ts";

export { freePort };

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const serverEntry = path.join(repoRoot, "apps/server/src/main.ts");

export interface StartServerOptions {
  /** Extra environment for the server. DATABASE_URL and REDIS_URL are only set when given here. */
  env?: Record<string, string | undefined>;
  /**
   * Reuse a data directory (restart after a crash); a fresh temporary one otherwise,
   * holding a copy of the suite's seeded template database when there is one (see
   * `SEED_TEMPLATE_ENV`).
   */
  dataDir?: string;
  /** `false`: seed the demo content itself even when the suite has a template. */
  seedTemplate?: boolean;
  /** Extra Node flags before the entry, e.g. `["--cpu-prof", "--cpu-prof-dir=/tmp/prof"]`. */
  nodeArgs?: string[];
  /** How long to wait for `/healthz`; default 90 s (a first start seeds the demo content). */
  readyTimeoutMs?: number;
}

export interface RunningServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  dataDir: string;
  /** Process id of the server (for crash tests). */
  pid: number;
  /** Everything the server wrote to stdout and stderr so far (tail, for failure messages). */
  output(): string;
  /** Graceful stop: SIGTERM, then SIGKILL after 10 s. Resolves once the process has exited. */
  stop(): Promise<void>;
  /** Sends `signal` (SIGKILL for crash tests) and resolves with the exit once the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();
const ownedDirs = new Set<string>();

// NOTE: a test file that throws or times out must not leave servers or temp dirs behind.
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of ownedDirs) rmSync(dir, { recursive: true, force: true });
});

/** The Node that runs the server: this one when it is 24+, else the project's `node@24`. */
export function nodeBinary(): string {
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= 24) return process.execPath;
  const local = path.join(repoRoot, "node_modules/.bin/node");
  if (existsSync(local)) return local;
  throw new Error(
    "Node 24 not found: run the e2e suite through npm/npx (npx vitest run -c vitest.e2e.config.ts)",
  );
}

/** The server exited or never answered `/healthz`; the message carries its output. */
export class ServerStartError extends Error {
  readonly addressInUse: boolean;
  constructor(message: string, addressInUse: boolean) {
    super(message);
    this.name = "ServerStartError";
    this.addressInUse = addressInUse;
  }
}

/** A stable 32-byte base64 secret per data directory (test servers only). */
function testSecret(dataDir: string): string {
  return createHash("sha256").update(`meridian-test-server:${dataDir}`).digest("base64");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `/healthz` at `url` answers 2xx within 2 s (also used by scripts/lib/cluster.ts). */
export async function isHealthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

async function startOnce(options: StartServerOptions, dataDir: string): Promise<RunningServer> {
  const port = await freePort();
  const env: Record<string, string | undefined> = { ...process.env };
  // The parent shell's databases are not the test's: SQLite in DATA_DIR unless a test asks.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  Object.assign(
    env,
    {
      NODE_ENV: "production",
      TZ: "UTC",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      // Production refuses to start without it; tied to the data dir so a restart reads its own data.
      ACCOUNTS_SECRET: process.env.ACCOUNTS_SECRET ?? testSecret(dataDir),
      // Production defaults to `auto` (a live exchange): tests and benchmarks never go online.
      MARKET_FEED: "model",
    },
    options.env,
  );

  const child = spawn(nodeBinary(), [...(options.nodeArgs ?? []), serverEntry], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let log = "";
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);

  const url = `http://127.0.0.1:${port}`;
  const exited = exitOf(child);
  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
  let ready = false;
  while (Date.now() < deadline) {
    const state = await Promise.race([
      exited.then(() => "exited" as const),
      sleep(100).then(() => "waiting" as const),
    ]);
    if (state === "exited") break;
    if (await isHealthy(url)) {
      ready = true;
      break;
    }
  }
  if (!ready) {
    child.kill("SIGKILL");
    const result = await exited;
    throw new ServerStartError(
      `server did not become healthy at ${url}/healthz (exit ${result.code ?? result.signal})\n--- server output ---\n${log}`,
      log.includes("EADDRINUSE"),
    );
  }

  const kill = async (signal: NodeJS.Signals = "SIGKILL") => {
    child.kill(signal);
    return await exited;
  };
  return {
    url,
    port,
    dataDir,
    pid: child.pid ?? -1,
    output: () => log,
    kill,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Environment variable naming the seeded template database (apps/server/src/test/seed-template.ts). */
export const SEED_TEMPLATE_ENV = "MERIDIAN_TEST_SEED_TEMPLATE";

const utcDay = (ms: number) => Math.floor(ms / 86_400_000);

/**
 * The template database a fresh server may start from: set by the browser suite's global
 * setup; only for a SQLite server with the default seeding (no DATABASE_URL, no
 * SEED_DEMO_DATA given), and only on the UTC day it was seeded (the demo content's dates
 * are days from then), so the server sees what its own first start would have written.
 */
function usableSeedTemplate(options: StartServerOptions): string | undefined {
  const template = process.env[SEED_TEMPLATE_ENV];
  if (options.seedTemplate === false) return undefined;
  if (template === undefined || template === "") return undefined;
  if (options.env?.DATABASE_URL !== undefined || options.env?.SEED_DEMO_DATA !== undefined) return undefined;
  if (!existsSync(template) || utcDay(statSync(template).mtimeMs) !== utcDay(Date.now())) return undefined;
  return template;
}

/**
 * Spawns `node apps/server/src/main.ts` (NODE_ENV=production) on a free port and waits
 * for `/healthz`. Needs the web build (`ensureWebBuild` in scripts/web-build.ts).
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  let dataDir = options.dataDir;
  if (dataDir === undefined) {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "meridian-e2e-"));
    ownedDirs.add(dataDir);
    const template = usableSeedTemplate(options);
    if (template !== undefined) copyFileSync(template, path.join(dataDir, "meridian.db"));
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, dataDir);
    } catch (error) {
      // Another process may grab the port between the probe and the listen.
      if (!(error instanceof ServerStartError && error.addressInUse) || attempt >= 3) throw error;
    }
  }
}
