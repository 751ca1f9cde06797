/**
 * `npm run bench:ingest`: tracking upload throughput and latency of the production
 * server, 50-event batches (the SDK's largest), every event new (no repeats), over
 * autocannon:
 *
 * 1. SQLite (the default store, `synchronous` FULL: acknowledged = fsynced);
 * 2. SQLite with TRACKING_SQLITE_SYNC=normal, to show what the fsync costs;
 * 3. PostgreSQL at BENCH_PG_URL (default postgres://root@127.0.0.1:5432/test) in a
 *    fresh schema, dropped afterwards (skipped when it does not answer), with the CPU
 *    of the PostgreSQL backends serving it beside the server's (local PostgreSQL only);
 * 4. a bare node:http server that parses the same bodies and stores nothing.
 *
 * The servers run with the production start script's Node flags (apps/server/package.json
 * `start`, bench/lib/node-flags.ts), as bench:orders' does; the bare server too, so the
 * floor is measured under the same runtime configuration.
 *
 * After each server run the stored rows are counted against the acknowledged events.
 * Last line: `{sqlite_events_per_s, postgres_events_per_s, bare_events_per_s,
 * ratio_sqlite_vs_bare, p99_ms, ..., postgres_server_cpu_us_per_event,
 * postgres_db_cpu_us_per_event}` (p99 of the SQLite FULL run). Target: 100 000 events/s
 * durable from one process, into SQLite and into PostgreSQL.
 *
 * Concurrency: 64 uploads in flight. The ingest acknowledges an upload once its group
 * commit is durable, so its throughput grows with the uploads in flight until the cores
 * are busy: at 32 the two cores still idled 11-21 % of the run (vmstat), at 64 about 12 %,
 * and 64 gave a median 15 % more events/s in alternating runs, at twice the p99 (60-80 ms).
 * A public beacon endpoint taking 2,000 uploads a second from browsers has hundreds in
 * flight (each waits a network round trip), so 64 is still a low count.
 *
 * The client runs in this process with a 1 MB V8 semi-space (the npm script's flag).
 * Autocannon builds every request as a new 62 KB Buffer, memory outside V8's heap, while
 * it allocates little on the heap: with V8's default young generation a scavenge came
 * seldom, the request buffers piled up, and their external memory set off a full
 * mark-compact every ~0.4 s (35 per run, 3-13 ms each). Frequent cheap scavenges free
 * them first (8 per run); autocannon's CPU per upload fell about a quarter, CPU the server
 * gets back on the two cores both share.
 *
 * Env: BENCH_CONNECTIONS (64), BENCH_DURATION_S (10), BENCH_PG_URL; INGEST_BENCH_NODE_ARGS (more
 * Node flags for the servers, after the start script's); BENCH_CPU_PROF=<dir>
 * (the servers write .cpuprofile files there, one per thread, the writer's included);
 * BENCH_ONLY=full (only the SQLite FULL run, no JSON line: for profiling and quick checks),
 * BENCH_ONLY=postgres (only the PostgreSQL run, no JSON line).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { startServer } from "../scripts/lib/server-process.ts";
import { productionNodeFlags } from "./lib/node-flags.ts";
import { cpuSeconds } from "./lib/proc-cpu.ts";

const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const duration = Number(process.env.BENCH_DURATION_S ?? 10);
const pgUrl = process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test";
const profileDir = process.env.BENCH_CPU_PROF;
// the production start script's Node flags (its young-generation size), then profiling
const nodeArgs = [
  ...productionNodeFlags(),
  ...(process.env.INGEST_BENCH_NODE_ARGS ?? "").split(" ").filter((flag) => flag !== ""),
  ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
];
const BATCH = 50;
/** A first start migrates a fresh schema and seeds demo data: slow on a loaded machine. */
const START_TIMEOUT_MS = 120_000;
const TARGET = 100_000;
const here = path.dirname(fileURLToPath(import.meta.url));

const log = (line: string) => process.stdout.write(`${line}\n`);

