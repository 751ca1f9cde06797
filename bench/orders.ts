/**
 * bench:orders — paper order placement over HTTP against a real server (a child process
 * on SQLite in a fresh data dir: every module, the market feed running, a logged-in
 * paper user). autocannon paces 1,000 orders/s over 10 connections for
 * ORDERS_BENCH_SECONDS (default 10): market buys and sells of 0.0001 BTC in turn, each
 * with its own clientOrderId, so every request places, matches against the liquidity
 * maker, settles and commits before it is answered. The last line is one JSON object:
 * the latency percentiles first, then what the server's event loop went through while
 * the load ran (bench/lib/server-probe.ts: loop delay, main-thread CPU per order, GC
 * pauses, and the server's own time per request) and the machine's 1-minute load
 * average, since the latency tail on a shared machine says as much about the neighbours
 * as about the server.
 *
 * Reading the latency: autocannon paces each connection to 100 requests per second by
 * sending them back to back (the next one as soon as the answer arrives) until that
 * second's 100 are made, then waiting for the next second. So each second starts a burst
 * of 10 requests in flight at once for the few hundred milliseconds the 1,000 take: a
 * request waits behind up to 9 others, and its latency is about 10 times the server's
 * time per order. Autocannon also corrects for coordinated omission (a 12 ms answer is
 * recorded as 12, 11, ... 1 ms), so a single stall of a few milliseconds during a burst
 * weighs on p99. And it runs in this process, on the same two cores: its own GC pauses
 * and event loop delay (printed as "client") are inside every latency it records.
 *
 * The server runs with the Node flags of the production start script
 * (apps/server/package.json `start`), so V8 is tuned as in production.
 *
 * The measured run follows a warm-up at the same pace (ORDERS_BENCH_WARMUP_SECONDS,
 * default 3) on the same server. Beside autocannon's percentiles (orders_p50_ms,
 * orders_p99_ms, corrected as autocannon does) the bench prints each answer's latency
 * counted once (orders_p99_uncorrected_ms): autocannon's correction assumes a request
 * every millisecond on each connection, so an answer of t ms weighs t times in its
 * histogram (about 23,000 values for 10,000 answers here).
 *
 * Every order is signed as the browser signs a trading write: the session is bound to a
 * device key (ORDERS_BENCH_DEVICE_KEY: RSA2048, the default device algorithm, or
 * RSA1024, ECDSA_P256; `none` for a session bound to no key, whose orders the gateway
 * does not verify), and each order carries the mode-2 signature over path, time, trace
 * id and body MD5, which the server verifies (and records the trace id against replay)
 * before the order is read. The signatures are made before each run (up to the rate
 * times its seconds, plus a tenth; any request beyond that is signed when sent), so the
 * client's signing does not share the cores with the server during the run.
 *
 * ORDERS_BENCH_SECONDS, ORDERS_BENCH_RATE: duration and pace. BENCH_CPU_PROF=<dir>: the
 * server writes a .cpuprofile there. ORDERS_BENCH_NODE_ARGS: more Node flags for it.
 * ORDERS_BENCH_SERVER_LOG=<file>: the server's stdout goes there too (what `--trace-gc`
 * prints, for instance). ORDERS_BENCH_DIAG=1: the probe also times each request inside
 * the server, and this process its own loop delay (the server pays about 5 % more CPU
 * per order for it, so it is off by default).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort } from "../scripts/lib/server-process.ts";
import { type DeviceAlg, type DeviceSigner, deviceSigner } from "./lib/device-signer.ts";
import { marketOrderBody } from "./lib/market-order.ts";
import { productionNodeFlags } from "./lib/node-flags.ts";
import { type Probe, probeModule, readProbes, watchClient } from "./lib/probe-reader.ts";

const SECONDS = Number(process.env.ORDERS_BENCH_SECONDS ?? 10);
const RATE = Number(process.env.ORDERS_BENCH_RATE ?? 1000);
const WARMUP_SECONDS = Number(process.env.ORDERS_BENCH_WARMUP_SECONDS ?? 3);
const DEVICE_KEY = (process.env.ORDERS_BENCH_DEVICE_KEY ?? "RSA2048") as DeviceAlg | "none";
if (!["RSA2048", "RSA1024", "ECDSA_P256", "none"].includes(DEVICE_KEY))
  throw new Error(`ORDERS_BENCH_DEVICE_KEY: RSA2048, RSA1024, ECDSA_P256 or none, not ${DEVICE_KEY}`);
const signer: DeviceSigner | null = DEVICE_KEY === "none" ? null : deviceSigner(DEVICE_KEY);
const ORDERS_PATH = "/v1/paper/orders";
const entry = path.resolve(import.meta.dirname, "../apps/server/src/test/paper-server.ts");

interface Served {
  child: ChildProcess;
  cookie: string;
  /** Opens the server probe's window (SIGUSR2). */
  openWindow(): void;
  /** Closes the window: resolves with the `{"probe":...}` line the server prints. */
  nextProbe(): Promise<Probe>;
}

