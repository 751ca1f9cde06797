/**
 * bench:orders — paper order placement over HTTP against a real server (a child process
 * on SQLite in a fresh data dir: every module, the market feed running, a logged-in
 * paper user). autocannon paces 1,000 orders/s over 10 connections for
 * ORDERS_BENCH_SECONDS (default 10): market buys and sells of 0.0001 BTC in turn, each
 * with its own clientOrderId, so every request places, matches against the liquidity
 * maker, settles and commits before it is answered. The last line is one JSON object.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";

const SECONDS = Number(process.env.ORDERS_BENCH_SECONDS ?? 10);
const RATE = Number(process.env.ORDERS_BENCH_RATE ?? 1000);
const entry = path.resolve(import.meta.dirname, "../apps/server/src/modules/paper/test-server.ts");

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const a = probe.address();
      probe.close(() => resolve(typeof a === "object" && a !== null ? a.port : 0));
    });
  });
}

async function serve(dir: string, port: number): Promise<{ child: ChildProcess; cookie: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    DATA_DIR: dir,
    PORT: String(port),
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [entry], { env, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  const cookie = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /"cookie":"([^"]+)"/.exec(out);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return { child, cookie };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-bench-orders-"));
const port = await freePort();
const { child, cookie } = await serve(dir, port);
try {
  const base = `http://127.0.0.1:${port}`;
  const headers = { "content-type": "application/json", origin: base, paptrading: "1", cookie };
  const probe = await fetch(`${base}/v1/paper/orders`, {
    method: "POST",
    headers,
    body: JSON.stringify({ symbol: "BTCUSDT", side: "BUY", type: "MARKET", quantity: "0.0001" }),
  });
  const probeCode = ((await probe.json()) as { code: string }).code;
  if (probeCode !== "00000") throw new Error(`order probe answered ${probeCode}`);

  let n = 0;
  let failed = 0;
  const result = await autocannon({
    url: `${base}/v1/paper/orders`,
    connections: 10,
    overallRate: RATE,
    duration: SECONDS,
    requests: [
      {
        method: "POST",
        headers,
        setupRequest: (req) => {
          n++;
          return {
            ...req,
            body: JSON.stringify({
              symbol: "BTCUSDT",
              side: n % 2 === 0 ? "BUY" : "SELL",
              type: "MARKET",
              quantity: "0.0001",
              clientOrderId: `bench-${n}`,
            }),
          };
        },
        onResponse: (_status, body) => {
          if (!body.includes('"code":"00000"')) failed++;
        },
      },
    ],
  });
  const sent = result.requests.total;
  console.log(
    `paper orders: ${RATE}/s paced, 10 connections, ${SECONDS} s: ${sent} sent, ${failed} not 00000, errors ${result.errors}, non-2xx ${result.non2xx}`,
  );
  console.log(
    `latency: p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ${result.requests.average.toFixed(0)} req/s; cores ${os.availableParallelism()}`,
  );
  console.log(JSON.stringify({ orders_p50_ms: result.latency.p50, orders_p99_ms: result.latency.p99 }));
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  fs.rmSync(dir, { recursive: true, force: true });
}