/** One upload as the SDK sends it (ASCII); `__P__` is replaced per request so every event is new. */
function template(): string {
  const now = Date.now();
  const events = Array.from({ length: BATCH }, (_, seq) => ({
    app_id: "meridian-web",
    app_name: "Meridian",
    ver: "1.0.0",
    uid: "w-123456789__P__",
    browser: "Chrome",
    browser_version: "140.0.0.0",
    session_id: "a1b2c3d4e5f6a7b8__P__",
    network_type: "4g",
    sys: 3,
    os_version: "Windows 10",
    device_id: "a1b2c3d4e5f6a7b8",
    manufacturer: "",
    brand: "",
    model: "",
    screen_width: 1920,
    screen_height: 1080,
    carrier: "",
    url_host: "www.meridian.example",
    lib_version: "1.1.45",
    timezone_offset: 480,
    channel: "organic",
    log_env: "online",
    qr_val: "",
    source_referer: "https://www.google.com/",
    source_target: "https://www.meridian.example/en/telegram-apps",
    first_visit_time: now - 3_600_000,
    first_day: true,
    ip: "203.0.113.7",
    type: seq % 5 === 0 ? 1 : seq % 2 === 0 ? 3 : 2,
    url: "https://www.meridian.example/en/telegram-apps/wallet?utm_source=x",
    title: "Wallet - Apps and Bot Center | Meridian",
    curr_page: "b9331",
    event_tracking: seq % 5 === 0 ? "page" : seq % 2 === 0 ? "expose" : "click",
    event_tracking_id: seq % 5 === 0 ? "b9331" : `b12${seq % 7}`,
    event_tracking_ext: seq % 5 === 0 ? {} : { pos: seq, slot: "list" },
    curr_page_ext: {},
    page_status: 0,
    track_type: 1,
    timestamp: now + seq,
    ctime: now + 60_000,
    timely: 1,
    merge: 0,
    seq,
    log_seq: seq,
    retry_count: 0,
    user_language: 0,
    referer: "https://www.meridian.example/en/telegram-apps",
    business1: "Price",
    business2: "Crypto Price",
    page_unique_id: "__P__",
  }));
  return JSON.stringify(events);
}

interface Run {
  eventsPerS: number;
  /** Server CPU (every thread) per acknowledged event, expansion included (SQLite). */
  cpuUsPerEvent?: number;
  /** CPU of the PostgreSQL backends serving the server, per acknowledged event (PostgreSQL run only). */
  databaseCpuUsPerEvent?: number;
  p50: number;
  p99: number;
  acknowledged: number;
  failed: number;
}

/** CPU seconds per thread of `pid` so far, by thread id, with the thread's name (Linux). */
function threadCpu(pid: number): Map<string, { name: string; s: number }> {
  const threads = new Map<string, { name: string; s: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      threads.set(tid, { name, s: cpuSeconds(`${pid}/task/${tid}`) });
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

/** "main 7.1 s, WorkerThread 3.2 + 0.1 s, V8Worker 1.0 s, ...": the CPU each kind of thread used between two snapshots. */
function threadReport(
  before: Map<string, { name: string; s: number }>,
  after: Map<string, { name: string; s: number }>,
) {
  const byName = new Map<string, number[]>();
  for (const [tid, thread] of after) {
    const used = thread.s - (before.get(tid)?.s ?? 0);
    if (used < 0.05) continue;
    byName.set(thread.name, [...(byName.get(thread.name) ?? []), used]);
  }
  return [...byName]
    .map(
      ([name, used]) =>
        `${name} ${used
          .sort((a, b) => b - a)
          .map((s) => s.toFixed(1))
          .join(" + ")} s`,
    )
    .join(", ");
}

/**
 * Every upload as one Buffer that is patched in place per request: the template's
 * `__P__` become `prefix` + a fixed-width counter, so a request costs autocannon 150
 * small writes (and its own copy into the request buffer) instead of a `replaceAll` over
 * the 62 KB text and its UTF-8 encoding. Autocannon copies the body into each request
 * (Buffer.concat) before the next call, so one buffer serves every request.
 */
function uploads(): () => Buffer {
  const prefix = `${process.pid}${Date.now()}`;
  const WIDTH = 9;
  const parts = template().split("__P__");
  const id = `${prefix}${"0".repeat(WIDTH)}`;
  const body = Buffer.from(parts.join(id), "latin1");
  const offsets: number[] = [];
  let at = 0;
  for (const part of parts.slice(0, -1)) {
    at += part.length;
    offsets.push(at + prefix.length);
    at += id.length;
  }
  let counter = 0;
  return () => {
    const digits = String(counter++).padStart(WIDTH, "0");
    for (const offset of offsets) body.write(digits, offset, "latin1");
    return body;
  };
}

/**
 * CPU seconds the local PostgreSQL backends serving `applicationName` used so far, by
 * process id (Linux /proc; empty for a remote BENCH_PG_URL). Only the server's own
 * connections count: other clients of a shared PostgreSQL come and go meanwhile.
 */
async function backendCpu(admin: pg.Client, applicationName: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE application_name = $1",
    [applicationName],
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, cpuSeconds(pid));
    } catch {
      // not on this machine, or gone meanwhile
    }
  }
  return cpu;
}

