/**
 * Several production instances on one PostgreSQL and one Redis behind HAProxy (Debian's
 * `haproxy` package): one front port, requests dealt round robin, WebSockets passed
 * through, instances taken out while their `/healthz` fails. Used by `npm run cluster`
 * (scripts/cluster.ts) and the cluster integration test (docs/operations.md).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isHealthy } from "./server-process.ts";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const serverEntry = path.join(repoRoot, "apps/server/src/main.ts");

export interface ClusterOptions {
  instances: number;
  /** The load balancer's port; instance i listens on frontPort + i. */
  frontPort: number;
  host: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** Shared by every instance (generated local secrets live there), or one per instance (1-based). */
  dataDir: string | ((instance: number) => string);
  /** Extra environment for every instance (overrides the defaults). */
  env?: Record<string, string | undefined>;
  /** Node flags before the entry (the production start script's). */
  nodeArgs?: string[];
  /** Each line an instance writes, with its number (1-based). */
  onLine?: (instance: number, line: string) => void;
  /** An instance or the load balancer exited while the cluster was up. */
  onExit?: (what: string, code: number | null, signal: NodeJS.Signals | null) => void;
  readyTimeoutMs?: number;
}

export interface Instance {
  number: number;
  port: number;
  url: string;
  pid: number;
  /** Tail of everything it wrote. */
  output(): string;
}

export interface Cluster {
  /** The front door: `http://<host>:<frontPort>`. */
  url: string;
  instances: Instance[];
  /** The HAProxy configuration in use. */
  haproxyConfig: string;
  /** Stops the load balancer, then every instance gracefully (SIGTERM; SIGKILL after 15 s). */
  stop(): Promise<void>;
}

/** The haproxy binary, or undefined when it is not installed. */
export function haproxyBinary(): string | undefined {
  for (const candidate of ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy"]) {
    const probe = spawnSync(candidate, ["-v"], { stdio: "ignore" });
    if (probe.status === 0) return candidate;
  }
  const which = spawnSync("sh", ["-c", "command -v haproxy"], { encoding: "utf8" });
  const found = which.stdout.trim();
  return which.status === 0 && found !== "" ? found : undefined;
}

/**
 * Round robin over every instance; health checks on `/healthz` every 2 s, each allowed
 * 5 s (down after 2 failures, up after 1 success); the client address in X-Forwarded-For and the scheme in
 * X-Forwarded-Proto (the instances trust loopback: TRUST_PROXY). An upgraded connection
 * (WebSocket) is a tunnel with its own idle timeout, so a quiet socket is not cut after
 * the HTTP timeouts.
 */
export function haproxyConfig(o: Pick<ClusterOptions, "host" | "frontPort" | "instances">): string {
  const servers = Array.from(
    { length: o.instances },
    (_, i) => `  server i${i + 1} 127.0.0.1:${o.frontPort + i + 1} check inter 2s fall 2 rise 1`,
  );
  return [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  option forwardfor",
    "  timeout connect 5s",
    "  timeout client 60s",
    "  timeout server 60s",
    "  timeout http-request 10s",
    "  timeout tunnel 1h",
    "  timeout client-fin 5s",
    // A health check may take this long before it counts as failed (the default is the
    // 2 s interval): a busy instance is slow, not down.
    "  timeout check 5s",
    "frontend meridian",
    `  bind ${o.host}:${o.frontPort}`,
    // Plain HTTP here; a deployment terminating TLS in front sets https.
    "  http-request set-header X-Forwarded-Proto http",
    // Which instance answered (i1, i2, ...): to see the dealing, and for the tests.
    "  http-response set-header X-Served-By %s",
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    "  option httpchk GET /healthz",
    "  http-check expect status 200",
    // A server back after a restart gets traffic at once; one that went down hands its
    // queued requests to the others.
    "  option redispatch",
    "  retries 2",
    ...servers,
    "",
  ].join("\n");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when something already listens on host:port. */
function portBusy(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host === "0.0.0.0" ? "127.0.0.1" : host, port });
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = exitOf(child);
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts every instance at the same moment (they take turns on the database's start-up
 * lock), waits until each answers `/healthz`, then starts HAProxy in front and waits
 * until the front port answers. Throws, with the instances' output, when one does not
 * come up; everything started is stopped first.
 */
