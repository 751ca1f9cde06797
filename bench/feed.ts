/**
 * bench:feed — the live feed's cost and lag. A local upstream (a Meridian process on the
 * model, MARKET_TICK_MS = 1000 / FEED_RATE, UPSTREAM_BOOK_CHURN so each of its 12 pairs'
 * books changes every tick, published as a `books` update on its Bitget v2 WebSocket) is
 * mirrored by a second Meridian process (`MARKET_FEED=ccxt:bitget`, `MARKET_FEED_URL` at
 * the upstream). A client of the mirror's `/v1/ws/market` subscribes to every pair's
 * depth and records, per push, the lag from the upstream's publish time (the book's
 * `time`) to its arrival. Over FEED_SECONDS it counts:
 * - `upstream_books_per_s`: the book updates the upstream published (counted on a
 *   connection of the bench's own, which gets the same updates as the mirror's);
 * - `book_updates_per_s`: the books the mirror applied (`/v1/market/status`); fewer when
 *   ccxt merged several updates of a pair read at once (the latest one is applied);
 * - `server_cpu_us_per_update`: the mirror's CPU time (/proc) per upstream update, and
 *   `server_cpu_pct` / `upstream_cpu_pct` each process's share of one core.
 * The last line printed is one JSON object.
 * FEED_PROFILE_DIR=<dir> writes the mirror's V8 CPU profile there (`--cpu-prof`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../scripts/lib/server-process.ts";

const RATE = Number(process.env.FEED_RATE ?? 200);
const SECONDS = Number(process.env.FEED_SECONDS ?? 20);
const WARMUP_S = 5;
const PROFILE_DIR = process.env.FEED_PROFILE_DIR;
const ENTRY = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../apps/server/src/test/upstream-exchange.ts",
);
const SYMBOLS = [
  "BTCUSDT",
  "ETHUSDT",
  "XRPUSDT",
  "BNBUSDT",
  "SOLUSDT",
  "DOGEUSDT",
  "TRXUSDT",
  "ADAUSDT",
  "LINKUSDT",
  "AVAXUSDT",
  "TONUSDT",
  "NOTUSDT",
];

async function start(
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, ENTRY], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: "warn", BOT_API_RATE_SCALE: "1000" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /upstream (\S+)/.exec(out);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  return { url, child };
}

/** User + system CPU of a process so far, in microseconds (/proc/<pid>/stat, 100 Hz ticks). */
function cpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function bookUpdates(url: string): Promise<number> {
  const body = (await (await fetch(`${url}/v1/market/status`)).json()) as { data: { bookUpdates: number } };
  return body.data.bookUpdates;
}

const pct = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const upstream = await start({
  MARKET_FEED: "model",
  MARKET_TICK_MS: String(Math.round(1000 / RATE)),
  UPSTREAM_BOOK_CHURN: "true",
});
const mirror = await start(
  {
    MARKET_FEED: "ccxt:bitget",
    MARKET_FEED_URL: upstream.url,
    MARKET_SYMBOLS: SYMBOLS.join(","),
  },
  PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`],
);
const mirrorPid = mirror.child.pid ?? 0;

const lags: number[] = [];
let measuring = false;
const ws = new WebSocket(`${mirror.url.replace("http", "ws")}/v1/ws/market`);
ws.addEventListener("open", () => {
  ws.send(JSON.stringify({ op: "subscribe", args: SYMBOLS.map((s) => `depth@${s}`) }));
});
ws.addEventListener("message", (e) => {
  if (!measuring) return;
  const msg = JSON.parse(String(e.data)) as { stream?: string; data?: { time?: number } };
  if (msg.stream?.startsWith("depth@") && typeof msg.data?.time === "number")
    lags.push(Date.now() - msg.data.time);
});

// What the upstream publishes, counted on a connection of its own (Bitget's v2 books channel).
let published = 0;
const up = new WebSocket(`${upstream.url.replace("http", "ws")}/v2/ws/public`);
up.addEventListener("open", () => {
  up.send(
    JSON.stringify({
      op: "subscribe",
      args: SYMBOLS.map((instId) => ({ instType: "SPOT", channel: "books", instId })),
    }),
  );
});
up.addEventListener("message", (e) => {
  if (measuring && String(e.data).startsWith('{"action":"update"')) published++;
});

await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
measuring = true;
const books0 = await bookUpdates(mirror.url);
const cpu0 = cpuUs(mirrorPid);
const upCpu0 = cpuUs(upstream.child.pid ?? 0);
const t0 = Date.now();
await new Promise((r) => setTimeout(r, SECONDS * 1000));
const elapsed = (Date.now() - t0) / 1000;
const books = (await bookUpdates(mirror.url)) - books0;
const cpu = cpuUs(mirrorPid) - cpu0;
const upCpu = cpuUs(upstream.child.pid ?? 0) - upCpu0;
measuring = false;
ws.close();
up.close();
const exited = new Promise((r) => mirror.child.once("exit", r));
for (const s of [mirror, upstream]) s.child.kill("SIGTERM");
// The profile is written as the mirror exits.
if (PROFILE_DIR !== undefined) await exited;

lags.sort((a, b) => a - b);
const result = {
  symbols: SYMBOLS.length,
  target_rate_per_symbol: RATE,
  seconds: Math.round(elapsed),
  upstream_books_per_s: Math.round(published / elapsed),
  book_updates_per_s: Math.round(books / elapsed),
  feed_lag_p50_ms: pct(lags, 50),
  feed_lag_p99_ms: pct(lags, 99),
  depth_pushes: lags.length,
  server_cpu_us_per_update: published === 0 ? null : Math.round(cpu / published),
  server_cpu_pct: Math.round(cpu / elapsed / 10_000),
  upstream_cpu_pct: Math.round(upCpu / elapsed / 10_000),
};
console.log(JSON.stringify(result));
process.exit(0);
