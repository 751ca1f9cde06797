/**
 * bench:cluster — three server processes on one PostgreSQL schema and one Redis prefix
 * (apps/server/src/test/cluster.ts: every module, the market clock paused so the books
 * only move with the orders): one trading writer, two followers.
 *
 * 1. Followers: CLUSTER_BENCH_RATE orders/s (default 1,000) for CLUSTER_BENCH_SECONDS
 *    (default 10), in turn through each follower, at a fixed arrival rate (open loop,
 *    bench/lib/open-loop.ts: each order is sent when due, whatever the answers before it
 *    are doing, over up to CLUSTER_BENCH_CONNECTIONS keep-alive connections per instance,
 *    default 64), market buys and sells of 0.0001 BTC in turn with their own
 *    clientOrderId: every order goes follower -> Redis -> writer -> commit -> Redis ->
 *    follower. `orders_per_s`: the orders acknowledged per second of the run.
 * 2. Single: the same load straight to the writer instance (same run, same machine):
 *    what one instance answers without forwarding.
 * 3. Failover: CLUSTER_BENCH_KILLS times (default 3) the writer is SIGKILLed while a
 *    client places an order through a follower; the time from the kill to that order's
 *    acknowledgement (the follower resends it with the same clientOrderId to the new
 *    writer), then the killed instance is started again as a follower.
 *
 * Latencies are counted from the moment each order was due, so a backlog (no free
 * connection, a stalled instance or load generator) is in them (coordinated omission). At the
 * end every acknowledged clientOrderId is looked up in the database: `acked_lost` counts
 * those missing. The load generator and the three servers share the machine's cores.
 * DATABASE_URL / REDIS_URL: default the local ones.
 * CLUSTER_NODE_ARGS: Node flags for the instances (`--cpu-prof --cpu-prof-dir=<dir>`; a
 * profiled instance is stopped with SIGTERM so that it writes its profile).
 */

import os from "node:os";
import { Redis } from "ioredis";
import { type Cluster, type ClusterNode, clusterCall, openCluster } from "../apps/server/src/test/cluster.ts";
import { freePort } from "../scripts/lib/server-process.ts";
import { marketOrderBody } from "./lib/market-order.ts";
import { openLoop } from "./lib/open-loop.ts";
import { cpuSecondsIfAny } from "./lib/proc-cpu.ts";

const RATE = Number(process.env.CLUSTER_BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.CLUSTER_BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.CLUSTER_BENCH_WARMUP_SECONDS ?? 3);
const KILLS = Number(process.env.CLUSTER_BENCH_KILLS ?? 3);
const CONNECTIONS = Number(process.env.CLUSTER_BENCH_CONNECTIONS ?? 64);
const databaseUrl = process.env.DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

const pct = (sorted: number[], q: number) =>
  Math.round((sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * q) / 100))] ?? 0) * 100) / 100;
const acked = new Set<string>();

/**
 * CPU seconds used so far by each part of the run (Linux /proc; local PostgreSQL and Redis
 * only): each instance, the PostgreSQL backends serving them (by application_name), the
 * Redis server (shared with whatever else uses it) and this process (the load generator).
 */
async function cpuParts(
  cluster: Cluster,
  nodes: readonly ClusterNode[],
  redisPid: number | undefined,
): Promise<Map<string, number>> {
  const parts = new Map<string, number>();
  for (const node of nodes) parts.set(node.name, cpuSecondsIfAny(node.child.pid ?? 0) ?? 0);
  const backends = await cluster.sql<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE application_name = $1",
    [cluster.schema],
  );
  const pg = new Map<number, number>();
  for (const { pid } of backends) {
    const s = cpuSecondsIfAny(pid);
    if (s !== undefined) pg.set(pid, s);
  }
  parts.set("postgres", 0);
  for (const [pid, s] of pg) parts.set(`pg:${pid}`, s);
  parts.set("redis", redisPid === undefined ? 0 : (cpuSecondsIfAny(redisPid) ?? 0));
  const own = process.cpuUsage();
  parts.set("client", (own.user + own.system) / 1e6);
  return parts;
}

/** CPU ms per order of each part between two `cpuParts` (backends counted when in both). */
function cpuPerOrder(before: Map<string, number>, after: Map<string, number>, orders: number) {
  const out: Record<string, number> = {};
  let postgres = 0;
  for (const [key, s] of after) {
    const was = before.get(key);
    if (was === undefined) continue;
    if (key.startsWith("pg:")) postgres += s - was;
    else if (key !== "postgres") out[key] = s - was;
  }
  out.postgres = postgres;
  let total = 0;
  for (const key of Object.keys(out)) {
    total += out[key] as number;
    out[key] = Math.round(((out[key] as number) * 1e6) / Math.max(1, orders)) / 1000;
  }
  out.total = Math.round((total * 1e6) / Math.max(1, orders)) / 1000;
  return out;
}

/** `rate` orders/s offered to `targets` in turn for `seconds` (open loop). */
function load(targets: ClusterNode[], cookie: string, rate: number, seconds: number, tag: string) {
  return openLoop({
    targets: targets.map((t) => ({
      url: `${t.base}/v1/paper/orders`,
      headers: { "content-type": "application/json", origin: t.base, paptrading: "1", cookie },
    })),
    rate,
    seconds,
    connectionsPerTarget: CONNECTIONS,
    body: (n) => marketOrderBody(n, tag),
    onAnswer: (body) => {
      const m = /"clientOrderId":"([^"]+)"/.exec(body);
      if (!body.startsWith('{"code":"00000"') || m?.[1] === undefined) return false;
      acked.add(m[1]);
      return true;
    },
  });
}

