import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type ClosedPositionRecord,
  Code,
  FuturesCode,
  type FuturesOrder,
  type FuturesOrderDetail,
  POR_SNAPSHOT_INTERVAL_MS,
  PorCode,
  type PorProofView,
  type PorSummary,
  type StatementPage,
} from "@meridian/contracts";
import { verifyPorProof } from "@meridian/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/index.ts";
import { type DbTarget, reopenableDbTargets } from "../../test/db-targets.ts";
import {
  paperCall as call,
  makerQuote,
  PAPER_HEADERS,
  type PaperTestApp,
  paperTestApp,
} from "../../test/paper.ts";
import type { FuturesService } from "../futures/index.ts";
import { LocalVenue } from "../paper/index.ts";
import { verifierScript } from "./verifier.ts";

/**
 * What the issue-19 pages read: the statement (/transac), a futures order with its fills
 * and the position history (/order/mcp, /record/mcp), and proof of reserves.
 */
const targets = reopenableDbTargets("pages");

interface Running extends PaperTestApp {
  futures: FuturesService;
}

async function start(db: PlatformDb): Promise<Running> {
  return paperTestApp(db, {
    venue: new LocalVenue({ ladder: false }),
    core: { futures: { testMarks: true } },
  });
}

const F = "/v1/paper/futures";

