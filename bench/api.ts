/**
 * bench:api — the Bitget-compatible bot API driven by the real ccxt client: a server in a
 * child process (every module, SQLite file, market feed running, the Node flags of the
 * production start script), one ccxt `bitget` client in sandbox mode issuing
 * `createOrder` (a resting limit buy) + `cancelOrder` round trips at a fixed arrival rate
 * (open loop, API_BENCH_RATE per second, default 200) for API_BENCH_SECONDS (default 10);
 * then HMAC signature verifications per second on one core. Limits are scaled up (one
 * address, one key). The last line is one JSON object.
 *
 * Latency is counted from each round trip's scheduled start, not from when this process
 * got round to starting it: a round trip that waits behind the client's own GC pause or
 * busy event loop waits as a bot's request would (no coordinated omission). The time from
 * the actual start is printed beside it (`p99_from_start_ms`), and so is what the server
 * went through in the same window (bench/lib/server-probe.ts: its event-loop delay, GC
 * pauses, main-thread CPU; with ORDERS_BENCH_DIAG=1 also its own time per request, from
 * the request's headers parsed to its answer written, and its busiest event-loop turn in
 * CPU time) and the same for this process, so a tail can be put on the side that caused
 * it, on a shared machine too (a turn's CPU time does not grow while it waits for a core).
 * API_BENCH_NODE_ARGS: more Node flags for the server (`--trace-gc`, `--cpu-prof
 * --cpu-prof-dir=<dir>`).
 */
import { fork } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { candidates, prehash, verifyHmac } from "../apps/server/src/modules/bot-api/signature.ts";
import { productionNodeFlags } from "./lib/node-flags.ts";
import { type Probe, probeModule, readProbes, watchClient } from "./lib/probe-reader.ts";

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

interface RoundTrips {
  perSecond: number;
  /** From each round trip's scheduled start. */
  p50: number;
  p99: number;
  max: number;
  /** From the moment this process started it. */
  p99FromStart: number;
  errors: number;
  serverCpuMs: number;
  count: number;
  probe: Probe;
  client: ReturnType<ReturnType<typeof watchClient>>;
}

