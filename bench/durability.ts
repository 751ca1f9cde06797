/**
 * bench:durability — what a durable commit costs on the main SQLite database, per
 * `SQLITE_SYNCHRONOUS` mode (apps/server/src/platform/db/sqlite.ts): NORMAL (not durable
 * on power loss, the old default), FULL (SQLite fsyncs the WAL inside each COMMIT, on the
 * event loop) and GROUP (the default: the WAL is fdatasync'd on the thread pool before the
 * commit resolves, one sync shared by the commits made meanwhile).
 *
 * Each mode gets a fresh file in a temporary directory (on the same disk as DATA_DIR
 * would be unless DURABILITY_BENCH_DIR says otherwise) and runs DURABILITY_BENCH_COMMITS
 * (default 400) single-order transactions, DURABILITY_BENCH_CONCURRENCY (default 10) in
 * flight at once, as ten connections placing orders would. Printed per mode: commits/s,
 * commit latency p50/p99, and the event loop's longest stall while they ran (what every
 * other request on the server waits behind). The last line is one JSON object.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSqlite } from "../apps/server/src/platform/db/sqlite.ts";

const COMMITS = Number(process.env.DURABILITY_BENCH_COMMITS ?? 400);
const CONCURRENCY = Number(process.env.DURABILITY_BENCH_CONCURRENCY ?? 10);
const MODES = (process.env.DURABILITY_BENCH_MODES ?? "normal,full,group")
  .split(",")
  .filter((m): m is "normal" | "full" | "group" => m === "normal" || m === "full" || m === "group");
const root = fs.mkdtempSync(
  path.join(process.env.DURABILITY_BENCH_DIR ?? os.tmpdir(), "meridian-bench-durability-"),
);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(mode: "normal" | "full" | "group") {
  const db = openSqlite(path.join(root, mode, "meridian.db"), { synchronous: mode });
  await db.run(
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, account TEXT NOT NULL, qty TEXT NOT NULL, created_at INTEGER NOT NULL)",
  );
  await db.run(
    "CREATE TABLE ledger (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, amount TEXT NOT NULL)",
  );
  const latencies: number[] = [];
  let next = 0;
  // The longest gap between ticks of a 1 ms timer: how long other requests would wait.
  // (A run whose commits never yield to the event loop is one gap from start to end.)
  let lastTick = performance.now();
  let stall = 0;
  const ticker = setInterval(() => {
    const t = performance.now();
    stall = Math.max(stall, t - lastTick);
    lastTick = t;
  }, 1);
  const started = performance.now();
  const worker = async () => {
    while (next < COMMITS) {
      const id = next++;
      const t0 = performance.now();
      await db.transaction(async (tx) => {
        await tx.run("INSERT INTO orders (id, account, qty, created_at) VALUES (?, ?, ?, ?)", [
          id,
          `acct-${id % 50}`,
          "0.0001",
          Date.now(),
        ]);
        await tx.run("INSERT INTO ledger (order_id, amount) VALUES (?, ?)", [id, "-6.5"]);
        await tx.run("INSERT INTO ledger (order_id, amount) VALUES (?, ?)", [id, "0.0001"]);
      });
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  stall = Math.max(stall, ended - lastTick);
  clearInterval(ticker);
  await db.close();
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    commits_per_s: Math.round(COMMITS / seconds),
    commit_p50_ms: round(percentile(latencies, 50)),
    commit_p99_ms: round(percentile(latencies, 99)),
    loop_max_ms: round(stall),
  };
}

// The WAL checkpointer's thread is unref'd: while db.close() waits for it to exit,
// nothing else would keep this script's event loop alive.
const keepAlive = setInterval(() => {}, 1000);
try {
  const out: Record<string, number> = {};
  for (const mode of MODES) {
    const r = await run(mode);
    console.log(
      `${mode.padEnd(6)} ${r.commits_per_s} commits/s, p50 ${r.commit_p50_ms} ms, p99 ${r.commit_p99_ms} ms, longest loop stall ${r.loop_max_ms} ms`,
    );
    for (const [k, v] of Object.entries(r)) out[`${mode}_${k}`] = v;
  }
  out.load1 = Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
  console.log(JSON.stringify(out));
} finally {
  clearInterval(keepAlive);
  fs.rmSync(root, { recursive: true, force: true });
}
