import { PaperCode } from "@meridian/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { bitgetClient } from "../../test/bitget-client.ts";
import { type Cluster, type ClusterNode, clusterCall, openCluster } from "../../test/cluster.ts";
import { freePorts } from "../../test/ports.ts";

/**
 * Three server processes on one PostgreSQL schema and one Redis prefix, checked in the
 * spirit of Jepsen's bank test (docs/architecture.md, "Several instances"): three users
 * place, cancel and transfer round-robin through every live instance while each
 * instance's `/v1/ws/user` sockets record the fills; the writer is SIGKILLed mid-stream,
 * then the new writer too; then a writer is stopped (SIGSTOP) past its lease, replaced,
 * and resumed (SIGCONT). Afterwards the database and every instance must agree.
 *
 * Instance c never takes the lease (WRITER_CANDIDATE=0), so its sockets live through
 * the whole run and must have seen every fill.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const SYMBOL = "BTCUSDT";

interface Socket {
  fills: Map<number, Set<number>>;
  close(): void;
}

/** `/v1/ws/user` of each user on `node`, recording the trade ids of the fills it pushes. */
async function record(node: ClusterNode, cookies: string[]): Promise<Socket> {
  const fills = new Map<number, Set<number>>();
  const sockets: WebSocket[] = [];
  await Promise.all(
    cookies.map(
      (cookie, user) =>
        new Promise<void>((resolve, reject) => {
          const seen = new Set<number>();
          fills.set(user, seen);
          // Node's WebSocket (undici) takes headers: the session cookie, as a browser sends it.
          const ws = new WebSocket(`${node.base.replace("http", "ws")}/v1/ws/user`, {
            headers: { cookie, origin: node.base },
          } as unknown as string[]);
          sockets.push(ws);
          ws.onmessage = (m) => {
            const push = JSON.parse(String(m.data)) as { event: string; data: { tradeId?: number } };
            if (push.event === "balance") resolve();
            if (push.event === "fill" && push.data.tradeId !== undefined) seen.add(push.data.tradeId);
          };
          ws.onerror = () => reject(new Error(`socket to ${node.name} failed`));
        }),
    ),
  );
  return {
    fills,
    close: () => {
      for (const s of sockets) s.close();
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Places orders with `place` until `watching` (a ccxt.pro watch started before) resolves:
 * the watch's subscription is set up asynchronously, and an order placed before it is in
 * place is never pushed to it. Answers the first placed order's id and what the watch saw.
 */
async function placeUntilWatched<T extends { id?: string | undefined }>(
  watching: Promise<T[]>,
  place: () => Promise<{ id?: string | undefined }>,
): Promise<{ id: string | undefined; seen: T[] }> {
  let seen: T[] | undefined;
  void watching.then((orders) => {
    seen = orders;
  });
  const ids: (string | undefined)[] = [];
  for (let i = 0; seen === undefined && i < 30; i++) {
    ids.push((await place()).id);
    for (let waited = 0; seen === undefined && waited < 1_000; waited += 20) await sleep(20);
  }
  const got = seen ?? (await watching);
  return { id: ids.find((id) => got.some((o) => o.id === id)) ?? ids[0], seen: got };
}

describe.skipIf(pgUrl === undefined || redisUrl === undefined)("three instances, one writer", () => {
  let cluster: Cluster;
  afterAll(async () => {
    await cluster?.stop();
  });

  it("keeps every acknowledged command exactly once through two kills and a stopped writer", async () => {
    cluster = await openCluster({ databaseUrl: pgUrl ?? "", redisUrl: redisUrl ?? "", name: "wcluster" });
    // a first (it migrates and takes the lease), then b and c at once.
    const nodes = new Map<string, ClusterNode>();
    // Free ports, not fixed ones: another run on the machine may hold any fixed one. Each
    // instance restarts on its own port.
    const [portA = 0, portB = 0, portC = 0] = await freePorts(3);
    nodes.set("a", await cluster.start("a", portA, { users: 3 }));
    const [b, c] = await Promise.all([
      cluster.start("b", portB),
      cluster.start("c", portC, { env: { WRITER_CANDIDATE: "0" } }),
    ]);
    nodes.set("b", b);
    nodes.set("c", c);
    const a = nodes.get("a") as ClusterNode;
    expect(a.startedAs).toBe("writer");
    expect(b.startedAs).toBe("follower");
    const cookies = a.cookies;
    const sockets = new Map<string, Socket>();
    for (const n of nodes.values()) sockets.set(n.name, await record(n, cookies));

    const down = new Set<string>();
    const live = () => [...nodes.values()].filter((n) => !down.has(n.name));
    const writerNode = async () => {
      const [row] = await cluster.sql<{ holder: string | null }>(
        "SELECT holder FROM writer_lease WHERE id = 1",
      );
      return [...nodes.values()].find((n) => n.instance === row?.holder && !down.has(n.name));
    };

    // ---- the workload --------------------------------------------------------------------
    const acked = new Map<string, { user: number; id: number }>(); // clientOrderId -> order
    const cancelled = new Set<string>();
    const transfers = cookies.map(() => ({ acked: 0, unknown: 0 }));
    const retryable: string[] = [];
    let lastAck = 0;
    let rr = 0;
    let running = true;
    const pick = () => {
      const l = live();
      return l[rr++ % l.length] as ClusterNode;
    };
    const isRetry = (code: string) =>
      code === PaperCode.WRITER_UNAVAILABLE || code === "NET" || code === "10503";

    /** A placement: sent again with the same clientOrderId (to the next instance) until answered. */
    const place = async (user: number, cid: string, body: Record<string, unknown>) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const r = await clusterCall<{ order: { orderId: number } }>(
          pick(),
          cookies[user] ?? "",
          "POST",
          "/v1/paper/orders",
          {
            symbol: SYMBOL,
            clientOrderId: cid,
            ...body,
          },
        );
        if (r.code === "00000") {
          acked.set(cid, { user, id: r.data.order.orderId });
          lastAck = Date.now();
          return true;
        }
        if (!isRetry(r.code) || Date.now() > deadline) return false;
        retryable.push(r.code);
        await sleep(100);
      }
    };
    const worker = async (user: number) => {
      const resting: string[] = [];
      for (let i = 0; running; i++) {
        const cid = `u${user}-${i}`;
        const step = i % 5;
        if (step === 0 || step === 3) {
          // At most 100 resting per user: a fast run stays under the 200-open-orders limit
          // that the bot steps below need room in.
          if (
            resting.length < 100 &&
            (await place(user, cid, { side: "BUY", type: "LIMIT", price: "50000", quantity: "0.001" }))
          )
            resting.push(cid);
        } else if (step === 1) {
          await place(user, cid, { side: "BUY", type: "MARKET", quantity: "0.0002" });
        } else if (step === 2) {
          await place(user, cid, { side: "SELL", type: "MARKET", quantity: "0.0002" });
        } else if (resting.length > 0 && i % 2 === 0) {
          const target = resting.shift() as string;
          for (let attempt = 0; attempt < 100; attempt++) {
            const r = await clusterCall(
              pick(),
              cookies[user] ?? "",
              "DELETE",
              `/v1/paper/orders/client/${target}`,
            );
            // After an unanswered attempt, "not open" means that attempt cancelled it.
            if (r.code === "00000" || (attempt > 0 && r.code === PaperCode.ORDER_NOT_OPEN)) {
              cancelled.add(target);
              lastAck = Date.now();
              break;
            }
            if (!isRetry(r.code)) break;
            retryable.push(r.code);
            await sleep(100);
          }
        } else {
          // Sent again with the same clientTransferId (to the next instance) until answered.
          const t = transfers[user] as { acked: number; unknown: number };
          const deadline = Date.now() + 30_000;
          for (;;) {
            const r = await clusterCall(pick(), cookies[user] ?? "", "POST", "/v1/paper/asset/transfer", {
              from: "SPOT",
              to: "CROSS_MARGIN",
              asset: "USDT",
              amount: "1",
              clientTransferId: cid,
            });
            if (r.code === "00000") {
              t.acked++;
              lastAck = Date.now();
              break;
            }
            if (!isRetry(r.code)) break;
            if (Date.now() > deadline) {
              t.unknown++;
              break;
            }
            retryable.push(r.code);
            await sleep(100);
          }
        }
      }
    };
    const workers = Promise.all(cookies.map((_c, user) => worker(user)));

    /** SIGKILLs the writer; the time until the next command is acknowledged. */
    const killWriter = async () => {
      const w = await writerNode();
      if (w === undefined) throw new Error("no writer to kill");
      down.add(w.name);
      sockets.get(w.name)?.close();
      const at = Date.now();
      w.child.kill("SIGKILL");
      await w.exited;
      while (lastAck < at + 1 && Date.now() - at < 30_000) await sleep(20);
      return { name: w.name, recoverMs: lastAck - at };
    };

    /** Starts a killed instance again: it comes back as a follower while the load runs. */
    const restart = async (name: string) => {
      const n = await cluster.start(name, (nodes.get(name) as ClusterNode).port);
      expect(n.startedAs).toBe("follower");
      nodes.set(name, n);
      down.delete(name);
      sockets.set(name, await record(n, cookies));
    };

    // Each phase runs until the load has made progress (a count of acknowledged orders),
    // not for a time: a loaded machine acknowledges fewer per second.
    const untilAcked = async (more: number) => {
      const want = acked.size + more;
      const deadline = Date.now() + 60_000;
      while (acked.size < want) {
        if (Date.now() > deadline) throw new Error(`${acked.size} of ${want} orders acknowledged in 60 s`);
        await sleep(20);
      }
    };
    await untilAcked(30);
    const first = await killWriter();
    await restart(first.name);
    await untilAcked(10);
    const second = await killWriter();
    expect(second.name).not.toBe(first.name);
    await restart(second.name);
    await untilAcked(10);

    // ---- a writer stopped past its lease, replaced, resumed ------------------------------
    const stopped = await writerNode();
    if (stopped === undefined) throw new Error("no writer to stop");
    down.add(stopped.name);
    const stoppedAt = Date.now();
    stopped.child.kill("SIGSTOP");
    // A command that reaches the stopped writer directly: it may only be answered by a
    // refusal, or (once it is deposed and forwards) by the new writer.
    const direct = clusterCall(stopped, cookies[0] ?? "", "POST", "/v1/paper/orders", {
      symbol: SYMBOL,
      clientOrderId: "direct-to-stopped",
      side: "BUY",
      type: "LIMIT",
      price: "50000",
      quantity: "0.001",
    });
    let replacement: ClusterNode | undefined;
    while (Date.now() - stoppedAt < 30_000) {
      replacement = await writerNode();
      if (replacement !== undefined && replacement.name !== stopped.name) break;
      await sleep(100);
    }
    expect(replacement?.name).not.toBe(stopped.name);
    while (lastAck < Date.now() - 50) await sleep(20);
    stopped.child.kill("SIGCONT");
    const exitCode = await Promise.race([stopped.exited, sleep(20_000).then(() => "still running")]);
    sockets.get(stopped.name)?.close();
    const directAnswer = await direct;
    await untilAcked(10);
    running = false;
    await workers;

    // Views of the writer's memory answer the same through a follower as on the writer.
    const writerNow = (await writerNode()) as ClusterNode;
    const moved = await clusterCall(c, cookies[0] ?? "", "POST", "/v1/paper/asset/transfer", {
      from: "SPOT",
      to: "FUTURES",
      asset: "USDT",
      amount: "100",
    });
    expect(moved.code).toBe("00000");
    for (const path of ["/v1/paper/futures/account", "/v1/paper/margin/account?mode=cross"]) {
      const [viaFollower, onWriter] = await Promise.all(
        [c, writerNow].map(async (n) => {
          const r = await clusterCall<Record<string, unknown>>(n, cookies[0] ?? "", "GET", path);
          expect(r.code, path).toBe("00000");
          const { time: _t, ...view } = r.data;
          return view;
        }),
      );
      expect(viaFollower, path).toEqual(onWriter);
    }

    // A bot on the observer instance (REST through another instance, private stream on
    // this one) sees its orders and its futures position as they are placed.
    const key = await clusterCall<{ apiKey: string; secret: string }>(
      c,
      cookies[1] ?? "",
      "POST",
      "/v1/user/api-keys",
      {
        label: "bot",
        permissions: ["read", "spot_trade", "futures_trade", "transfer"],
        passphrase: "Passphrase123",
        ips: [],
      },
    );
    expect(key.code).toBe("00000");
    const creds = { ...key.data, passphrase: "Passphrase123" };
    const watcher = await bitgetClient(c.base, creds);
    const trader = await bitgetClient((live().find((n) => n !== c) as ClusterNode).base, creds);
    try {
      const placed = await placeUntilWatched(watcher.watchOrders("BTC/USDT"), () =>
        trader.createOrder("BTC/USDT", "limit", "buy", 0.001, 50_000),
      );
      expect(placed.seen.map((o) => o.id)).toContain(placed.id);
      await trader.transfer("USDT", 500, "spot", "swap");
      await watcher.watchPositions(["BTC/USDT:USDT"]);
      // Pushes from another instance arrive when they arrive (the transfer's may come
      // after the subscription's snapshot): watch until the short shows.
      const short = (async () => {
        for (let i = 0; i < 20; i++) {
          const found = (await watcher.watchPositions(["BTC/USDT:USDT"])).find((p) => p.side === "short");
          if (found !== undefined) return found;
        }
        return undefined;
      })();
      await trader.createOrder("BTC/USDT:USDT", "market", "sell", 0.01);
      expect(await short).toMatchObject({ contracts: 0.01 });

      // Margin on the observer (never the writer): the account views come over the bus,
      // the MARGIN channels from the writer's user stream (it carries margin's pushes).
      await trader.transfer("USDT", 200, "spot", "cross");
      // user 1's margin transfers, counted below, include this acknowledged one
      (transfers[1] as { acked: number }).acked++;
      const view = await clusterCall<{ assets: { asset: string; free: string; locked: string }[] }>(
        c,
        cookies[1] ?? "",
        "GET",
        "/v1/paper/margin/account?mode=cross",
      );
      const usdt = view.data.assets.find((x) => x.asset === "USDT");
      const balance = await watcher.fetchBalance({ marginMode: "cross" });
      expect(balance.USDT?.total).toBe(Number(usdt?.free) + Number(usdt?.locked));
      expect(balance.USDT?.total).toBeGreaterThanOrEqual(200);
      const cross = await placeUntilWatched(
        watcher.watchOrders("BTC/USDT", undefined, undefined, { marginMode: "cross" }),
        () => trader.createOrder("BTC/USDT", "limit", "buy", 0.001, 50_000, { marginMode: "cross" }),
      );
      expect(cross.seen.map((o) => o.id)).toContain(cross.id);
    } finally {
      await watcher.close();
      await trader.close();
    }

    // ---- the checker -----------------------------------------------------------------------
    console.log(
      `cluster: kills ${first.name} ${first.recoverMs} ms, ${second.name} ${second.recoverMs} ms to the next ack; ` +
        `${acked.size} orders acked, ${cancelled.size} cancels, transfers ${JSON.stringify(transfers)}, ` +
        `${retryable.length} retryable answers; stopped writer exited ${exitCode}, its direct order: ${directAnswer.code}`,
    );
    expect(exitCode).toBe(70);
    expect(acked.size).toBeGreaterThan(30);
    expect(first.recoverMs).toBeLessThan(30_000);
    expect(second.recoverMs).toBeLessThan(30_000);

    const accounts = await cluster.sql<{ id: string; user_id: string }>(
      "SELECT id, user_id FROM paper_accounts",
    );
    const orders = await cluster.sql<{
      id: string;
      account_id: string;
      client_order_id: string;
      status: string;
      qty_lots: string;
      filled_lots: string;
    }>("SELECT id, account_id, client_order_id, status, qty_lots, filled_lots FROM paper_orders");
    const byCid = new Map(orders.map((o) => [o.client_order_id, o]));
    // Every acknowledged placement is stored once, under the id it was acknowledged with.
    for (const [cid, a] of acked) expect(Number(byCid.get(cid)?.id), cid).toBe(a.id);
    // The stopped writer's direct order: acknowledged only if it is stored.
    if (directAnswer.code === "00000") expect(byCid.has("direct-to-stopped")).toBe(true);
    else expect(["NET", PaperCode.WRITER_UNAVAILABLE, "10503"]).toContain(directAnswer.code);
    for (const cid of cancelled) expect(byCid.get(cid)?.status, cid).toBe("CANCELED");
    // Transfers: every acknowledged one is recorded once (retries carry its client id),
    // and no more than were sent.
    const records = await cluster.sql<{ account_id: string; n: string }>(
      "SELECT account_id, COUNT(*) AS n FROM margin_records WHERE type = 'TRANSFER_IN' GROUP BY account_id",
    );
    const accountOf = (user: number) => {
      const id = [...acked.values()].find((v) => v.user === user)?.id;
      return orders.find((o) => Number(o.id) === id)?.account_id;
    };
    cookies.forEach((_c, user) => {
      const n = Number(records.find((r) => r.account_id === accountOf(user))?.n ?? 0);
      const t = transfers[user] as { acked: number; unknown: number };
      expect(n).toBeGreaterThanOrEqual(t.acked);
      expect(n).toBeLessThanOrEqual(t.acked + t.unknown);
    });
    // Balances are the journal replayed; every asset sums to zero.
    const drift = await cluster.sql(
      `SELECT b.account, b.asset FROM paper_balances b
       FULL JOIN (SELECT account, asset, SUM(amount) AS amount FROM paper_postings GROUP BY account, asset) j
       ON j.account = b.account AND j.asset = b.asset
       WHERE COALESCE(b.amount, 0) <> COALESCE(j.amount, 0)`,
    );
    expect(drift).toEqual([]);
    const sums = await cluster.sql(
      "SELECT asset, SUM(amount) AS total FROM paper_balances GROUP BY asset HAVING SUM(amount) <> 0",
    );
    expect(sums).toEqual([]);
    // No fill twice: each order's trades add up to what it filled, never past its quantity.
    const overfilled = await cluster.sql(
      `SELECT o.id FROM paper_orders o LEFT JOIN
         (SELECT order_id, SUM(qty_lots) AS lots FROM paper_trades GROUP BY order_id) t ON t.order_id = o.id
       WHERE COALESCE(t.lots, 0) <> o.filled_lots OR o.filled_lots > o.qty_lots`,
    );
    expect(overfilled).toEqual([]);

    // Every live instance serves the same open orders and the same book.
    const survivors = live();
    expect(survivors.length).toBe(2);
    // Followers hear the writer's commits and books (published every 100 ms) over Redis:
    // polled until they agree, however long the machine takes to deliver.
    const agree = { timeout: 30_000, interval: 100 };
    for (const cookie of cookies) {
      const views = () =>
        Promise.all(
          survivors.map(
            async (n) =>
              (await clusterCall<unknown[]>(n, cookie, "GET", "/v1/paper/orders/open?limit=100")).data,
          ),
        );
      await expect
        .poll(async () => new Set((await views()).map((v) => JSON.stringify(v))).size, agree)
        .toBe(1);
    }
    const books = () =>
      Promise.all(
        survivors.map(async (n) => {
          const d = (
            await clusterCall<{ bids: unknown[]; asks: unknown[] }>(
              n,
              "",
              "GET",
              `/v1/market/depth?symbol=${SYMBOL}&limit=100`,
            )
          ).data;
          return JSON.stringify({ bids: d.bids, asks: d.asks });
        }),
      );
    await expect.poll(async () => new Set(await books()).size, agree).toBe(1);
    expect((await books())[0]).toContain('"50000.00"');

    // Instance c's sockets lived through everything: they saw every fill of their user;
    // no socket anywhere saw a fill that is not stored.
    const trades = await cluster.sql<{ id: string; account_id: string }>(
      "SELECT id, account_id FROM paper_trades",
    );
    const stored = new Set(trades.map((t) => Number(t.id)));
    const observer = sockets.get("c") as Socket;
    for (const [user] of cookies.entries()) {
      const account = accountOf(user);
      const mine = trades.filter((t) => t.account_id === account).map((t) => Number(t.id));
      expect(mine.length).toBeGreaterThan(0);
      // Pushed right after each commit; the last ones may still be on their way.
      await expect.poll(() => [...(observer.fills.get(user) ?? [])].sort(), agree).toEqual(mine.sort());
    }
    for (const s of sockets.values())
      for (const seen of s.fills.values()) for (const id of seen) expect(stored.has(id)).toBe(true);
    expect(accounts.length).toBeGreaterThanOrEqual(3);
    for (const s of sockets.values()) s.close();
  }, 300_000);
});
