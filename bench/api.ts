/**
 * bench:api — the Bitget-compatible bot API driven by the real ccxt client: a server in a
 * child process (every module, SQLite file, market feed running, the Node flags of the
 * production start script), API_BENCH_CLIENTS (default 1) ccxt `bitget` clients in sandbox
 * mode, each in a worker thread of its own, issuing `createOrder` (a resting limit buy) +
 * `cancelOrder` round trips on one shared schedule at a fixed arrival rate (open loop,
 * API_BENCH_RATE per second in all, default 200, taken by the clients in turn) for
 * API_BENCH_SECONDS (default 10); then HMAC signature verifications per second on one
 * core. Limits are scaled up (one address, one key). The last line is one JSON object.
 *
 * Latency is counted from each round trip's scheduled start, not from when its client got
 * round to starting it: a round trip that waits behind its client's GC pause or busy event
 * loop waits as a bot's request would (no coordinated omission), and it ends when ccxt
 * hands back the cancel's answer. The schedule is one monotonic clock (CLOCK_MONOTONIC,
 * the same in every thread), so a worker's due times are the main thread's. The clients
 * have a heap and an event loop each: one client's GC pause holds up its own round trips,
 * not every round trip in flight and not the schedule of the others (with a single ccxt
 * client in the load generator's own thread, its pauses of 35-60 ms were most of the p99).
 * The time from the actual start is printed beside it (`p99_from_start_ms`), and so is
 * what the server went through in the same window (bench/lib/server-probe.ts: its
 * event-loop delay, GC pauses, main-thread CPU; with ORDERS_BENCH_DIAG=1 also its own
 * time per request, from the request's headers parsed to its answer written, and its
 * busiest event-loop turn in CPU time) and the same for the clients (the worst one's), so
 * a tail can be put on the side that caused it, on a shared machine too (a turn's CPU
 * time does not grow while it waits for a core).
 * API_BENCH_NODE_ARGS: more Node flags for the server (`--trace-gc`, `--cpu-prof
 * --cpu-prof-dir=<dir>`).
 */
import { fork } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { candidates, prehash, verifyHmac } from "../apps/server/src/modules/bot-api/signature.ts";
import { productionNodeFlags } from "./lib/node-flags.ts";
import { type Probe, probeModule, readProbes, watchClient } from "./lib/probe-reader.ts";

const RATE = Number(process.env.API_BENCH_RATE ?? 200);
const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 10);
/** ccxt clients, each in a worker thread of its own, sharing the schedule. */
const CLIENTS = Number(process.env.API_BENCH_CLIENTS ?? 1);
/** Round trips each client makes one after another before the measured window. */
const WARM_UP = 200;
/** Filled orders per second whose WebSocket pushes are timed (`ws_push_p99_ms`). */
const PUSH_RATE = Number(process.env.API_BENCH_PUSH_RATE ?? 50);
/** Resting orders each client edits in turn (`edit_p99_ms`): an edit waits for its slot's previous one. */
const EDIT_SLOTS = 16;

/**
 * What a client's round trip is: `create` a resting limit buy and cancel it; `edit` one
 * of its resting orders (ccxt `editOrder`: Bitget's cancel-replace, a new id each time);
 * `push` a market sell that fills, timed from its REST answer to the moment a ccxt.pro
 * caller of `watchOrders` and of `watchMyTrades` (another client, same key) has it.
 */
type Mode = "create" | "edit" | "push";

interface Ready {
  base: string;
  apiKey: string;
  secret: string;
  passphrase: string;
}

