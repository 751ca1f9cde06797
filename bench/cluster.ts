/**
 * bench:cluster — three server processes on one PostgreSQL schema and one Redis prefix
 * (apps/server/src/test/cluster.ts: every module, the market clock paused so the books
 * only move with the orders): one trading writer, two followers.
 *
 * 1. Followers: autocannon places CLUSTER_BENCH_RATE orders/s (default 1,000) for
 *    CLUSTER_BENCH_SECONDS (default 10), half through each follower
 *    (CLUSTER_BENCH_CONNECTIONS, default 10, split between them: each has one order in
 *    flight, so when answers take longer than connections/rate seconds the rate reached
 *    is below the rate offered: `orders_per_s`), market buys and sells of 0.0001 BTC in turn with their own clientOrderId:
 *    every order goes follower -> Redis -> writer -> commit -> Redis -> follower.
 * 2. Single: the same load straight to the writer instance (same run, same machine):
 *    what one instance answers without forwarding.
 * 3. Failover: CLUSTER_BENCH_KILLS times (default 3) the writer is SIGKILLed while a
 *    client places an order through a follower; the time from the kill to that order's
 *    acknowledgement (the follower resends it with the same clientOrderId to the new
 *    writer), then the killed instance is started again as a follower.
 *
 * Latencies are each answer's own time (not corrected for coordinated omission). At the
 * end every acknowledged clientOrderId is looked up in the database: `acked_lost` counts
 * those missing. The load generator and the three servers share the machine's cores.
 * DATABASE_URL / REDIS_URL: default the local ones.
 */
import net from "node:net";
import os from "node:os";
import autocannon from "autocannon";
import { type ClusterNode, clusterCall, openCluster } from "../apps/server/src/test/cluster.ts";
import { marketOrderBody } from "./lib/market-order.ts";

const RATE = Number(process.env.CLUSTER_BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.CLUSTER_BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.CLUSTER_BENCH_WARMUP_SECONDS ?? 3);
const KILLS = Number(process.env.CLUSTER_BENCH_KILLS ?? 3);
const CONNECTIONS = Number(process.env.CLUSTER_BENCH_CONNECTIONS ?? 10);
const databaseUrl = process.env.DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

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

const pct = (sorted: number[], q: number) =>
  Math.round((sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * q) / 100))] ?? 0) * 100) / 100;
const acked = new Set<string>();
let n = 0;

/** `rate` orders/s spread over `targets` for `seconds`; each answer's latency. */
async function load(
  targets: ClusterNode[],
  cookie: string,
  rate: number,
  seconds: number,
  tag: string,
): Promise<{ latencies: number[]; answered: number; failed: number }> {
  const latencies: number[] = [];
  let failed = 0;
  let answered = 0;
  await Promise.all(
    targets.map(
      (t) =>
        new Promise<void>((resolve, reject) => {
          const instance = autocannon(
            {
              url: `${t.base}/v1/paper/orders`,
              connections: Math.max(1, Math.round(CONNECTIONS / targets.length)),
              overallRate: Math.round(rate / targets.length),
              duration: seconds,
              requests: [
                {
                  method: "POST",
                  headers: { "content-type": "application/json", origin: t.base, paptrading: "1", cookie },
                  setupRequest: (req) => {
                    n++;
                    return {
                      ...req,
                      body: marketOrderBody(n, tag),
                    };
                  },
                  onResponse: (_status, body) => {
                    answered++;
                    const m = /"clientOrderId":"([^"]+)"/.exec(body);
                    if (body.startsWith('{"code":"00000"') && m?.[1] !== undefined) acked.add(m[1]);
                    else failed++;
                  },
                },
              ],
            },
            (error) => (error ? reject(error) : resolve()),
          );
          instance.on("response", (_c, _s, _b, ms: number) => latencies.push(ms));
        }),
    ),
  );
  latencies.sort((a, b) => a - b);
  return { latencies, answered, failed };
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
  const startedAt = Date.now();
  const f = await load(followers, cookie, RATE, SECONDS, "follower");
  const followerWall = (Date.now() - startedAt) / 1000;
  const s = await load([writer], cookie, RATE, SECONDS, "single");
  const load1 = os.loadavg()[0] ?? 0;
  console.log(
    `followers: ${f.answered} answered (${f.failed} not 00000) in ${followerWall.toFixed(1)} s; p50 ${pct(f.latencies, 50)} ms, p99 ${pct(f.latencies, 99)} ms, max ${pct(f.latencies, 100)} ms`,
  );
  console.log(
    `single (the writer instance): ${s.answered} answered (${s.failed} not 00000); p50 ${pct(s.latencies, 50)} ms, p99 ${pct(s.latencies, 99)} ms, max ${pct(s.latencies, 100)} ms`,
  );

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
    orders_per_s: Math.round(f.answered / followerWall),
    follower_p50_ms: pct(f.latencies, 50),
    follower_p99_ms: pct(f.latencies, 99),
    single_p50_ms: pct(s.latencies, 50),
    single_p99_ms: pct(s.latencies, 99),
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