/** CPU seconds between two `backendCpu` snapshots, over the backends in both; undefined when none. */
function backendCpuUsed(before: Map<number, number>, after: Map<number, number>): number | undefined {
  let used = 0;
  let seen = 0;
  for (const [pid, s] of after) {
    const was = before.get(pid);
    if (was === undefined) continue;
    used += s - was;
    seen++;
  }
  return seen === 0 ? undefined : used;
}

async function hammer(
  url: string,
  label: string,
  pid?: number,
  database?: () => Promise<Map<number, number>>,
): Promise<Run> {
  const next = uploads();
  const options = (seconds: number): autocannon.Options => ({
    url,
    connections,
    duration: seconds,
    method: "POST",
    headers: { "content-type": "application/json" },
    requests: [
      {
        method: "POST",
        setupRequest: (request) => ({ ...request, body: next() }),
      },
    ],
  });
  await autocannon(options(2));
  const cpuBefore = pid === undefined ? 0 : cpuSeconds(pid);
  const threadsBefore = pid === undefined ? undefined : threadCpu(pid);
  const clientBefore = process.cpuUsage();
  const databaseBefore = await database?.();
  const result = await autocannon(options(duration));
  const databaseAfter = await database?.();
  const client = process.cpuUsage(clientBefore);
  const cpuRun = pid === undefined ? 0 : cpuSeconds(pid) - cpuBefore;
  const threads =
    pid === undefined || threadsBefore === undefined ? "" : threadReport(threadsBefore, threadCpu(pid));
  const ok = result["2xx"];
  const bad = result.non2xx + result.errors + result.timeouts;
  const eventsPerS = Math.round((ok * BATCH) / duration);
  log(
    `${label}: ${eventsPerS} events/s (${Math.round(ok / duration)} uploads/s), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms${bad ? `, ${bad} failed` : ""}`,
  );
  if (bad) {
    log(
      `  failed: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts; status codes ${JSON.stringify(result.statusCodeStats)}`,
    );
  }
  const databaseRun =
    databaseBefore === undefined || databaseAfter === undefined
      ? undefined
      : backendCpuUsed(databaseBefore, databaseAfter);
  if (databaseRun !== undefined)
    log(`  PostgreSQL backends' CPU during the run (the server's connections): ${databaseRun.toFixed(1)} s`);
  if (pid !== undefined)
    log(
      `  server CPU during the run: ${cpuRun.toFixed(1)} s of ${duration} s (${threads}); client (autocannon, this process) ${((client.user + client.system) / 1e6).toFixed(1)} s`,
    );
  return {
    eventsPerS,
    cpuUsPerEvent:
      pid === undefined || ok === 0 ? undefined : Math.round((cpuRun / (ok * BATCH)) * 1e6 * 10) / 10,
    ...(databaseRun === undefined || ok === 0
      ? {}
      : { databaseCpuUsPerEvent: Math.round((databaseRun / (ok * BATCH)) * 1e6 * 10) / 10 }),
    p50: result.latency.p50,
    p99: result.latency.p99,
    acknowledged: ok * BATCH,
    failed: bad,
  };
}