async function roundTrips(
  ready: Ready,
  server: { cpu(): Promise<NodeJS.CpuUsage>; openWindow(): void; nextProbe(): Promise<Probe> },
): Promise<RoundTrips> {
  const { bitgetClient } = await import("../apps/server/src/modules/bot-api/test-harness.ts");
  const ex = await bitgetClient(ready.base, ready);
  const last = (await ex.fetchTicker("BTC/USDT")).last ?? 50_000;
  const price = Math.round(last * 0.5);
  const one = async (): Promise<void> => {
    const order = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, price);
    await ex.cancelOrder(order.id ?? "", "BTC/USDT");
  };
  for (let i = 0; i < 50; i++) await one(); // warm-up: JIT, connections, prepared statements

  const cpu0 = await server.cpu();
  server.openWindow();
  const stopClient = watchClient(process.env.ORDERS_BENCH_DIAG === "1");
  const latencies: number[] = [];
  const fromStart: number[] = [];
  let errors = 0;
  let firstError: unknown;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const total = Math.round(RATE * SECONDS);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1_000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    const p: Promise<void> = one().then(
      () => {
        const t1 = performance.now();
        latencies.push(t1 - due);
        fromStart.push(t1 - t0);
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
  const client = stopClient();
  const probe = await server.nextProbe();
  const cpu1 = await server.cpu();
  const serverCpuMs = (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1_000;
  await ex.close();
  if (firstError !== undefined) console.log(`first error: ${String(firstError).slice(0, 300)}`);
  latencies.sort((a, b) => a - b);
  fromStart.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    p99FromStart: percentile(fromStart, 0.99),
    errors,
    serverCpuMs,
    count: latencies.length + errors,
    probe,
    client,
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
  const nodeArgs = (process.env.API_BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], {
    execArgv: [...productionNodeFlags(), "--import", probeModule, ...nodeArgs],
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const { openWindow, nextProbe } = readProbes(child, (line) => console.log(line));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once("message", (m) => resolve(m as Ready));
    child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  try {
    // The server's own CPU time over the measured window, every thread (the WAL
    // checkpointer's and the thread pool's fsyncs too): a figure the shared machine's load
    // does not inflate the way it inflates latencies.
    const cpu = () =>
      new Promise<NodeJS.CpuUsage>((resolve) => {
        const onMessage = (m: unknown) => {
          const usage = (m as { cpu?: NodeJS.CpuUsage } | null)?.cpu;
          if (usage === undefined) return;
          child.off("message", onMessage);
          resolve(usage);
        };
        child.on("message", onMessage);
        child.send("cpu");
      });
    const rt = await roundTrips(ready, { cpu, openWindow, nextProbe });
    const sig = signatureVerifications();
    const round1 = (n: number) => Math.round(n * 10) / 10;
    const { probe, client } = rt;
    const figures = {
      round_trips_per_s: round1(rt.perSecond),
      p50_ms: round1(rt.p50),
      p99_ms: round1(rt.p99),
      max_ms: round1(rt.max),
      p99_from_start_ms: round1(rt.p99FromStart),
      errors: rt.errors,
      target_rate: RATE,
      server_cpu_ms_per_round_trip: Math.round((rt.serverCpuMs / Math.max(1, rt.count)) * 100) / 100,
      server_eld_p99_ms: probe.eld_p99_ms,
      server_eld_max_ms: probe.eld_max_ms,
      server_gc_max_ms: probe.gc_max_ms,
      ...(probe.served_count > 0 ? { served_p99_ms: probe.served_p99_ms } : {}),
      ...(probe.busy_turn_max_ms === null ? {} : { server_busy_turn_max_ms: probe.busy_turn_max_ms }),
      client_gc_max_ms: round1(client.gcMaxMs),
      ...(client.busyTurnMs === null ? {} : { client_busy_turn_max_ms: round1(client.busyTurnMs) }),
      sig_verify_per_s: Math.round(sig),
      cpus: os.cpus().length,
      load1: round1(os.loadavg()[0] ?? 0),
    };
    console.log(
      `ccxt createOrder+cancelOrder at ${RATE}/s offered: ${figures.round_trips_per_s}/s done, p50 ${figures.p50_ms} ms, p99 ${figures.p99_ms} ms, max ${figures.max_ms} ms from the scheduled start (p99 ${figures.p99_from_start_ms} ms from the actual start), ${rt.errors} errors`,
    );
    if (probe.served_count > 0)
      console.log(
        `server time per request (headers parsed to answer written): p50 ${probe.served_p50_ms} ms, p99 ${probe.served_p99_ms} ms, max ${probe.served_max_ms} ms (${probe.served_count} requests); busiest event-loop turn ${probe.busy_turn_max_ms} ms of CPU`,
      );
    console.log(
      `server: CPU per round trip ${figures.server_cpu_ms_per_round_trip} ms (all threads; main thread ${(probe.main_cpu_ms / Math.max(1, rt.count)).toFixed(2)} ms), event-loop delay p99 ${probe.eld_p99_ms} ms, max ${probe.eld_max_ms} ms; GC ${probe.gc_count} pauses, ${probe.gc_ms} ms, longest ${probe.gc_max_ms} ms`,
    );
    const clientDelay =
      client.eldMaxMs === null || client.eldP99Ms === null
        ? ""
        : `event-loop delay p99 ${client.eldP99Ms.toFixed(2)} ms, max ${client.eldMaxMs.toFixed(2)} ms, busiest turn ${client.busyTurnMs?.toFixed(1)} ms of CPU, `;
    console.log(
      `client (ccxt, this process): ${clientDelay}GC ${client.gcCount} pauses, ${client.gcMs.toFixed(0)} ms, longest ${client.gcMaxMs.toFixed(2)} ms, CPU ${client.cpuMs.toFixed(0)} ms`,
    );
    console.log(`HMAC verifications: ${figures.sig_verify_per_s}/s on one core`);
    console.log(JSON.stringify(figures));
  } finally {
    child.send("stop");
  }
}

if (process.argv.includes("--serve")) await serve();
else await main();
