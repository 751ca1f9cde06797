/**
 * bench:auth — login latency with 50 concurrent clients against a real server (a child
 * process on SQLite, argon2id m=19 MiB t=2 p=1 included, bodies encrypted as the web
 * client sends them), then signed-request verifications per second on one core.
 * The last line printed is one JSON object. AUTH_BENCH_SECONDS shortens the run.
 */
import { type ChildProcess, fork } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encryptLoginBody, verifyServerKey } from "@meridian/client";
import { gatewaySignConfigSchema, SIGN_WINDOW_MS, signPayload } from "@meridian/contracts";
import autocannon from "autocannon";
import { deviceKeyId } from "../apps/server/src/modules/gateway-sign/device-key.ts";
import { md5Hex } from "../apps/server/src/modules/gateway-sign/keys.ts";
import { MemoryReplayStore } from "../apps/server/src/modules/gateway-sign/replay.ts";
import { verifySignedRequest } from "../apps/server/src/modules/gateway-sign/verify.ts";

const USERS = 50;
const PASSWORD = "bench-password-123";
const SECONDS = Number(process.env.AUTH_BENCH_SECONDS ?? 10);
const PORT = Number(process.env.AUTH_BENCH_PORT ?? 3600 + Math.floor(Math.random() * 90));

async function serve(): Promise<void> {
  const { buildApp } = await import("../apps/server/src/app.ts");
  const { loadConfig } = await import("../apps/server/src/platform/config.ts");
  const { securityRoutes } = await import("../apps/server/src/modules/accounts/index.ts");
  let service: import("../apps/server/src/modules/accounts/index.ts").AccountsService | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-bench-auth-"));
  const app = await buildApp({
    config: loadConfig({
      NODE_ENV: "development",
      DATA_DIR: dir,
      SEED_DEMO_DATA: "false",
      PORT: String(PORT),
    }),
    ssr: false,
    logger: false,
    modules: [
      (api, platform) => {
        securityRoutes(api, platform);
        service = api.accounts.service;
      },
    ],
  });
  if (service === undefined) throw new Error("accounts module missing");
  for (let i = 0; i < USERS; i++) {
    await service.createUser({
      email: `bench${i}@example.com`,
      areaCode: null,
      mobile: null,
      phoneKey: null,
      password: PASSWORD,
      role: "user",
    });
  }
  await app.listen({ port: PORT, host: "127.0.0.1" });
  process.send?.("ready");
  process.on("disconnect", () => {
    void app.close().then(() => {
      fs.rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

async function loginBench(): Promise<{
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  non2xx: number;
}> {
  const child: ChildProcess = fork(new URL(import.meta.url).pathname, ["--serve"], {
    stdio: "inherit",
    env: { ...process.env, AUTH_BENCH_PORT: String(PORT) },
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    const res = (await (await fetch(`${base}/v1/mix/config/gatewaySignConfig`)).json()) as {
      data: { gatewaySignConfig: unknown };
    };
    const config = gatewaySignConfigSchema.parse(res.data.gatewaySignConfig);
    const key = await verifyServerKey(config);
    // Every ciphertext is good once (replay store): make more than the run can use.
    const bodies: string[] = [];
    const total = Math.max(2_000, SECONDS * 400);
    for (let i = 0; i < total; i++) {
      const body = await encryptLoginBody(
        "/v1/user/login",
        { loginName: `bench${i % USERS}@example.com`, pwd: PASSWORD },
        key,
        Date.now(),
      );
      bodies.push(JSON.stringify(body));
    }
    const probe = await fetch(`${base}/v1/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: bodies.pop(),
    });
    const probeCode = ((await probe.json()) as { code: string }).code;
    if (probeCode !== "00000") throw new Error(`login probe answered ${probeCode}`);
    let next = 0;
    const result = await autocannon({
      url: `${base}/v1/user/login`,
      connections: 50,
      duration: SECONDS,
      requests: [
        {
          method: "POST",
          headers: { "content-type": "application/json", origin: base },
          setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] ?? "" }),
        },
      ],
    });
    return {
      p50: result.latency.p50,
      p99: result.latency.p99,
      rps: result.requests.average,
      errors: result.errors,
      non2xx: result.non2xx,
    };
  } finally {
    child.disconnect();
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

async function verifyBench(): Promise<number> {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const spki = publicKey.export({ format: "der", type: "spki" }).toString("base64");
  const bound = { keyId: deviceKeyId(spki), publicKey: spki, alg: "ECDSA_P256" };
  const now = Date.now();
  const body = JSON.stringify({ symbol: "BTCUSDT", side: "buy", price: "65000.10", qty: "0.01" });
  const bodyMd5 = md5Hex(body);
  const requests = Array.from({ length: 20_000 }, (_, i) => {
    const tm = String(now);
    const traceId = `${tm}-${i.toString(16).padStart(16, "0")}`;
    const url = "/v1/trade/order";
    const sign = crypto
      .sign("sha256", Buffer.from(signPayload(2, url, tm, traceId, bodyMd5)), {
        key: privateKey,
        dsaEncoding: "ieee-p1363",
      })
      .toString("base64");
    return {
      url,
      rawBody: Buffer.from(body),
      headers: {
        "device-sign": sign,
        "device-sign-mode": "2",
        "device-sign-data-md5": bodyMd5,
        "device-sign-key": bound.keyId,
        tm,
        uhti: traceId,
      },
    };
  });
  // Three rounds on fresh replay stores (the first also warms the key cache); the median is reported.
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++) {
    const replay = new MemoryReplayStore();
    const start = performance.now();
    let ok = 0;
    for (const r of requests) {
      const v = await verifySignedRequest(r, 2, bound, replay, now);
      if (v.ok) ok++;
    }
    const seconds = (performance.now() - start) / 1000;
    if (ok !== requests.length) throw new Error(`only ${ok} of ${requests.length} verified`);
    if (seconds > SIGN_WINDOW_MS / 1000) throw new Error("verification slower than the window");
    rounds.push(Math.round(requests.length / seconds));
  }
  rounds.sort((a, b) => a - b);
  return rounds[1] ?? 0;
}

if (process.argv.includes("--serve")) {
  await serve();
} else {
  const perSecond = await verifyBench();
  console.log(
    `signed-request verification (ECDSA P-256, mode 2, md5 + replay store), one core: ${perSecond}/s`,
  );
  const login = await loginBench();
  console.log(
    `login: 50 connections, ${SECONDS} s: p50 ${login.p50} ms, p99 ${login.p99} ms, ${login.rps.toFixed(1)} req/s, errors ${login.errors}, non-2xx ${login.non2xx}, cores ${os.availableParallelism()}`,
  );
  console.log(
    JSON.stringify({ login_p50_ms: login.p50, login_p99_ms: login.p99, sig_verify_per_s: perSecond }),
  );
}
