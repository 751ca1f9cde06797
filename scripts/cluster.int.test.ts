/**
 * Three production instances started at the same moment on a fresh PostgreSQL schema and
 * one Redis, behind HAProxy (scripts/lib/cluster.ts, what `npm run cluster` runs): all come
 * up (migrations and demo seeds take turns on the start-up lock), they share one
 * login-encryption key and one accounts secret through the database, an e-mail code sent
 * by one instance verifies on another, a login encrypted for one instance's published key
 * succeeds on another, an account's password-guess budget is shared, and the front port
 * deals requests to every instance.
 *
 * Needs TEST_DATABASE_URL and TEST_REDIS_URL (`npm test` gives both) and haproxy
 * (`.ci/run` installs it; without it the suite fails under CI=true and is skipped elsewhere).
 */
import crypto from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { GatewaySecurity, MemoryKeyStore } from "@meridian/client";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MailSink } from "../apps/server/src/test/mail-sink.ts";
import { type Cluster, haproxyBinary, startCluster } from "./lib/cluster.ts";
import { ensureWebBuild } from "./web-build.ts";

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const haproxy = haproxyBinary();
if (process.env.CI === "true" && pgUrl !== undefined && haproxy === undefined)
  throw new Error("haproxy is not installed (CI must have it: .ci/run installs it)");
const runs = pgUrl !== undefined && redisUrl !== undefined && haproxy !== undefined;

interface Answer<T> {
  status: number;
  headers: http.IncomingHttpHeaders;
  code: string;
  msg: string;
  data: T;
}

