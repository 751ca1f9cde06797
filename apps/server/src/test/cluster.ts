import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import pg from "pg";

/**
 * Several real server processes on one PostgreSQL schema and one Redis prefix (the
 * cluster test and `bench:cluster`): each is `test/paper-server.ts` (every
 * module, no pages) on its own port, started as the trading writer or a follower.
 */
export interface ClusterNode {
  readonly name: string;
  readonly port: number;
  readonly base: string;
  readonly child: ChildProcess;
  /** "writer" or "follower" when it became ready. */
  readonly startedAs: string;
  readonly instance: string;
  /** Session cookies of the `users` logged in at start (see `startNode`). */
  readonly cookies: string[];
  /** Resolves with the exit code (or signal name) once the process ended. */
  readonly exited: Promise<number | string>;
  /** Everything the process printed (warnings and role changes when `log`). */
  output(): string;
}

export interface ClusterOptions {
  /** postgres://... of the server (a fresh schema is made in it). */
  databaseUrl: string;
  redisUrl: string;
  /** Schema and Redis prefix stem, unique per run. */
  name: string;
}

export interface Cluster {
  readonly schema: string;
  readonly databaseUrl: string;
  /** Starts one instance; `users`: how many paper users it logs in (`<i>-cluster@example.com`). */
  start(
    name: string,
    port: number,
    o?: { users?: number; env?: Record<string, string> },
  ): Promise<ClusterNode>;
  /** A client on the schema, for the checker's queries. */
  sql<T extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
  /** Kills what is still running, drops the schema. */
  stop(): Promise<void>;
}

const SERVER = path.resolve(import.meta.dirname, "./paper-server.ts");

export async function openCluster(o: ClusterOptions): Promise<Cluster> {
  const schema = `${o.name}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: o.databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.query(`SET search_path TO "${schema}"`);
  const url = new URL(o.databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  // names the instances' connections, so a benchmark can find their backends
  url.searchParams.set("application_name", schema);
  const databaseUrl = url.toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${o.name}-cluster-`));
  const nodes: ClusterNode[] = [];
  // CLUSTER_NODE_ARGS: Node flags for the instances (`--cpu-prof --cpu-prof-dir=<dir>`)
  const nodeArgs = (process.env.CLUSTER_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");

  const start: Cluster["start"] = async (name, port, opts = {}) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      DATA_DIR: path.join(dataDir, name),
      DATABASE_URL: databaseUrl,
      REDIS_URL: o.redisUrl,
      REDIS_PREFIX: `${schema}:`,
      SEED_DEMO_DATA: "false",
      MARKET_CLOCK: "paused",
      ACCOUNTS_SECRET: "cluster-test-secret-cluster-test-secret-0123456789",
      PAPER_USER_EMAIL: "cluster@example.com",
      PAPER_USERS: String(opts.users ?? 0),
      TEST_SERVER_LOG: "1",
      ...opts.env,
    };
    fs.mkdirSync(env.DATA_DIR as string, { recursive: true });
    const child = spawn(process.execPath, [...nodeArgs, SERVER], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    const exited = new Promise<number | string>((resolve) =>
      child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
    );
    const ready = await new Promise<{ cookies: string[]; role: string; instance: string }>(
      (resolve, reject) => {
        const check = setInterval(() => {
          const line = out.split("\n").find((l) => l.startsWith('{"ready":true'));
          if (line !== undefined) {
            clearInterval(check);
            resolve(JSON.parse(line) as { cookies: string[]; role: string; instance: string });
          }
        }, 50);
        void exited.then((code) => {
          clearInterval(check);
          reject(new Error(`${name} exited ${code} before it was ready:\n${out.slice(-4000)}`));
        });
      },
    );
    const node: ClusterNode = {
      name,
      port,
      base: `http://127.0.0.1:${port}`,
      child,
      startedAs: ready.role,
      instance: ready.instance,
      cookies: ready.cookies,
      exited,
      output: () => out,
    };
    nodes.push(node);
    return node;
  };

  return {
    schema,
    databaseUrl,
    start,
    sql: async (text, params) => (await admin.query(text, params)).rows,
    stop: async () => {
      for (const n of nodes) {
        if (n.child.exitCode === null && n.child.signalCode === null) {
          n.child.kill("SIGCONT");
          // a profiled instance writes its profile on a clean exit: SIGTERM, 10 s to go
          n.child.kill(nodeArgs.length > 0 ? "SIGTERM" : "SIGKILL");
        }
      }
      const late = setTimeout(() => {
        for (const n of nodes)
          if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill("SIGKILL");
      }, 10_000);
      await Promise.all(nodes.map((n) => n.exited));
      clearTimeout(late);
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      // The instances' keys (rate limits, leases, push marks) go with the schema.
      const redis = new Redis(o.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await redis.connect();
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `${schema}:*`, "COUNT", 500);
          cursor = next;
          if (keys.length > 0) await redis.del(...keys);
        } while (cursor !== "0");
      } finally {
        redis.disconnect();
      }
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The answer envelope of one API call to `node` as the user of `cookie` (network errors: code "NET"). */
export async function clusterCall<T = unknown>(
  node: Pick<ClusterNode, "base">,
  cookie: string,
  method: "GET" | "POST" | "DELETE",
  url: string,
  body?: unknown,
): Promise<{ status: number; code: string; msg: string; data: T }> {
  try {
    const res = await fetch(`${node.base}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        origin: node.base,
        paptrading: "1",
        cookie,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const env = (await res.json()) as { code: string; msg: string; data: T };
    return { status: res.status, ...env };
  } catch (error) {
    return { status: 0, code: "NET", msg: String(error), data: null as T };
  }
}