/** The exit code of a writer that found another instance holding the lease (modules/writer). */
const DEPOSED_EXIT_CODE = 70;

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const haproxy = haproxyBinary();
  if (haproxy === undefined)
    throw new Error("haproxy is not installed: apt-get install -y haproxy (Debian's package)");
  for (let i = 0; i <= o.instances; i++) {
    if (await portBusy(o.host, o.frontPort + i))
      throw new Error(`port ${o.frontPort + i} is in use: choose another front port (--port)`);
  }
  const children: ChildProcess[] = [];
  const instances: Instance[] = [];
  let balancer: ChildProcess | undefined;
  let stopping = false;
  // The balancer first, so nothing new reaches an instance that is finishing its requests.
  const stopAll = async () => {
    stopping = true;
    if (balancer !== undefined) await stopChild(balancer, "SIGTERM", 5_000);
    await Promise.all(children.map((child) => stopChild(child, "SIGTERM", 15_000)));
  };

  for (let n = 1; n <= o.instances; n++) {
    const port = o.frontPort + n;
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: typeof o.dataDir === "string" ? o.dataDir : o.dataDir(n),
      DATABASE_URL: o.databaseUrl,
      REDIS_URL: o.redisUrl,
      REDIS_PREFIX: o.redisPrefix,
      // Links, the CSP and WebSocket origins name the front door, not the instance.
      PUBLIC_DOMAINS: [`localhost:${o.frontPort}`, `127.0.0.1:${o.frontPort}`].join(","),
      IMG_DOMAINS_INTERNAL: `localhost:${o.frontPort}`,
      TRUST_PROXY: "loopback",
      // The model unless asked (production's `auto` would reach for a live exchange).
      MARKET_FEED: process.env.MARKET_FEED ?? "model",
      ...o.env,
    };
    let tail = "";
    // A supervisor's one duty here: a writer that finds itself deposed exits with 70
    // (modules/writer) and is started again, to come back as a follower.
    const launch = (): ChildProcess => {
      const child = spawn(process.execPath, [...(o.nodeArgs ?? []), serverEntry], {
        cwd: repoRoot,
        env,
        stdio: ["ignore", "pipe", "pipe"],
        // Ctrl-C reaches the cluster script only: it stops the balancer first, then these.
        detached: true,
      });
      children[n - 1] = child;
      let partial = "";
      const onData = (chunk: Buffer) => {
        const text = chunk.toString("utf8");
        tail = (tail + text).slice(-20_000);
        const lines = (partial + text).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) if (line !== "") o.onLine?.(n, line);
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code, signal) => {
        if (stopping) return;
        o.onExit?.(`instance ${n}`, code, signal);
        if (code === DEPOSED_EXIT_CODE) {
          const next = launch();
          const instance = instances[n - 1];
          if (instance !== undefined) instance.pid = next.pid ?? -1;
        }
      });
      return child;
    };
    const child = launch();
    instances.push({
      number: n,
      port,
      url: `http://127.0.0.1:${port}`,
      pid: child.pid ?? -1,
      output: () => tail,
    });
  }

  const deadline = Date.now() + (o.readyTimeoutMs ?? 120_000);
  try {
    await Promise.all(
      instances.map(async (instance, i) => {
        for (;;) {
          // A deposed writer is started again (launch): wait for the new process.
          const child = children[i] as ChildProcess;
          if ((child.exitCode !== null && child.exitCode !== DEPOSED_EXIT_CODE) || child.signalCode !== null)
            throw new Error(
              `instance ${instance.number} exited (${child.exitCode ?? child.signalCode}) while starting:\n${instance.output()}`,
            );
          if (await isHealthy(instance.url)) return;
          if (Date.now() > deadline)
            throw new Error(`instance ${instance.number} did not answer /healthz:\n${instance.output()}`);
          await sleep(200);
        }
      }),
    );

    const dir = mkdtempSync(path.join(os.tmpdir(), "meridian-haproxy-"));
    const configFile = path.join(dir, "haproxy.cfg");
    const config = haproxyConfig(o);
    writeFileSync(configFile, config);
    const check = spawnSync(haproxy, ["-c", "-q", "-f", configFile], { encoding: "utf8" });
    if (check.status !== 0)
      throw new Error(`haproxy refused its configuration:\n${check.stderr}${check.stdout}`);
    // -db: foreground, no daemon; -W: master-worker, so SIGTERM stops it cleanly.
    const lb = spawn(haproxy, ["-W", "-db", "-f", configFile], {
      stdio: ["ignore", "ignore", "pipe"],
      detached: true,
    });
    balancer = lb;
    let balancerLog = "";
    lb.stderr?.on("data", (chunk: Buffer) => {
      balancerLog = (balancerLog + chunk.toString("utf8")).slice(-5_000);
    });
    lb.once("exit", (code, signal) => {
      rmSync(dir, { recursive: true, force: true });
      if (!stopping) o.onExit?.("haproxy", code, signal);
    });
    const url = `http://${o.host === "0.0.0.0" ? "127.0.0.1" : o.host}:${o.frontPort}`;
    for (;;) {
      if (lb.exitCode !== null || lb.signalCode !== null) throw new Error(`haproxy exited:\n${balancerLog}`);
      if (await isHealthy(url)) break;
      if (Date.now() > deadline) throw new Error(`haproxy did not answer on ${url}:\n${balancerLog}`);
      await sleep(100);
    }
    return { url, instances, haproxyConfig: config, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