async function sqliteRun(sync: "full" | "normal"): Promise<Run> {
  const server = await startServer({
    env: { TRACKING_SQLITE_SYNC: sync, LOG_LEVEL: "warn" },
    nodeArgs,
    readyTimeoutMs: START_TIMEOUT_MS,
  });
  try {
    const run = await hammer(
      `${server.url}/v1/buried/log/info`,
      `SQLite (synchronous ${sync.toUpperCase()})`,
      server.pid,
    );
    // uploads are acknowledged once stored as one row each and expanded into events after:
    // wait for the expansion, counting its CPU too
    const cpuAfterRun = cpuSeconds(server.pid);
    const drainStart = performance.now();
    const watch = new DatabaseSync(path.join(server.dataDir, "tracking.db"), { readOnly: true });
    const expansion = watch.prepare("SELECT 1 FROM sqlite_master WHERE name = 'tracking_expansion'").get();
    const waiting = () =>
      expansion === undefined
        ? 0
        : Number(
            (
              watch
                .prepare(
                  "SELECT COUNT(*) AS n FROM tracking_uploads WHERE id > (SELECT upto FROM tracking_expansion)",
                )
                .get() as { n: number }
            ).n,
          );
    while (waiting() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    watch.close();
    const drainMs = Math.round(performance.now() - drainStart);
    const cpuDrain = cpuSeconds(server.pid) - cpuAfterRun;
    const perEvent = ((run.cpuUsPerEvent ?? 0) * run.acknowledged) / 1e6 + cpuDrain;
    run.cpuUsPerEvent = Math.round((perEvent / run.acknowledged) * 1e6 * 10) / 10;
    log(
      `  expansion backlog drained ${drainMs} ms after the run; server CPU ${run.cpuUsPerEvent} us per event`,
    );
    if (run.failed) log(`  server output (tail):\n${server.output().slice(-2000)}`);
    await server.stop();
    const db = new DatabaseSync(path.join(server.dataDir, "tracking.db"), { readOnly: true });
    const stored = Number((db.prepare("SELECT COUNT(*) AS n FROM tracking_events").get() as { n: number }).n);
    db.close();
    log(`  stored ${stored} rows for ${run.acknowledged} acknowledged events (warm-up included)`);
    if (stored < run.acknowledged) throw new Error("acknowledged events missing from the database");
    return run;
  } finally {
    await server.stop();
  }
}

async function postgresRun(): Promise<Run | undefined> {
  const admin = new pg.Client({ connectionString: pgUrl });
  try {
    await admin.connect();
  } catch (error) {
    log(`PostgreSQL at ${pgUrl} unavailable (${(error as Error).message}): skipped`);
    return undefined;
  }
  const schema = `bench_ingest_${process.pid}`;
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const url = new URL(pgUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  // names the server's connections, to find their backends (backendCpu)
  url.searchParams.set("application_name", schema);
  try {
    const server = await startServer({
      env: { DATABASE_URL: url.toString(), LOG_LEVEL: "warn" },
      nodeArgs,
      readyTimeoutMs: START_TIMEOUT_MS,
    });
    try {
      const run = await hammer(`${server.url}/v1/buried/log/info`, "PostgreSQL", server.pid, () =>
        backendCpu(admin, schema),
      );
      if (run.failed) log(`  server output (tail):\n${server.output().slice(-2000)}`);
      const stored = Number(
        (await admin.query(`SELECT COUNT(*) AS n FROM "${schema}".tracking_events`)).rows[0]?.n ?? 0,
      );
      log(`  stored ${stored} rows for ${run.acknowledged} acknowledged events (warm-up included)`);
      if (stored < run.acknowledged) throw new Error("acknowledged events missing from the database");
      return run;
    } finally {
      await server.stop();
    }
  } finally {
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
    await admin.end();
  }
}

async function bareRun(): Promise<Run> {
  const child = spawn(process.execPath, [...nodeArgs, path.join(here, "lib/bare-ingest-server.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.once("exit", () => reject(new Error("bare server exited")));
    });
    return await hammer(
      `http://127.0.0.1:${port}/v1/buried/log/info`,
      "bare node:http (parse only)",
      child.pid,
    );
  } finally {
    child.kill("SIGTERM");
  }
}

log(
  `bench:ingest: ${BATCH}-event uploads, ${connections} connections, ${duration} s per run; server Node flags: ${nodeArgs.join(" ") || "none"}`,
);
if (process.env.BENCH_ONLY === "postgres") {
  await postgresRun();
  process.exit(0);
}
const full = await sqliteRun("full");
if (process.env.BENCH_ONLY === "full") process.exit(0);
const normal = await sqliteRun("normal");
const postgres = await postgresRun();
const bare = await bareRun();
const ratio = Math.round((full.eventsPerS / bare.eventsPerS) * 100) / 100;
log(
  `SQLite FULL vs bare: ${ratio}; fsync cost: FULL is ${Math.round((full.eventsPerS / normal.eventsPerS) * 100)} % of NORMAL`,
);
log(`target ${TARGET} events/s durable into SQLite: ${full.eventsPerS >= TARGET ? "ok" : "UNDER TARGET"}`);
if (postgres !== undefined)
  log(
    `target ${TARGET} events/s durable into PostgreSQL: ${postgres.eventsPerS >= TARGET ? "ok" : "UNDER TARGET"}`,
  );
log(
  JSON.stringify({
    sqlite_events_per_s: full.eventsPerS,
    postgres_events_per_s: postgres?.eventsPerS ?? null,
    bare_events_per_s: bare.eventsPerS,
    bare_cpu_us_per_event: bare.cpuUsPerEvent ?? null,
    ratio_sqlite_vs_bare: ratio,
    p99_ms: full.p99,
    sqlite_cpu_us_per_event: full.cpuUsPerEvent ?? null,
    sqlite_normal_events_per_s: normal.eventsPerS,
    postgres_p99_ms: postgres?.p99 ?? null,
    postgres_server_cpu_us_per_event: postgres?.cpuUsPerEvent ?? null,
    postgres_db_cpu_us_per_event: postgres?.databaseCpuUsPerEvent ?? null,
  }),
);
