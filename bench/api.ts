/**
 * bench:api — the Bitget-compatible bot API driven by the real ccxt client: a server in a
 * child process (every module, SQLite file, market feed running), one ccxt `bitget`
 * client in sandbox mode issuing `createOrder` (a resting limit buy) + `cancelOrder`
 * round trips at a fixed arrival rate (open loop, API_BENCH_RATE per second, default 200)
 * for API_BENCH_SECONDS (default 10); then HMAC signature verifications per second on one
 * core. Limits are scaled up (one address, one key). The last line is one JSON object.
 */
import { fork } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { candidates, prehash, verifyHmac } from "../apps/server/src/modules/bot-api/signature.ts";

const RATE = Number(process.env.API_BENCH_RATE ?? 200);
const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 10);

interface Ready {
  base: string;
  apiKey: string;
  secret: string;
  passphrase: string;
}

async function serve(): Promise<void> {
  const { startBotApiServer } = await import("../apps/server/src/modules/bot-api/test-harness.ts");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-bench-api-"));
  const server = await startBotApiServer({ rateScale: 1_000, dbPath: path.join(dir, "bench.db") });
  const cookie = await server.newUser();
  const key = await server.createKey(cookie);
  const ready: Ready = {
    base: server.base,
    apiKey: key.apiKey,
    secret: key.secret ?? "",
    passphrase: key.passphrase,
  };
  process.send?.(ready);
  process.on("message", async (m) => {
    if (m === "cpu") {
      process.send?.({ cpu: process.cpuUsage() });
      return;
    }
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

async function roundTrips(
  ready: Ready,
  serverCpu: () => Promise<NodeJS.CpuUsage>,
): Promise<{
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  serverCpuMs: number;
  count: number;
}> {
  const { bitgetClient } = await import("../apps/server/src/modules/bot-api/test-harness.ts");
  const ex = await bitgetClient(ready.base, ready);
  const last = (await ex.fetchTicker("BTC/USDT")).last ?? 50_000;
  const price = Math.round(last * 0.5);
  const one = async (): Promise<number> => {
    const t0 = performance.now();
    const order = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, price);
    await ex.cancelOrder(order.id ?? "", "BTC/USDT");
    return performance.now() - t0;
  };
  for (let i = 0; i < 50; i++) await one(); // warm-up: JIT, connections, prepared statements

  const cpu0 = await serverCpu();
  const latencies: number[] = [];
  let errors = 0;
  let firstError: unknown;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const total = Math.round(RATE * SECONDS);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1_000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const p: Promise<void> = one().then(
      (ms) => {
        latencies.push(ms);
      },
      (error: unknown) => {
        errors += 1;
        firstError ??= error;
      },
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1_000;
  const cpu1 = await serverCpu();
  const serverCpuMs = (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1_000;
  await ex.close();
  if (firstError !== undefined) console.log(`first error: ${String(firstError).slice(0, 300)}`);
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors,
    serverCpuMs,
    count: latencies.length + errors,
  };
}

/**
 * HMAC-SHA256 verifications of a typical signed POST per second of CPU time on one core
 * (measured with process.cpuUsage, so a busy shared machine does not halve the figure).
 */
function signatureVerifications(): number {
  const secret = crypto.createSecretKey(Buffer.from(crypto.randomBytes(32).toString("hex")));
  const body = JSON.stringify({
    symbol: "BTCUSDT",
    orderType: "limit",
    price: "50000",
    force: "GTC",
    side: "buy",
    size: "0.001",
  });
  const ts = String(Date.now());
  const path = "/api/v2/spot/trade/place-order";
  const sign = crypto
    .createHmac("sha256", secret)
    .update(prehash(ts, "POST", path, "", body))
    .digest("base64");
  const N = 200_000;
  let ok = 0;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i++) if (verifyHmac(secret, candidates(ts, "POST", path, "", body), sign)) ok += 1;
  const cpu = process.cpuUsage(cpu0);
  if (ok !== N) throw new Error("a signature did not verify");
  return N / ((cpu.user + cpu.system) / 1e6);
}

async function main(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once("message", (m) => resolve(m as Ready));
    child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  try {
    // The server's own CPU time over the measured window: a figure the shared machine's load
    // does not inflate the way it inflates latencies.
    const serverCpu = () =>
      new Promise<NodeJS.CpuUsage>((resolve) => {
        const onMessage = (m: unknown) => {
          const cpu = (m as { cpu?: NodeJS.CpuUsage } | null)?.cpu;
          if (cpu === undefined) return;
          child.off("message", onMessage);
          resolve(cpu);
        };
        child.on("message", onMessage);
        child.send("cpu");
      });
    const rt = await roundTrips(ready, serverCpu);
    const sig = signatureVerifications();
    const figures = {
      round_trips_per_s: Math.round(rt.perSecond * 10) / 10,
      p50_ms: Math.round(rt.p50 * 10) / 10,
      p99_ms: Math.round(rt.p99 * 10) / 10,
      errors: rt.errors,
      target_rate: RATE,
      server_cpu_ms_per_round_trip: Math.round((rt.serverCpuMs / Math.max(1, rt.count)) * 100) / 100,
      sig_verify_per_s: Math.round(sig),
      cpus: os.cpus().length,
      load1: Math.round(os.loadavg()[0] ?? 0),
    };
    console.log(
      `ccxt createOrder+cancelOrder at ${RATE}/s offered: ${figures.round_trips_per_s}/s done, p50 ${figures.p50_ms} ms, p99 ${figures.p99_ms} ms, ${rt.errors} errors`,
    );
    console.log(`server CPU per round trip: ${figures.server_cpu_ms_per_round_trip} ms`);
    console.log(`HMAC verifications: ${figures.sig_verify_per_s}/s on one core`);
    console.log(JSON.stringify(figures));
  } finally {
    child.send("stop");
  }
}

if (process.argv.includes("--serve")) await serve();
else await main();
