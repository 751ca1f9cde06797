/**
 * `npm run cluster [-- --instances 3 --port 8080 --fresh]`: the site as several production
 * instances on the local PostgreSQL and Redis behind HAProxy, through one port
 * (docs/operations.md, "A local cluster"). Ctrl-C stops the load balancer, then every
 * instance gracefully.
 *
 * Env: DATABASE_URL (postgres://<login user>@127.0.0.1:5432/test), CLUSTER_SCHEMA (meridian_cluster:
 * the cluster's tables live in this schema of that database, made when missing),
 * REDIS_URL (redis://127.0.0.1:6379), REDIS_PREFIX (meridian:cluster:), HOST (127.0.0.1),
 * DATA_DIR (./data/cluster), LOG_LEVEL (warn: the demo accounts, warnings and errors).
 */
import os from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { productionNodeFlags } from "../bench/lib/node-flags.ts";
import { startCluster } from "./lib/cluster.ts";
import { ensureWebBuild } from "./web-build.ts";

const { values } = parseArgs({
  options: {
    instances: { type: "string", default: process.env.CLUSTER_INSTANCES ?? "3" },
    port: { type: "string", default: process.env.CLUSTER_PORT ?? "8080" },
    fresh: { type: "boolean", default: false },
  },
});
const instances = Number(values.instances);
const frontPort = Number(values.port);
if (!Number.isInteger(instances) || instances < 1 || instances > 16) {
  console.error("--instances must be 1 to 16");
  process.exit(2);
}
if (!Number.isInteger(frontPort) || frontPort < 1 || frontPort + instances > 65_535) {
  console.error("--port must leave room for the instances' ports after it");
  process.exit(2);
}
const schema = process.env.CLUSTER_SCHEMA ?? "meridian_cluster";
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
  console.error("CLUSTER_SCHEMA must be a plain lower-case identifier");
  process.exit(2);
}
// As psql would: the database user named after the login user when the URL names none.
const baseUrl = process.env.DATABASE_URL ?? `postgres://${os.userInfo().username}@127.0.0.1:5432/test`;
const say = (line: string) => process.stdout.write(`${line}\n`);

// The schema first: every instance then finds it and migrates into it under the start-up lock.
const admin = new pg.Client({ connectionString: baseUrl });
try {
  await admin.connect();
  if (values.fresh) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
} catch (error) {
  console.error(`PostgreSQL at ${new URL(baseUrl).host}: ${(error as Error).message}`);
  process.exit(1);
} finally {
  await admin.end().catch(() => {});
}
const databaseUrl = new URL(baseUrl);
databaseUrl.searchParams.set("options", `-c search_path=${schema}`);

ensureWebBuild({ log: say });

/** pino's JSON line as `[n] LEVEL message` (the demo accounts' block keeps its line breaks). */
const LEVELS: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};
function render(instance: number, line: string): string {
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
    const level = LEVELS[entry.level ?? 30] ?? String(entry.level);
    const error = entry.err?.message === undefined ? "" : ` (${entry.err.message})`;
    return `[${instance}] ${level} ${entry.msg ?? ""}${error}`;
  } catch {
    return `[${instance}] ${line}`;
  }
}

say(`starting ${instances} instances on PostgreSQL schema ${schema} and Redis, HAProxy on port ${frontPort}`);
let stopping = false;
const cluster = await startCluster({
  instances,
  frontPort,
  host: process.env.HOST ?? "127.0.0.1",
  databaseUrl: databaseUrl.toString(),
  redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  redisPrefix: process.env.REDIS_PREFIX ?? "meridian:cluster:",
  dataDir: process.env.DATA_DIR ?? "./data/cluster",
  env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
  nodeArgs: productionNodeFlags(),
  onLine: (instance, line) => say(render(instance, line)),
  onExit: (what, code, signal) => {
    if (!stopping) say(`${what} exited (${code ?? signal}); HAProxy sends its share to the others`);
  },
}).catch((error: unknown) => {
  console.error(`the cluster did not start: ${(error as Error).message}`);
  process.exit(1);
});

say(`\nMeridian cluster: ${cluster.url}  (Ctrl-C stops it)`);
for (const instance of cluster.instances)
  say(`  instance ${instance.number}: ${instance.url} (pid ${instance.pid})`);
say("The demo accounts are printed once above, by the instance that seeded them (first start only).");

async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  say(`\n${signal}: stopping HAProxy, then the instances (finishing requests in flight)`);
  await cluster.stop();
  say("stopped");
  process.exit(0);
}
process.once("SIGINT", () => void stop("SIGINT"));
process.once("SIGTERM", () => void stop("SIGTERM"));
