import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { heldOf } from "@meridian/domain";
import { afterAll, describe, expect, it } from "vitest";
import { openSqlite } from "../../platform/db/sqlite.ts";
import { freePort } from "../../test/ports.ts";
import { createLedgerWriter } from "../ledger/index.ts";

const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../test/paper-server.ts");
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

/** The real server (full module list, market feed running) as a child process on `dir`. */
async function serve(dir: string): Promise<{ child: ChildProcess; url: string; cookie: string }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    DATA_DIR: dir,
    PORT: String(port),
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [entry], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let out = "";
  const cookie = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not ready: ${out}`)), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /"cookie":"([^"]+)"/.exec(out);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, cookie };
}

describe("crash safety", () => {
  it("keeps every acknowledged order and a consistent ledger across a SIGKILL mid-stream", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paper-crash-"));
    try {
      const s1 = await serve(dir);
      const headers = {
        origin: s1.url,
        "content-type": "application/json",
        paptrading: "1",
        cookie: s1.cookie,
      };
      const depth = (await (await fetch(`${s1.url}/v1/market/depth?symbol=BTCUSDT&limit=1`)).json()) as {
        data: { bids: [string, string][]; asks: [string, string][] };
      };
      const bid = Number(depth.data.bids[0]?.[0] ?? "90000");
      const ask = Number(depth.data.asks[0]?.[0] ?? "90000");
      const acked = new Map<string, number>();
      // The crash comes after a count of acknowledged orders, not after a time: a loaded
      // machine acknowledges fewer per second, and the check needs enough of them.
      const crashAfter = 40;
      let reachedCount: () => void = () => {};
      const reached = new Promise<void>((resolve) => {
        reachedCount = resolve;
      });
      let stopped = false;
      const worker = async (w: number) => {
        for (let i = 0; !stopped; i++) {
          const clientOrderId = `c-${w}-${i}`;
          const kind = i % 4;
          const body =
            kind === 0
              ? { side: "BUY", type: "LIMIT", price: (bid - 5 - (i % 50)).toFixed(2), quantity: "0.001" }
              : kind === 1
                ? { side: "SELL", type: "LIMIT", price: (bid - 20).toFixed(2), quantity: "0.001" }
                : kind === 2
                  ? { side: "BUY", type: "MARKET", quantity: "0.001" }
                  : {
                      side: "SELL",
                      type: "LIMIT",
                      price: (ask + 5 + (i % 50)).toFixed(2),
                      quantity: "0.001",
                    };
          try {
            const res = await fetch(`${s1.url}/v1/paper/orders`, {
              method: "POST",
              headers,
              body: JSON.stringify({ symbol: "BTCUSDT", clientOrderId, ...body }),
            });
            const json = (await res.json()) as { code: string; data: { order: { orderId: number } } };
            if (json.code === "00000") acked.set(clientOrderId, json.data.order.orderId);
            if (acked.size >= crashAfter) reachedCount();
          } catch {
            return;
          }
        }
      };
      const workers = [0, 1, 2, 3].map(worker);
      await Promise.race([reached, Promise.all(workers)]);
      // Orders still in flight at the kill are the point: some acknowledged in the same
      // group commit, some lost before theirs.
      s1.child.kill("SIGKILL");
      stopped = true;
      await Promise.all(workers);
      expect(acked.size).toBeGreaterThanOrEqual(crashAfter);

      const s2 = await serve(dir);
      const open = await fetch(`${s2.url}/v1/paper/orders/open?limit=500`, {
        headers: { ...headers, origin: s2.url, cookie: s2.cookie },
      });
      expect(((await open.json()) as { code: string }).code).toBe("00000");
      s2.child.kill("SIGTERM");
      await new Promise((r) => s2.child.once("exit", r));

      const db = openSqlite(path.join(dir, "meridian.db"));
      try {
        const rows = await db.all<{ id: number; client_order_id: string }>(
          "SELECT id, client_order_id FROM paper_orders",
        );
        const stored = new Map(rows.map((r) => [r.client_order_id, Number(r.id)]));
        for (const [cid, id] of acked) expect(stored.get(cid)).toBe(id);

        const ledger = createLedgerWriter({ db, fence: null });
        const audit = await ledger.audit();
        expect(audit.replayEqualsBalances).toBe(true);
        for (const sum of Object.values(audit.assetSums)) expect(sum).toBe("0");
        // What users hold equals what their open orders hold.
        const held = await db.all<{ account_id: number; side: number; held: string }>(
          "SELECT account_id, side, CAST(held AS TEXT) AS held FROM paper_orders WHERE status IN ('NEW', 'PARTIALLY_FILLED')",
        );
        const want = new Map<string, bigint>();
        for (const h of held) {
          const key = `${heldOf(Number(h.account_id))}\u0000${Number(h.side) === 0 ? "USDT" : "BTC"}`;
          want.set(key, (want.get(key) ?? 0n) + BigInt(h.held));
        }
        for (const b of await ledger.repo.balanceRows()) {
          if (b.account.endsWith(":held"))
            expect(b.amount).toBe(want.get(`${b.account}\u0000${b.asset}`) ?? 0n);
        }
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