async function serve(dir: string, port: number): Promise<Served> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    DATA_DIR: dir,
    PORT: String(port),
    PAPER_DEVICE_ALG: signer?.alg ?? "",
    PAPER_DEVICE_PUBLIC_KEY: signer?.publicKeyB64 ?? "",
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const nodeArgs = (process.env.ORDERS_BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");
  const profileDir = process.env.BENCH_CPU_PROF;
  if (profileDir) nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${profileDir}`);
  const child = spawn(
    process.execPath,
    [...productionNodeFlags(), "--import", probeModule, ...nodeArgs, entry],
    {
      env,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const serverLog = process.env.ORDERS_BENCH_SERVER_LOG;
  const log = serverLog ? fs.createWriteStream(serverLog) : null;
  child.stdout?.on("data", (chunk: Buffer) => log?.write(chunk));
  const lines: string[] = [];
  const { openWindow, nextProbe } = readProbes(child, (line) => lines.push(line));
  const cookie = await new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      const m = /"cookie":"([^"]+)"/.exec(lines.join("\n"));
      if (m?.[1] !== undefined) {
        clearInterval(check);
        resolve(m[1]);
      }
    }, 20);
    child.once("exit", (code) => {
      clearInterval(check);
      reject(new Error(`server exited ${code}: ${lines.join("\n")}`));
    });
  });
  return { child, cookie, openWindow, nextProbe };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-bench-orders-"));
const port = await freePort();
const { child, cookie, openWindow, nextProbe } = await serve(dir, port);
try {
  const base = `http://127.0.0.1:${port}`;
  const headers = { "content-type": "application/json", origin: base, paptrading: "1", cookie };
  const firstBody = JSON.stringify({ symbol: "BTCUSDT", side: "BUY", type: "MARKET", quantity: "0.0001" });
  const firstOrder = await fetch(`${base}${ORDERS_PATH}`, {
    method: "POST",
    headers: { ...headers, ...signer?.headers(ORDERS_PATH, firstBody, Date.now()) },
    body: firstBody,
  });
  const firstCode = ((await firstOrder.json()) as { code: string }).code;
  if (firstCode !== "00000") throw new Error(`first order answered ${firstCode}`);

  let n = 0;
  let failed = 0;
  /** The `n`th order's body and, when signing, its signature headers (made before the run). */
  const presigned = new Map<number, { body: string; headers: Record<string, string> }>();
  const presign = (seconds: number) => {
    presigned.clear();
    if (signer === null) return;
    const count = Math.ceil(RATE * seconds * 1.1) + 20;
    const now = Date.now();
    for (let i = n + 1; i <= n + count; i++) {
      const body = marketOrderBody(i, "bench");
      presigned.set(i, { body, headers: signer?.headers(ORDERS_PATH, body, now) ?? {} });
    }
  };
  const order = (i: number) => {
    const made = presigned.get(i);
    if (made !== undefined) return made;
    const body = marketOrderBody(i, "bench");
    return { body, headers: signer?.headers(ORDERS_PATH, body, Date.now()) ?? {} };
  };
  /** One autocannon run at RATE: market buys and sells in turn, each with its own clientOrderId. */
  const load = (seconds: number, onAnswer?: (ms: number) => void) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: `${base}${ORDERS_PATH}`,
          connections: 10,
          overallRate: RATE,
          duration: seconds,
          requests: [
            {
              method: "POST",
              headers,
              setupRequest: (req) => {
                n++;
                const made = order(n);
                return { ...req, headers: { ...req.headers, ...made.headers }, body: made.body };
              },
              onResponse: (_status, body) => {
                if (!body.includes('"code":"00000"')) failed++;
              },
            },
          ],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
      if (onAnswer !== undefined)
        instance.on("response", (_client, _status, _bytes, ms: number) => onAnswer(ms));
    });
  // Warm-up at the same pace, not measured: until V8 has compiled the order path, the
  // first few hundred milliseconds answer in 10-40 ms (measured: half of a cold run's
  // answers over 6 ms came in its first 0.4 s), which says how fast V8 optimises, not
  // how fast the server places orders once running.
  if (WARMUP_SECONDS > 0) {
    presign(WARMUP_SECONDS);
    await load(WARMUP_SECONDS);
  }
  failed = 0;
  presign(SECONDS);
  openWindow();
  const stopClient = watchClient(process.env.ORDERS_BENCH_DIAG === "1");
  // Every answer's own latency as well: autocannon's histogram corrects for coordinated
  // omission with an expected interval of Math.ceil(1 / rate) = 1 ms (rate being requests
  // per second per connection), so an answer of t ms is recorded t times; the uncorrected
  // percentiles are printed beside it.
  const raw: number[] = [];
  const result = await load(SECONDS, (ms) => raw.push(ms));
  raw.sort((a, b) => a - b);
  const rawAt = (q: number) =>
    Math.round((raw[Math.min(raw.length - 1, Math.floor((raw.length * q) / 100))] ?? 0) * 100) / 100;
  const client = stopClient();
  const sent = result.requests.total;
  const probe = await nextProbe();
  const load1 = Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
  console.log(
    `paper orders: ${RATE}/s paced, 10 connections, ${SECONDS} s, device key ${DEVICE_KEY}: ${sent} sent, ${failed} not 00000, errors ${result.errors}, non-2xx ${result.non2xx}`,
  );
  console.log(
    `latency: p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ${result.requests.average.toFixed(0)} req/s; cores ${os.availableParallelism()}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    `each answer once (no coordinated-omission correction): p50 ${rawAt(50)} ms, p90 ${rawAt(90)} ms, p99 ${rawAt(99)} ms, p99.9 ${rawAt(99.9)} ms; autocannon's histogram holds ${(result.latency as { totalCount?: number }).totalCount} values for ${raw.length} answers`,
  );
  if (probe.served_count > 0) {
    console.log(
      `server time per request (headers parsed to answer written): p50 ${probe.served_p50_ms} ms, p99 ${probe.served_p99_ms} ms, max ${probe.served_max_ms} ms (${probe.served_count} answers)`,
    );
  }
  const clientDelay =
    client.eldMaxMs === null || client.eldP99Ms === null
      ? ""
      : `loop delay p99 ${client.eldP99Ms.toFixed(2)} ms, max ${client.eldMaxMs.toFixed(2)} ms, `;
  console.log(
    `client (autocannon, this process): ${clientDelay}GC ${client.gcCount} pauses, longest ${client.gcMaxMs.toFixed(2)} ms, CPU ${client.cpuMs.toFixed(0)} ms`,
  );
  const cpuPerOrder = sent > 0 ? probe.main_cpu_ms / sent : 0;
  console.log(
    `server event loop: delay p50 ${probe.eld_p50_ms} ms, p99 ${probe.eld_p99_ms} ms, max ${probe.eld_max_ms} ms; main-thread CPU ${probe.main_cpu_ms} ms (${cpuPerOrder.toFixed(3)} ms per order, ${((100 * probe.main_cpu_ms) / probe.wall_ms).toFixed(0)}% of the window); GC ${probe.gc_count} pauses, ${probe.gc_ms} ms, longest ${probe.gc_max_ms} ms`,
  );
  console.log(
    JSON.stringify({
      orders_p50_ms: result.latency.p50,
      orders_p99_ms: result.latency.p99,
      orders_max_ms: result.latency.max,
      orders_p99_uncorrected_ms: rawAt(99),
      orders_per_s: Math.round(result.requests.average),
      orders_sent: sent,
      orders_failed: failed + result.errors + result.non2xx,
      device_key: DEVICE_KEY,
      eld_p99_ms: probe.eld_p99_ms,
      eld_max_ms: probe.eld_max_ms,
      server_cpu_ms_per_order: Math.round(cpuPerOrder * 1000) / 1000,
      gc_max_ms: probe.gc_max_ms,
      ...(probe.served_count > 0 ? { served_p99_ms: probe.served_p99_ms } : {}),
      client_gc_max_ms: Math.round(client.gcMaxMs * 100) / 100,
      load1,
    }),
  );
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  fs.rmSync(dir, { recursive: true, force: true });
}