async function serve(): Promise<void> {
  const { startBotApiServer } = await import("../apps/server/src/test/bot-api.ts");
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

/**
 * The monotonic clock in ms (CLOCK_MONOTONIC): one clock for every thread, so a due time
 * set by the main thread is the same instant in a client worker.
 */
const clock = () => Number(process.hrtime.bigint()) / 1e6;

interface ClientData {
  ready: Ready;
  /** This client takes round trips `index`, `index + clients`, ... of the schedule. */
  index: number;
  clients: number;
  mode: Mode;
  rate: number;
}

type ClientStats = ReturnType<ReturnType<typeof watchClient>>;

interface ClientResult {
  /** From each round trip's scheduled start. */
  latencies: number[];
  /** From the moment this client started it. */
  fromStart: number[];
  errors: number;
  firstError: string | null;
  stats: ClientStats;
}

/**
 * One ccxt client in a worker thread: warms up, says so, waits for the schedule's start
 * (a monotonic-clock instant) and runs its share of the round trips open loop, each timed
 * from its due instant to ccxt's answer of the cancel. A worker has a heap and an event
 * loop of its own, so its GC pauses and long turns hold up its own round trips (and count
 * in them) but neither the other clients nor the main thread.
 */
async function clientWorker(data: ClientData): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error("not a worker");
  const { bitgetClient, subscribed } = await import("../apps/server/src/test/bitget-client.ts");
  const ex = await bitgetClient(data.ready.base, data.ready);
  const last = (await ex.fetchTicker("BTC/USDT")).last ?? 50_000;
  const price = Math.round(last * 0.5);
  const RATE = data.rate;
  // Each order's body differs from the last ones (its price steps through 100 dollars):
  // a byte-identical signed request in the same millisecond is refused as a replay (40005),
  // and an open-loop schedule catching up after a pause sends several at once.
  const create = async (i: number): Promise<void> => {
    const order = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, price - (i % 100));
    await ex.cancelOrder(order.id ?? "", "BTC/USDT");
  };
  // edit: EDIT_SLOTS resting orders; round trip i edits slot i % EDIT_SLOTS to a new price.
  const slots: { id: string; chain: Promise<void> }[] = [];
  let flips = 0;
  const edit = (i: number): Promise<void> => {
    const slot = slots[i % slots.length];
    if (slot === undefined) throw new Error("no slot");
    const next = slot.chain.then(async () => {
      flips += 1;
      const o = await ex.editOrder(slot.id, "BTC/USDT", "limit", "buy", 0.001, price + (flips % 2));
      slot.id = o.id ?? slot.id;
    });
    slot.chain = next.catch(() => undefined);
    return next;
  };
  // push: a watcher client; each sell's REST answer time, and when each push reached it.
  const restAt = new Map<string, number>();
  const orderAt = new Map<string, number>();
  const fillAt = new Map<string, number>();
  /** Wall-clock ms from each fill's own time (the push's `fillTime`/ccxt `timestamp`) to its arrival. */
  const fromFill: number[] = [];
  let watcher: Awaited<ReturnType<typeof bitgetClient>> | undefined;
  let watching = true;
  const loops: Promise<void>[] = [];
  const amount = Math.max(0.0001, Math.ceil((12 / last) * 10_000) / 10_000);
  const sell = async (): Promise<void> => {
    const o = await ex.createOrder("BTC/USDT", "market", "sell", amount + (n % 10) * 0.00001);
    restAt.set(o.id ?? "", clock());
  };
  if (data.mode === "edit")
    for (let k = 0; k < EDIT_SLOTS; k++) {
      const o = await ex.createOrder("BTC/USDT", "limit", "buy", 0.001, price);
      slots.push({ id: o.id ?? "", chain: Promise.resolve() });
    }
  if (data.mode === "push") {
    const w = await bitgetClient(data.ready.base, data.ready);
    watcher = w;
    const acked = Promise.all([subscribed(w, "orders"), subscribed(w, "fill")]);
    const loop = async (
      watch: () => Promise<{ id?: string; order?: string; status?: string; timestamp?: number }[]>,
      seen: Map<string, number>,
      key: "id" | "order",
    ) => {
      while (watching) {
        const got = await watch().catch(() => []);
        const t = clock();
        const wall = Date.now();
        for (const x of got) {
          if (key === "order" && typeof x.timestamp === "number" && !seen.has(x.order ?? ""))
            fromFill.push(wall - x.timestamp);
          const id = x[key];
          if (id !== undefined && (key === "order" || x.status === "closed") && !seen.has(id))
            seen.set(id, t);
        }
      }
    };
    loops.push(loop(() => w.watchOrders("BTC/USDT"), orderAt, "id"));
    loops.push(loop(() => w.watchMyTrades("BTC/USDT"), fillAt, "order"));
    await acked;
  }
  let n = 0;
  const one = (): Promise<void> => {
    n += 1;
    return data.mode === "create" ? create(n) : data.mode === "edit" ? edit(n) : sell();
  };
  // Warm-up: JIT, connections, the server's prepared statements, and the heap past the
  // start-up garbage (ccxt's markets) that the first scavenges copy.
  for (let i = 0; i < (data.mode === "push" ? 20 : WARM_UP); i++) await one();
  const start = await new Promise<number>((resolve) => {
    port.once("message", (m: { start: number }) => resolve(m.start));
    port.postMessage("warm");
  });
  const stop = watchClient(process.env.ORDERS_BENCH_DIAG === "1");
  const latencies: number[] = [];
  const fromStart: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const inFlight: Promise<void>[] = [];
  const total = Math.round(RATE * SECONDS);
  for (let i = data.index; i < total; i += data.clients) {
    const due = start + (i * 1_000) / RATE;
    const wait = due - clock();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t0 = clock();
    inFlight.push(
      one().then(
        () => {
          const t1 = clock();
          latencies.push(t1 - due);
          fromStart.push(t1 - t0);
        },
        (error: unknown) => {
          errors += 1;
          firstError ??= String(error).slice(0, 300);
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const stats = stop();
  if (data.mode === "push") {
    // Every push counted: from the REST answer to the later of the order's and the fill's
    // arrival (0 when both came before the answer); one missing after 5 s is an error.
    const ids = [...restAt.keys()].slice(20);
    const until = clock() + 5_000;
    while (clock() < until && ids.some((id) => !orderAt.has(id) || !fillAt.has(id)))
      await new Promise((r) => setTimeout(r, 20));
    latencies.length = 0;
    for (const id of ids) {
      const a = orderAt.get(id);
      const b = fillAt.get(id);
      const r = restAt.get(id) ?? 0;
      if (a === undefined || b === undefined) {
        errors += 1;
        firstError ??= `no push for order ${id}`;
      } else latencies.push(Math.max(0, Math.max(a, b) - r));
    }
    // Push mode's "from start" figures: from each fill's own time (wall clock, ms) instead.
    fromStart.length = 0;
    fromStart.push(...fromFill.slice(20));
    watching = false;
    await watcher?.close();
    await Promise.all(loops);
  }
  if (data.mode === "edit") await ex.cancelAllOrders("BTC/USDT");
  await ex.close();
  const result: ClientResult = { latencies, fromStart, errors, firstError, stats };
  // Kept alive until the main thread ends it: a worker that ended on its own could be seen
  // to exit before its result arrived.
  port.on("message", () => {});
  port.postMessage(result);
}

interface RoundTrips {
  perSecond: number;
  /** From each round trip's scheduled start. */
  p50: number;
  p99: number;
  max: number;
  /** From the moment a client started it. */
  p99FromStart: number;
  errors: number;
  serverCpuMs: number;
  count: number;
  probe: Probe;
  /** The worst client's figures (each field the maximum, or the sum for counts and CPU). */
  client: ClientStats;
}

async function roundTrips(
  ready: Ready,
  server: { cpu(): Promise<NodeJS.CpuUsage>; openWindow(): void; nextProbe(): Promise<Probe> },
  mode: Mode = "create",
): Promise<RoundTrips> {
  const clients = mode === "push" ? 1 : CLIENTS;
  const rate = mode === "push" ? PUSH_RATE : RATE;
  const workers = Array.from(
    { length: clients },
    (_, index) =>
      new Worker(fileURLToPath(import.meta.url), {
        workerData: { ready, index, clients, mode, rate } satisfies ClientData,
      }),
  );
  const failed = new Promise<never>((_, reject) => {
    for (const w of workers) {
      w.once("error", reject);
      w.once("exit", (code) => reject(new Error(`a client worker exited (${code})`)));
    }
  });
  const next = <T>(w: Worker) => Promise.race([new Promise<T>((r) => w.once("message", r)), failed]);
  try {
    await Promise.all(workers.map((w) => next<"warm">(w)));
    const cpu0 = await server.cpu();
    server.openWindow();
    // A little ahead, so that every worker has the message before its first round trip is due.
    const start = clock() + 20;
    const done = workers.map((w) => next<ClientResult>(w));
    for (const w of workers) w.postMessage({ start });
    const results = await Promise.all(done);
    const elapsed = (clock() - start) / 1_000;
    const probe = await server.nextProbe();
    const cpu1 = await server.cpu();
    const serverCpuMs = (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1_000;
    const firstError = results.find((r) => r.firstError !== null)?.firstError;
    if (firstError !== undefined) console.log(`first error: ${firstError}`);
    const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const fromStart = results.flatMap((r) => r.fromStart).sort((a, b) => a - b);
    const errors = results.reduce((n, r) => n + r.errors, 0);
    const stats = results.map((r) => r.stats);
    const most = (f: (s: ClientStats) => number | null) => {
      const values = stats.map(f).filter((v): v is number => v !== null);
      return values.length === 0 ? null : Math.max(...values);
    };
    const sum = (f: (s: ClientStats) => number) => stats.reduce((n, s) => n + f(s), 0);
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
      client: {
        cpuMs: sum((s) => s.cpuMs),
        eldP99Ms: most((s) => s.eldP99Ms),
        eldMaxMs: most((s) => s.eldMaxMs),
        busyTurnMs: most((s) => s.busyTurnMs),
        gcCount: sum((s) => s.gcCount),
        gcMs: sum((s) => s.gcMs),
        gcMaxMs: most((s) => s.gcMaxMs) ?? 0,
      },
    };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
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
    const ed = await roundTrips(ready, { cpu, openWindow, nextProbe }, "edit");
    const push = await roundTrips(ready, { cpu, openWindow, nextProbe }, "push");
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
      edit_p50_ms: round1(ed.p50),
      edit_p99_ms: round1(ed.p99),
      edit_errors: ed.errors,
      ws_push_p50_ms: round1(push.p50),
      ws_push_p99_ms: round1(push.p99),
      ws_push_max_ms: round1(push.max),
      ws_push_from_fill_p99_ms: round1(push.p99FromStart),
      ws_push_rate: PUSH_RATE,
      ws_push_errors: push.errors,
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
    if (probe.wal_sync_count !== undefined)
      console.log(
        `disk: ${probe.wal_sync_count} WAL syncs p50 ${probe.wal_sync_p50_ms} ms, p99 ${probe.wal_sync_p99_ms} ms, max ${probe.wal_sync_max_ms} ms (${probe.wal_sync_slow} over 5 ms); checkpoint passes ${JSON.stringify(probe.ckpt_pass)}, restarts ${JSON.stringify(probe.ckpt_restart)}; of ${probe.slow_requests} requests over 15 ms ${probe.slow_in_restart} overlapped a restart, ${probe.slow_in_slow_sync} a slow sync, ${probe.slow_in_pass} a pass, ${probe.slow_in_none} none`,
      );
    console.log(
      `server: CPU per round trip ${figures.server_cpu_ms_per_round_trip} ms (all threads; main thread ${(probe.main_cpu_ms / Math.max(1, rt.count)).toFixed(2)} ms), event-loop delay p99 ${probe.eld_p99_ms} ms, max ${probe.eld_max_ms} ms; GC ${probe.gc_count} pauses, ${probe.gc_ms} ms, longest ${probe.gc_max_ms} ms`,
    );
    const clientDelay =
      client.eldMaxMs === null || client.eldP99Ms === null
        ? ""
        : `event-loop delay p99 ${client.eldP99Ms.toFixed(2)} ms, max ${client.eldMaxMs.toFixed(2)} ms, busiest turn ${client.busyTurnMs?.toFixed(1)} ms of CPU, `;
    console.log(
      `clients (ccxt, ${CLIENTS} worker threads; the worst one's loop delay, turn and GC pause, all their GC and CPU): ${clientDelay}GC ${client.gcCount} pauses, ${client.gcMs.toFixed(0)} ms, longest ${client.gcMaxMs.toFixed(2)} ms, CPU ${client.cpuMs.toFixed(0)} ms`,
    );
    console.log(
      `ccxt editOrder at ${RATE}/s offered: ${round1(ed.perSecond)}/s done, p50 ${figures.edit_p50_ms} ms, p99 ${figures.edit_p99_ms} ms, ${ed.errors} errors`,
    );
    console.log(
      `WebSocket pushes of ${PUSH_RATE} fills/s (REST answer to watchOrders and watchMyTrades both having it): p50 ${figures.ws_push_p50_ms} ms, p99 ${figures.ws_push_p99_ms} ms, max ${figures.ws_push_max_ms} ms (from each fill's own time: p99 ${figures.ws_push_from_fill_p99_ms} ms), ${push.errors} errors`,
    );
    console.log(`HMAC verifications: ${figures.sig_verify_per_s}/s on one core`);
    console.log(JSON.stringify(figures));
  } finally {
    child.send("stop");
  }
}

if (process.argv.includes("--serve")) await serve();
else if (!isMainThread) await clientWorker(workerData as ClientData);
else await main();