/** One HTTP request to `base` as the browser on the front door would send it. */
function request(
  base: string,
  front: URL,
  method: "GET" | "POST",
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url, base);
    const req = http.request(
      target,
      {
        method,
        headers: {
          // The instances serve the front door's host name (PUBLIC_DOMAINS).
          host: front.host,
          origin: front.origin,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * A browser stand-in over real HTTP: a cookie jar and the web client's own security code
 * (login-body encryption, device signing). `configFrom` is the instance whose published
 * key the client encrypts to; each call names the instance it goes to.
 */
class HttpAgent {
  readonly cookies = new Map<string, string>();
  readonly security: GatewaySecurity;
  readonly front: URL;
  constructor(front: URL, configFrom: string) {
    this.front = front;
    this.security = new GatewaySecurity({
      fetchConfig: async () =>
        (
          await this.call<{ gatewaySignConfig: unknown }>(
            configFrom,
            "GET",
            "/v1/mix/config/gatewaySignConfig",
          )
        ).data.gatewaySignConfig,
      report: () => {},
      store: new MemoryKeyStore(),
    });
  }

  async call<T = unknown>(
    base: string,
    method: "GET" | "POST",
    url: string,
    body?: unknown,
    /** Send `body` as it is (an already encrypted login body, to replay it). */
    raw = false,
  ): Promise<Answer<T>> {
    const path = url.split("?")[0] ?? url;
    const payload = method === "GET" || raw ? body : await this.security.transformBody({ path, body });
    const text = payload === undefined ? undefined : JSON.stringify(payload);
    const time = Date.now();
    const sign = await this.security.beforeSend({ path, url, body: text, time });
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await request(
      base,
      this.front,
      method,
      url,
      { tm: String(time), ...(cookie === "" ? {} : { cookie }), ...sign },
      text,
    );
    const setCookie = res.headers["set-cookie"] ?? [];
    for (const line of setCookie) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === "" || /Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const envelope = JSON.parse(res.text) as { code: string; msg: string; data: T };
    return { status: res.status, headers: res.headers, ...envelope };
  }
}

/** A block of `count` free consecutive ports (the front port and one per instance). */
async function freePortBlock(count: number): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = 20_000 + crypto.randomInt(0, 40_000);
    const free = await Promise.all(
      Array.from(
        { length: count },
        (_, i) =>
          new Promise<boolean>((resolve) => {
            const probe = http.createServer();
            probe.once("error", () => resolve(false));
            probe.listen(base + i, "127.0.0.1", () => probe.close(() => resolve(true)));
          }),
      ),
    );
    if (free.every(Boolean)) return base;
  }
  throw new Error("no block of free ports");
}

describe.skipIf(!runs)("three instances on one PostgreSQL and Redis behind HAProxy", () => {
  const schema = `cluster_${process.pid}_${Date.now().toString(36)}`;
  const redisPrefix = `meridian:test:${schema}:`;
  let redis: Redis;
  const dataDirs: string[] = [];
  let admin: pg.Client;
  let cluster: Cluster;
  let mail: MailSink;
  let front: URL;

  beforeAll(async () => {
    ensureWebBuild();
    redis = new Redis(redisUrl as string, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    mail = await new MailSink().start();
    const databaseUrl = new URL(pgUrl as string);
    databaseUrl.searchParams.set("options", `-c search_path=${schema}`);
    for (let i = 0; i < 3; i++) dataDirs.push(mkdtempSync(path.join(os.tmpdir(), "meridian-cluster-")));
    const frontPort = await freePortBlock(4);
    cluster = await startCluster({
      instances: 3,
      frontPort,
      host: "127.0.0.1",
      databaseUrl: databaseUrl.toString(),
      redisUrl: redisUrl as string,
      redisPrefix,
      // A data directory each: whatever they share comes through the database, not files.
      dataDir: (n) => dataDirs[n - 1] as string,
      env: {
        // Production as deployed: one SECRETS_KEY for all, no ACCOUNTS_SECRET, no login key.
        SECRETS_KEY: crypto.randomBytes(32).toString("base64"),
        ACCOUNTS_SECRET: undefined,
        API_KEYS_SECRET: undefined,
        GATEWAY_SERVER_PRIVATE_KEY: undefined,
        GATEWAY_SERVER_KEY_SIGN: undefined,
        VITE_ISSUER_PUBLIC_JWK: undefined,
        SMTP_URL: mail.url,
        LOG_LEVEL: "warn",
        TZ: "UTC",
      },
      readyTimeoutMs: 240_000,
    });
    front = new URL(cluster.url);
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
    if (redis !== undefined) {
      const keys = await redis.keys(`${redisPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
    await mail?.stop();
    await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test("all three came up on the empty schema; migrations and demo seeds ran once", async () => {
    const seeded = cluster.instances.filter((i) => i.output().includes("demo accounts created"));
    expect(seeded).toHaveLength(1);
    const users = await admin.query(
      `SELECT count(*)::int AS n FROM "${schema}".users WHERE email IN ('demo@meridian.example', 'admin@meridian.example')`,
    );
    expect(users.rows[0]?.n).toBe(2);
    // No crash. A writer deposed while starting on a loaded machine exits on purpose (fatal,
    // "writer: deposed") and the launcher starts it again as a follower: not a crash.
    for (const instance of cluster.instances) {
      const crashes = instance
        .output()
        .split("\n")
        .filter((line) => /duplicate key|"level":60/.test(line) && !line.includes("writer: deposed"));
      expect(crashes).toEqual([]);
    }
    const secrets = await admin.query(`SELECT name, sealed FROM "${schema}".shared_secrets ORDER BY name`);
    expect(secrets.rows).toEqual([
      { name: "accounts-secret", sealed: 1 },
      { name: "gateway-server-key", sealed: 1 },
    ]);
  });

  test("every instance publishes the same login-encryption key", async () => {
    const keys = await Promise.all(
      cluster.instances.map(async (instance) => {
        const res = await request(instance.url, front, "GET", "/v1/mix/config/gatewaySignConfig", {});
        return (JSON.parse(res.text) as { data: { gatewaySignConfig: { serverPublicKey: string } } }).data
          .gatewaySignConfig.serverPublicKey;
      }),
    );
    expect(keys[0]).toMatch(/^MII/);
    expect(new Set(keys).size).toBe(1);
  });

  test("a code mailed by one instance verifies on another; a login encrypted for one works on another, once", async () => {
    const [one, two, three] = cluster.instances.map((instance) => instance.url) as [string, string, string];
    const email = `cluster${Date.now()}@example.com`;
    const signup = new HttpAgent(front, one);
    const sent = await signup.call(one, "POST", "/v1/user/public/sendCode", { bizType: "register", email });
    expect(sent.code).toBe("00000");
    const emailCode = await mail.code(email, 0, 30_000);
    const registered = await signup.call<{ userInfo: { userId: string } }>(
      two,
      "POST",
      "/v1/user/register/email",
      {
        email,
        emailCode,
        pwd: "correct horse battery",
      },
    );
    expect(registered.code).toBe("00000");

    // The key comes from instance 3; the encrypted body goes to instance 1. The same
    // browser that signed up (its device cookie, `mer_device`): a browser new to the
    // account would be asked for a mailed code first (docs/accounts.md, "New devices").
    const login = new HttpAgent(front, three);
    const device = signup.cookies.get("mer_device");
    expect(device).toBeDefined();
    login.cookies.set("mer_device", device ?? "");
    const answer = await login.call<{ verifyRequired?: boolean }>(one, "POST", "/v1/user/login", {
      loginName: email,
      pwd: "correct horse battery",
    });
    expect(answer.code).toBe("00000");
    expect(answer.data.verifyRequired).toBe(false);
    // An encrypted login body is good once: accepted by instance 2, its replay to
    // instance 3 is refused (the replay cache is shared, in Redis).
    const sealed = await login.security.transformBody({
      path: "/v1/user/login",
      body: { loginName: email, pwd: "correct horse battery" },
    });
    expect((await login.call(two, "POST", "/v1/user/login", sealed, true)).code).toBe("00000");
    expect((await login.call(three, "POST", "/v1/user/login", sealed, true)).code).toBe("11020");
    // The session made by instance 1 is good on instance 2.
    const info = await login.call<{ userInfo: { userId: string } }>(
      two,
      "POST",
      "/v1/user/overview/userinfo",
    );
    expect(info.code).toBe("00000");
    expect(info.data.userInfo.userId).toBe(registered.data.userInfo.userId);
  });

  test("an account's password-guess budget is one budget across the instances", async () => {
    const urls = cluster.instances.map((instance) => instance.url);
    const email = `guess${Date.now()}@example.com`;
    const signup = new HttpAgent(front, urls[0] as string);
    await signup.call(urls[0] as string, "POST", "/v1/user/public/sendCode", { bizType: "register", email });
    const emailCode = await mail.code(email, 0, 30_000);
    const registered = await signup.call(urls[1] as string, "POST", "/v1/user/register/email", {
      email,
      emailCode,
      pwd: "correct horse battery",
    });
    expect(registered.code).toBe("00000");
    // 5 wrong passwords dealt over the three instances: one budget (ACCOUNT_POLICY, 5)...
    for (let i = 0; i < 5; i++) {
      const guess = await new HttpAgent(front, urls[i % 3] as string).call(
        urls[i % 3] as string,
        "POST",
        "/v1/user/login",
        { loginName: email, pwd: `wrong guess ${i}` },
      );
      expect(guess.code).not.toBe("00000");
    }
    // ...so even the right password is refused for now, on an instance that saw two of them
    const blocked = await new HttpAgent(front, urls[2] as string).call(
      urls[2] as string,
      "POST",
      "/v1/user/login",
      {
        loginName: email,
        pwd: "correct horse battery",
      },
    );
    expect(blocked.status).toBe(429);
    expect(blocked.code).toBe("11002");
    // the counters live in Redis, under this deployment's prefix
    expect((await redis.keys(`${redisPrefix}*`)).length).toBeGreaterThan(0);
  });

  test("the front port deals requests round robin over all three, WebSockets included", async () => {
    const servedBy = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await request(cluster.url, front, "GET", "/healthz", {});
      expect(res.status).toBe(200);
      servedBy.add(String(res.headers["x-served-by"]));
    }
    expect([...servedBy].sort()).toEqual(["i1", "i2", "i3"]);
    const page = await request(cluster.url, front, "GET", "/en/login", { accept: "text/html" });
    expect(page.status).toBe(200);
    expect(page.text).toContain("<html");

    // A client reconnects when its socket fails, as the web client does: a loaded machine
    // may refuse an upgrade now and then; the socket must open and answer within the limit.
    const failures: string[] = [];
    const deadline = Date.now() + 60_000;
    let first: string | undefined;
    while (first === undefined && failures.length < 3 && Date.now() < deadline) {
      const socket = new WebSocket(`${cluster.url.replace("http", "ws")}/v1/ws/market`);
      first = await new Promise<string | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
        socket.addEventListener("message", (event) => {
          clearTimeout(timer);
          resolve(String(event.data));
        });
        socket.addEventListener("error", (event) => {
          clearTimeout(timer);
          failures.push(String((event as ErrorEvent).message ?? "error"));
          resolve(undefined);
        });
        socket.addEventListener("open", () => socket.send(JSON.stringify({ op: "ping" })));
      });
      socket.close();
    }
    expect(first, `no message on the market socket; failures: ${failures.join("; ")}`).toBeDefined();
    expect(failures.length, failures.join("; ")).toBeLessThan(3);
  });
});
