import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** The repository root: relative paths in the environment (DATA_DIR) resolve against it. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

const csv = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

const hostList = csv.pipe(
  z.array(z.string().regex(/^[a-z0-9.-]+(:\d+)?$/i, "must be a host name such as img.example.com")),
);

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Put before every Redis key and channel, so deployments sharing one Redis stay apart. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/)
    .default("meridian:"),
  /**
   * How the main SQLite database makes commits durable. GROUP (default) and FULL: a
   * commit is on disk when it is acknowledged, power failure included (GROUP syncs the
   * WAL off the event loop, shared by concurrent commits; FULL inside each COMMIT).
   * NORMAL may lose the last commits on power loss (never on a process crash): only for
   * throwaway data.
   */
  SQLITE_SYNCHRONOUS: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(["group", "full", "normal"]))
    .default("group"),
  DATA_DIR: z.string().min(1).default("./data"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  PUBLIC_DOMAINS: hostList,
  IMG_DOMAINS_FOREIGN: hostList,
  IMG_DOMAINS_INTERNAL: hostList,
  DEFAULT_IMG_HOST: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d+)?$/i)
    .default("static.meridian.example"),
  /** `true`, a hop count, or a comma list of trusted proxy addresses/CIDRs. */
  TRUST_PROXY: z.string().optional(),
  /** CSP `frame-ancestors` sources (space separated), `'self'` unless told. */
  FRAME_ANCESTORS: z.string().default("'self'"),
  /** Largest accepted request body in bytes. */
  BODY_LIMIT: z.coerce.number().int().positive().default(1_048_576),
  /** Seed demo data after migrations (default: on except under test). */
  SEED_DEMO_DATA: flag,
  /** Seconds the graceful shutdown waits for in-flight requests before exiting anyway. */
  SHUTDOWN_TIMEOUT_S: z.coerce.number().positive().default(10),
});

export interface Config {
  nodeEnv: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  host: string;
  /** PostgreSQL when set; otherwise SQLite at `<dataDir>/meridian.db`. Secret: never logged. */
  databaseUrl: string | undefined;
  /** Secret: never logged. */
  redisUrl: string | undefined;
  /** Before every Redis key and channel (REDIS_PREFIX, default `meridian:`). */
  redisPrefix: string;
  sqliteSynchronous: "group" | "full" | "normal";
  dataDir: string;
  logLevel: string;
  publicDomains: string[];
  imgDomains: { foreign: string[]; internal: string[]; defaultHost: string };
  trustProxy: boolean | number | string[];
  frameAncestors: string;
  bodyLimit: number;
  seedDemoData: boolean;
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

function parseTrustProxy(value: string | undefined): Config["trustProxy"] {
  if (value === undefined || value === "" || value === "false" || value === "0") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(",").map((item) => item.trim());
}

/**
 * With neither image list configured, the site's own default address is the one
 * candidate: a fresh `npm start` then probes nothing (one candidate is used as is) and
 * moves no image to a host that is not there. Production sets real CDN hosts (README).
 */
function imageHostsUnset(env: NodeJS.ProcessEnv): boolean {
  return env.IMG_DOMAINS_FOREIGN === undefined && env.IMG_DOMAINS_INTERNAL === undefined;
}

/** Parses the environment once; throws a ConfigError naming every bad variable (never its value). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n  ${problems.join("\n  ")}`);
  }
  const e = parsed.data;
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === "production",
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    dataDir: path.resolve(REPO_ROOT, e.DATA_DIR),
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info"),
    publicDomains: e.PUBLIC_DOMAINS,
    imgDomains: {
      foreign: e.IMG_DOMAINS_FOREIGN,
      internal: imageHostsUnset(env) ? [`localhost:${e.PORT}`] : e.IMG_DOMAINS_INTERNAL,
      defaultHost: e.DEFAULT_IMG_HOST,
    },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    frameAncestors: e.FRAME_ANCESTORS,
    bodyLimit: e.BODY_LIMIT,
    seedDemoData: env.SEED_DEMO_DATA === undefined ? e.NODE_ENV !== "test" : e.SEED_DEMO_DATA,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_S * 1000,
  };
}

/** The config as it may appear in a log line: connection strings reduced to their scheme and host. */
export function describeConfig(config: Config): Record<string, unknown> {
  const safeUrl = (url: string | undefined) => {
    if (url === undefined) return undefined;
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}`;
  };
  return { ...config, databaseUrl: safeUrl(config.databaseUrl), redisUrl: safeUrl(config.redisUrl) };
}

/** Every allowed image host: the server lists merged with the default host (SPEC section 4). */
export function allowedImageHosts(config: Config): string[] {
  const { foreign, internal, defaultHost } = config.imgDomains;
  return [...new Set([...foreign, ...internal, defaultHost])];
}
