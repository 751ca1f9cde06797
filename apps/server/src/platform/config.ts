import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_PRODUCT_DOMAIN_PATTERNS } from "@meridian/sanitize";
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
  /**
   * Hosts that are the product (docs/product.md §9): links to them in content become
   * relative. Exact names or `*.domain`; unset means the built-in list.
   */
  PRODUCT_DOMAINS: csv.pipe(
    z.array(
      z.string().regex(/^(\*\.)?[a-z0-9.-]+$/i, "must be a host name or *.domain such as *.example.com"),
    ),
  ),
  IMG_DOMAINS_FOREIGN: hostList,
  IMG_DOMAINS_INTERNAL: hostList,
  DEFAULT_IMG_HOST: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d+)?$/i)
    .default("static.meridian.example"),
  /**
   * The proxies in front of the server: a comma list of addresses, CIDR ranges or
   * `loopback`/`linklocal`/`uniquelocal`; `true` for the private ranges; a hop count.
   */
  TRUST_PROXY: z.string().optional(),
  /** CSP `frame-ancestors` sources (space separated), `'self'` unless told. */
  FRAME_ANCESTORS: z.string().default("'self'"),
  /** Largest accepted request body in bytes. */
  BODY_LIMIT: z.coerce.number().int().positive().default(1_048_576),
  /** Seed demo data after migrations (default: on except under test). */
  SEED_DEMO_DATA: flag,
  /** Seconds the graceful shutdown waits for in-flight requests before exiting anyway. */
  SHUTDOWN_TIMEOUT_S: z.coerce.number().positive().default(10),
  /** 32 random bytes, base64: seals the secrets instances share through the database (platform/shared-secrets.ts). */
  SECRETS_KEY: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || v === "" || Buffer.from(v, "base64").length === 32,
      "must be 32 bytes, base64",
    ),
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
  /**
   * The site's own hosts. Production always has some: PUBLIC_DOMAINS, or the local listen
   * address (`localhost:<port>`, `127.0.0.1:<port>`) when it is unset, so no Host header
   * ever picks the domain pages, policies and sitemaps name.
   */
  publicDomains: string[];
  /** True when PUBLIC_DOMAINS was not given (production then warns at start). */
  publicDomainsDefaulted: boolean;
  imgDomains: { foreign: string[]; internal: string[]; defaultHost: string };
  /** Product-domain patterns (PRODUCT_DOMAINS or the built-in list) plus the public domains' hosts. */
  productDomains: string[];
  /**
   * False (the socket address is the client), a hop count, or the trusted proxies
   * (addresses, CIDR ranges, proxy-addr's named ranges): the client is the nearest
   * X-Forwarded-For hop that is not one of them. Loopback is always in a list: the
   * server's own in-process calls come from it.
   */
  trustProxy: false | number | string[];
  frameAncestors: string;
  bodyLimit: number;
  seedDemoData: boolean;
  shutdownTimeoutMs: number;
  /** SECRETS_KEY. Secret: never logged. */
  secretsKey: Buffer | undefined;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** proxy-addr's names for the loopback, link-local and private (RFC 1918, fc00::/7) ranges. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(item: string): boolean {
  if (NAMED_RANGES.has(item)) return true;
  const [address = "", bits, ...rest] = item.split("/");
  if (rest.length > 0) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * `true` means the private ranges, never "believe every X-Forwarded-For": trusting every
 * hop makes the leftmost entry, which the client writes, its address, so a rotating
 * header would walk around every per-IP limit.
 */
function parseTrustProxy(value: string | undefined): Config["trustProxy"] {
  if (value === undefined || value === "" || value === "false" || value === "0") return false;
  if (value === "true") return ["loopback", "linklocal", "uniquelocal"];
  if (/^\d+$/.test(value)) return Number(value);
  const items = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  const bad = items.filter((item) => !isAddressOrRange(item));
  if (bad.length > 0) {
    throw new ConfigError(
      `Invalid environment: TRUST_PROXY: ${bad.length} entries are neither an address, a CIDR range nor loopback/linklocal/uniquelocal`,
    );
  }
  return [...new Set(["loopback", ...items])];
}

/**
 * With neither image list configured, the site's own default address is the one
 * candidate: a fresh `npm start` then probes nothing (one candidate is used as is) and
 * moves no image to a host that is not there. Production sets real CDN hosts (README).
 */
function imageHostsUnset(env: NodeJS.ProcessEnv): boolean {
  return env.IMG_DOMAINS_FOREIGN === undefined && env.IMG_DOMAINS_INTERNAL === undefined;
}

/** One problem as a reader fixes it: the variable, then what it accepts (never the value given). */
function describeIssue(issue: z.core.$ZodIssue): string {
  const name = issue.path.join(".");
  if (issue.code === "invalid_value") {
    // An empty value in an enum stands for "unset", which is not worth offering.
    const accepted = issue.values.filter((v) => v !== "").map(String);
    return `${name} must be one of ${accepted.join(", ")}`;
  }
  // A schema's own message that reads as a sentence after the name ("must be ...").
  if (issue.message.startsWith("must ")) return `${name} ${issue.message}`;
  return `${name}: ${issue.message}`;
}

/**
 * Parses environment variables with a module's schema; a bad value throws a ConfigError
 * whose message is one line naming each variable and what it accepts, which `main.ts`
 * prints instead of a stack trace.
 */
export function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv): z.output<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new ConfigError(`Invalid environment: ${parsed.error.issues.map(describeIssue).join("; ")}`);
}

/** Parses the environment once; throws a ConfigError naming every bad variable (never its value). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parseEnv(envSchema, env);
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
    publicDomains:
      e.PUBLIC_DOMAINS.length > 0 || e.NODE_ENV !== "production"
        ? e.PUBLIC_DOMAINS
        : [`localhost:${e.PORT}`, `127.0.0.1:${e.PORT}`],
    publicDomainsDefaulted: e.PUBLIC_DOMAINS.length === 0,
    productDomains: [
      ...new Set([
        ...(e.PRODUCT_DOMAINS.length > 0 ? e.PRODUCT_DOMAINS : DEFAULT_PRODUCT_DOMAIN_PATTERNS),
        ...e.PUBLIC_DOMAINS.map((host) => host.replace(/:\d+$/, "").toLowerCase()),
      ]),
    ],
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
    secretsKey:
      e.SECRETS_KEY === undefined || e.SECRETS_KEY === "" ? undefined : Buffer.from(e.SECRETS_KEY, "base64"),
  };
}

/** The config as it may appear in a log line: connection strings reduced to their scheme and host. */
export function describeConfig(config: Config): Record<string, unknown> {
  const safeUrl = (url: string | undefined) => {
    if (url === undefined) return undefined;
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}`;
  };
  return {
    ...config,
    databaseUrl: safeUrl(config.databaseUrl),
    redisUrl: safeUrl(config.redisUrl),
    secretsKey: config.secretsKey === undefined ? undefined : "set",
  };
}

/** Every allowed image host: the server lists merged with the default host (docs/product.md §4). */
export function allowedImageHosts(config: Config): string[] {
  const { foreign, internal, defaultHost } = config.imgDomains;
  return [...new Set([...foreign, ...internal, defaultHost])];
}