const cluster = await openCluster({ databaseUrl, redisUrl, name: "bcluster" });
try {
  const ports = [await freePort(), await freePort(), await freePort()];
  const nodes: ClusterNode[] = [await cluster.start("a", ports[0] ?? 0, { users: 1 })];
  nodes.push(...(await Promise.all([cluster.start("b", ports[1] ?? 0), cluster.start("c", ports[2] ?? 0)])));
  const cookie = nodes[0]?.cookies[0] ?? "";
  const writer = nodes[0] as ClusterNode;
  const followers = nodes.slice(1);
  console.log(`instances up: ${nodes.map((x) => `${x.name}:${x.port} ${x.startedAs}`).join(", ")}`);
  const first = await clusterCall(followers[0] as ClusterNode, cookie, "POST", "/v1/paper/orders", {
    symbol: "BTCUSDT",
    side: "BUY",
    type: "MARKET",
    quantity: "0.0001",
  });
  if (first.code !== "00000") throw new Error(`first order answered ${first.code} ${first.msg}`);

  if (WARMUP_SECONDS > 0) {
    await load(followers, cookie, RATE, WARMUP_SECONDS, "warm-f");
    await load([writer], cookie, RATE, WARMUP_SECONDS, "warm-s");
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const redisPid = Number(/process_id:(\d+)/.exec(await redis.info("server"))?.[1]) || undefined;
  redis.disconnect();
  const cpu0 = await cpuParts(cluster, nodes, redisPid);
  const f = await load(followers, cookie, RATE, SECONDS, "follower");
  const cpu1 = await cpuParts(cluster, nodes, redisPid);
  const s = await load([writer], cookie, RATE, SECONDS, "single");
  const cpu2 = await cpuParts(cluster, nodes, redisPid);
  const followerCpu = cpuPerOrder(cpu0, cpu1, f.answered);
  const singleCpu = cpuPerOrder(cpu1, cpu2, s.answered);
  const load1 = os.loadavg()[0] ?? 0;
  console.log(
    `followers: ${f.answered} of ${f.sent} answered (${f.failed} not 00000) in ${f.wallS.toFixed(1)} s, at most ${f.maxInFlight} in flight; p50 ${pct(f.latencies, 50)} ms, p99 ${pct(f.latencies, 99)} ms, max ${pct(f.latencies, 100)} ms`,
  );
  console.log(
    `single (the writer instance): ${s.answered} of ${s.sent} answered (${s.failed} not 00000) in ${s.wallS.toFixed(1)} s, at most ${s.maxInFlight} in flight; p50 ${pct(s.latencies, 50)} ms, p99 ${pct(s.latencies, 99)} ms, max ${pct(s.latencies, 100)} ms`,
  );

  const parts = (c: Record<string, number>) =>
    Object.entries(c)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
  console.log(`CPU ms per order, followers run (a writes; b, c forward): ${parts(followerCpu)}`);
  console.log(`CPU ms per order, single run (a takes the orders): ${parts(singleCpu)}`);

  // ---- failover --------------------------------------------------------------------------
  const failovers: number[] = [];
  let current = writer;
  for (let k = 0; k < KILLS; k++) {
    const via = nodes.find((x) => x !== current) as ClusterNode;
    const killedAt = Date.now();
    current.child.kill("SIGKILL");
    await current.exited;
    const cid = `failover-${k}`;
    let r = await clusterCall(via, cookie, "POST", "/v1/paper/orders", {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.0001",
      clientOrderId: cid,
    });
    while (r.code !== "00000" && Date.now() - killedAt < 60_000) {
      r = await clusterCall(via, cookie, "POST", "/v1/paper/orders", {
        symbol: "BTCUSDT",
        side: "BUY",
        type: "MARKET",
        quantity: "0.0001",
        clientOrderId: cid,
      });
    }
    const ms = Date.now() - killedAt;
    if (r.code === "00000") acked.add(cid);
    failovers.push(ms);
    console.log(
      `kill ${k + 1}: ${current.name} SIGKILLed; order through ${via.name} acknowledged after ${ms} ms`,
    );
    const index = nodes.indexOf(current);
    const restarted = await cluster.start(current.name, current.port);
    nodes[index] = restarted;
    const [row] = await cluster.sql<{ holder: string }>("SELECT holder FROM writer_lease WHERE id = 1");
    current = nodes.find((x) => x.instance === row?.holder) ?? (nodes[0] as ClusterNode);
  }
  failovers.sort((a, b) => a - b);

  const ids = [...acked];
  const found = new Set(
    (
      await cluster.sql<{ c: string }>(
        "SELECT client_order_id AS c FROM paper_orders WHERE client_order_id = ANY($1)",
        [ids],
      )
    ).map((r) => r.c),
  );
  const lost = ids.filter((id) => !found.has(id)).length;
  const result = {
    orders_per_s: Math.round((f.answered - f.failed) / f.wallS),
    single_orders_per_s: Math.round((s.answered - s.failed) / s.wallS),
    follower_p50_ms: pct(f.latencies, 50),
    follower_p99_ms: pct(f.latencies, 99),
    single_p50_ms: pct(s.latencies, 50),
    single_p99_ms: pct(s.latencies, 99),
    follower_cpu_ms_per_order: followerCpu.total,
    single_cpu_ms_per_order: singleCpu.total,
    p99_ratio: Math.round((pct(f.latencies, 99) / Math.max(0.01, pct(s.latencies, 99))) * 100) / 100,
    failover_ms: failovers[Math.floor(failovers.length / 2)] ?? null,
    failover_all_ms: failovers,
    acked: ids.length,
    acked_lost: lost,
    rate: RATE,
    connections: CONNECTIONS,
    cores: os.availableParallelism(),
    load1: Math.round(load1 * 100) / 100,
  };
  console.log(JSON.stringify(result));
} finally {
  await cluster.stop();
}