describe.each(targets)("issue-19 pages on $name", (target) => {
  let env: Awaited<ReturnType<DbTarget["open"]>>;
  let run: Running;
  let cookie: string;
  let orderIds: number[];
  beforeAll(async () => {
    env = await target.open();
    run = await start(env.db());
    makerQuote(run.venue, "BTCUSDT", "SELL", "50000.00", "5");
    makerQuote(run.venue, "BTCUSDT", "BUY", "49990.00", "5");
    await run.futures.pinMark("BTCUSDT", "50000.0");
    cookie = await run.login();
    await call(run.app, cookie, "POST", "/v1/paper/account/activate");
    await call(run.app, cookie, "POST", "/v1/paper/topup", { asset: "BTC", amount: "1" });
    expect(
      (await call(run.app, cookie, "POST", `${F}/transfer`, { direction: "IN", amount: "10000" })).code,
    ).toBe(Code.OK);
    orderIds = [];
    for (const side of ["BUY", "SELL"]) {
      const o = await call<FuturesOrder>(run.app, cookie, "POST", `${F}/orders`, {
        symbol: "BTCUSDT",
        side,
        type: "MARKET",
        quantity: "0.100",
      });
      expect(o.data.status).toBe("FILLED");
      orderIds.push(o.data.id);
    }
    const spot = await call(run.app, cookie, "POST", "/v1/paper/orders", {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.01",
    });
    expect(spot.code).toBe(Code.OK);
    await run.ledger.flush();
  });
  afterAll(async () => {
    await run.app.close();
    await run.db.close();
    await env.cleanup();
  });

  it("lists every movement: top-ups, transfer, trade and fee, realised PnL; filters and pages", async () => {
    const page = (await call<StatementPage>(run.app, cookie, "GET", "/v1/paper/asset/bills?limit=50")).data;
    const kinds = page.lines.map((l) => `${l.type}:${l.wallet}:${l.asset}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        "topup:spot:USDT",
        "topup:spot:BTC",
        "transfer:spot:USDT",
        "transfer:futures:USDT",
        "fee:futures:USDT",
        "realised_pnl:futures:USDT",
        "trade:spot:BTC",
        "fee:spot:USDT",
      ]),
    );
    const transferIn = page.lines.find((l) => l.type === "transfer" && l.wallet === "futures");
    expect(transferIn?.amount).toBe("10000.00000000");
    // Closed at the 49,990 bid after opening at 50,000: -1 USDT.
    expect(page.lines.find((l) => l.type === "realised_pnl")?.amount).toBe("-1.00000000");
    expect(page.next).toBeNull();

    const fees = (await call<StatementPage>(run.app, cookie, "GET", "/v1/paper/asset/bills?type=fee")).data;
    expect(fees.lines.length).toBe(3);
    expect(fees.lines.every((l) => l.type === "fee" && l.amount.startsWith("-"))).toBe(true);
    const btc = (await call<StatementPage>(run.app, cookie, "GET", "/v1/paper/asset/bills?asset=BTC")).data;
    expect(new Set(btc.lines.map((l) => l.asset))).toEqual(new Set(["BTC"]));
    const future = Date.now() + 60_000;
    expect(
      (await call<StatementPage>(run.app, cookie, "GET", `/v1/paper/asset/bills?from=${future}`)).data.lines,
    ).toEqual([]);

    const first = (await call<StatementPage>(run.app, cookie, "GET", "/v1/paper/asset/bills?limit=2")).data;
    expect(first.next).not.toBeNull();
    const second = (
      await call<StatementPage>(run.app, cookie, "GET", `/v1/paper/asset/bills?limit=2&before=${first.next}`)
    ).data;
    expect(Math.max(...second.lines.map((l) => l.id))).toBeLessThan(first.next ?? 0);

    // Another user sees only their own opening balance (the first paper call opens the account).
    const other = await run.login();
    const theirs = (await call<StatementPage>(run.app, other, "GET", "/v1/paper/asset/bills")).data.lines;
    expect(theirs.map((l) => l.type)).toEqual(["topup", "topup", "topup"]);
    expect(theirs.every((l) => !page.lines.some((m) => m.id === l.id))).toBe(true);
    expect((await call(run.app, cookie, "GET", "/v1/paper/asset/bills?type=nope")).code).toBe(
      Code.VALIDATION_FAILED,
    );
    expect((await call(run.app, cookie, "GET", "/v1/paper/asset/bills?from=5&to=2")).code).toBe(
      Code.VALIDATION_FAILED,
    );
  });

  it("exports the statement as CSV", async () => {
    const res = await run.app.inject({
      method: "GET",
      url: "/v1/paper/asset/bills/export?type=fee",
      headers: { host: "meridian.test", cookie, ...PAPER_HEADERS },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toContain("attachment");
    const rows = res.body.trim().split("\r\n");
    expect(rows[0]).toBe("time_utc,type,wallet,symbol,asset,amount,entry_id");
    expect(rows.length).toBe(4);
    expect(rows.slice(1).every((r) => r.split(",")[1] === "fee")).toBe(true);
    const anon = await run.app.inject({
      method: "GET",
      url: "/v1/paper/asset/bills/export",
      headers: PAPER_HEADERS,
    });
    expect(anon.json().code).toBe(Code.SESSION_INVALID);
  });

  it("answers a futures order with its fills, and the closed positions", async () => {
    const detail = await call<FuturesOrderDetail>(run.app, cookie, "GET", `${F}/orders/${orderIds[1]}`);
    expect(detail.data.order).toMatchObject({ id: orderIds[1], side: "SELL", status: "FILLED" });
    expect(detail.data.fills).toHaveLength(1);
    expect(detail.data.realisedPnl).toBe("-1.00000000");
    const other = await run.login();
    expect((await call(run.app, other, "GET", `${F}/orders/${orderIds[1]}`)).code).toBe(
      FuturesCode.ORDER_NOT_FOUND,
    );
    expect((await call(run.app, cookie, "GET", `${F}/orders/abc`)).code).toBe(Code.VALIDATION_FAILED);

    const history = (await call<ClosedPositionRecord[]>(run.app, cookie, "GET", `${F}/positions/history`))
      .data;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      symbol: "BTCUSDT",
      direction: "LONG",
      maxQty: "0.100",
      entryPrice: "50000.0",
      closePrice: "49990.0",
      realisedPnl: "-1.00000000",
      liquidated: false,
    });
  });

  it("builds a proof of reserves on demand; the user's proof verifies; the script is served", async () => {
    // The first start took a snapshot, and the summary says when the next is due (on the interval's boundary).
    const first = (await call<PorSummary>(run.app, "", "GET", "/v1/por/summary")).data;
    expect(first.trigger).toBe("start");
    expect(first.nextAt).toBeGreaterThan(Date.now());
    expect(first.nextAt).toBeLessThanOrEqual(Date.now() + POR_SNAPSHOT_INTERVAL_MS);
    expect((first.nextAt ?? 1) % POR_SNAPSHOT_INTERVAL_MS).toBe(0);
    const user = await run.login();
    expect((await call(run.app, user, "POST", "/v1/por/admin/build")).code).toBe(Code.FORBIDDEN);
    const admin = await run.login("admin");
    const built = await call<PorSummary>(run.app, admin, "POST", "/v1/por/admin/build");
    expect(built.code).toBe(Code.OK);
    expect(built.data.trigger).toBe("admin");
    const summary = (await call<PorSummary>(run.app, "", "GET", "/v1/por/summary")).data;
    expect(summary.rootHash).toBe(built.data.rootHash);
    const usdt = summary.reserves.find((r) => r.asset === "USDT");
    expect(usdt?.liabilities).toMatch(/^\d+\.\d{8}$/);
    expect(Number(usdt?.ratio)).toBeGreaterThan(0);

    const view = await call<PorProofView>(run.app, cookie, "GET", "/v1/por/proof");
    expect(view.code).toBe(Code.OK);
    expect(verifyPorProof(view.data.proof)).toMatchObject({ ok: true, rootHash: summary.rootHash });
    expect(view.data.proof.root.hash).toBe(summary.rootHash);
    expect((await call(run.app, "", "GET", "/v1/por/proof")).code).toBe(Code.SESSION_INVALID);
    // A user who joined after the snapshot has no leaf yet.
    const late = await run.login();
    expect((await call(run.app, late, "GET", "/v1/por/proof")).code).toBe(PorCode.NO_LEAF);

    const script = await run.app.inject({ method: "GET", url: "/v1/por/verifier.mjs" });
    expect(script.headers["content-type"]).toContain("text/javascript");
    expect(script.body).toBe(verifierScript());
    expect(script.body).toContain("function verifyPorProof");
    expect(script.body).not.toMatch(/^import .*@meridian/m);
    // The downloaded script on its own: the proof holds; one changed balance does not.
    const dir = mkdtempSync(path.join(tmpdir(), "por-"));
    writeFileSync(path.join(dir, "por-verify.mjs"), script.body);
    writeFileSync(path.join(dir, "proof.json"), JSON.stringify(view.data));
    const ok = spawnSync(process.execPath, ["por-verify.mjs", "proof.json"], { cwd: dir, encoding: "utf8" });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain(`root ${summary.rootHash}`);
    const bad = structuredClone(view.data);
    bad.proof = {
      ...bad.proof,
      leaf: { ...bad.proof.leaf, balances: bad.proof.leaf.balances.map((b) => `${b}1`) },
    };
    writeFileSync(path.join(dir, "bad.json"), JSON.stringify(bad));
    const failed = spawnSync(process.execPath, ["por-verify.mjs", "bad.json"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain("FAILED");
  });
});

describe("the pure SHA-256 of the verifier", () => {
  it("equals node:crypto's on any text", { timeout: 120_000 }, async () => {
    const { createHash } = await import("node:crypto");
    const { sha256Hex } = await import("@meridian/domain");
    const fc = (await import("fast-check")).default;
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => {
        expect(sha256Hex(s)).toBe(createHash("sha256").update(s).digest("hex"));
      }),
      { numRuns: 60 },
    );
  });
});
