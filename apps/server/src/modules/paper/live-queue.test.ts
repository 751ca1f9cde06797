import type { Depth, MarketStatus, PaperOrder, PaperTrade } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsTestApp } from "../../test/accounts.ts";
import { paperCall } from "../../test/paper.ts";
import { freePort } from "../../test/ports.ts";
import { killUpstream, startUpstream, type Upstream, until } from "../../test/upstream.ts";
import { securityRoutes } from "../accounts/index.ts";
import { moduleRoutes } from "../index.ts";

/**
 * Resting spot orders on a live feed fill from the exchange's printed trades by queue
 * position (docs/trading.md, "The fill model"), end to end: a second Meridian process is
 * the upstream exchange, mirrored through ccxt's bitget class. The upstream's model feed
 * is held still (its slowest tick, a minute) and the test prints its trades: one every second at the
 * best ask keeps the mirror's book fresh without reaching the paper bids.
 */
const SYMBOL = "BTCUSDT";

let upstream: Upstream;
let app: FastifyInstance;
let cookie: string;
let keepAlive: ReturnType<typeof setInterval> | undefined;
const saved = { ...process.env };

const getJson = async <T>(url: string): Promise<T> => ((await (await fetch(url)).json()) as { data: T }).data;
const mirror = async <T>(url: string): Promise<T> => (await app.inject({ method: "GET", url })).json().data;
const upstreamDepth = () => getJson<Depth>(`${upstream.url}/v1/market/depth?symbol=${SYMBOL}&limit=50`);
/** A decimal string without trailing zeros ("0.00200" -> "0.002"). */
const plain = (d: string) => (d.includes(".") ? d.replace(/\.?0+$/, "") : d);

beforeAll(async () => {
  upstream = await startUpstream(await freePort(), { MARKET_TICK_MS: "60000" });
  const ask = (await upstreamDepth()).asks[0]?.[0];
  if (ask === undefined) throw new Error("the upstream shows no ask");
  keepAlive = setInterval(() => void upstream.print(SYMBOL, ask, "0.001"), 1000);
  await upstream.print(SYMBOL, ask, "0.001");
  process.env.MARKET_FEED = "ccxt:bitget";
  process.env.MARKET_FEED_URL = upstream.url;
  process.env.MARKET_SYMBOLS = SYMBOL;
  process.env.MARKET_CLOCK = "system";
  const built = await accountsTestApp({ modules: moduleRoutes.filter((m) => m !== securityRoutes) });
  app = built.app;
  cookie = await built.login();
}, 60_000);

afterAll(async () => {
  clearInterval(keepAlive);
  await app?.close();
  if (upstream !== undefined) await killUpstream(upstream);
  process.env = saved;
});

/** The upstream's book once the mirror shows it too (live). */
async function mirroredBook(): Promise<Depth> {
  return await until("the mirror shows the upstream's book", 20_000, async () => {
    const up = await upstreamDepth();
    const mine = await mirror<Depth>(`/v1/market/depth?symbol=${SYMBOL}&limit=50`);
    const st = await mirror<MarketStatus>("/v1/market/status");
    const live = st.symbols.find((s) => s.symbol === SYMBOL)?.state === "live";
    return live && JSON.stringify([mine.bids, mine.asks]) === JSON.stringify([up.bids, up.asks])
      ? up
      : undefined;
  });
}

const buy = async (price: string, quantity: string): Promise<PaperOrder> => {
  const r = await paperCall<{ order: PaperOrder }>(app, cookie, "POST", "/v1/paper/orders", {
    symbol: SYMBOL,
    side: "BUY",
    type: "LIMIT",
    price,
    quantity,
  });
  expect(r.code).toBe("00000");
  return r.data.order;
};

const order = async (id: number): Promise<PaperOrder | undefined> => {
  for (const list of ["open", "history"]) {
    const r = await paperCall<PaperOrder[]>(app, cookie, "GET", `/v1/paper/orders/${list}?symbol=${SYMBOL}`);
    const found = r.data.find((o) => o.orderId === id);
    if (found !== undefined) return found;
  }
  return undefined;
};

/** Waits until the order has `executed` filled (and nothing more happened meanwhile). */
const filledTo = (id: number, executed: string) =>
  until(`order ${id} filled to ${executed}`, 10_000, async () => {
    const o = await order(id);
    return o !== undefined && plain(o.executedQty) === executed ? o : undefined;
  });

const level = (d: Depth, i: number): [string, string] => {
  const l = d.bids[i];
  if (l === undefined) throw new Error(`no bid level ${i}`);
  return [l[0], l[1]];
};

describe("resting spot orders on a live feed", () => {
  it("an upstream trade through a resting order fills it, as much as traded", async () => {
    const book = await mirroredBook();
    const [price] = level(book, 2);
    const [below] = level(book, 3);
    const placed = await buy(price, "0.003");
    expect(placed.status).toBe("NEW");
    expect(await upstream.print(SYMBOL, below, "0.001")).toBe(true);
    const partial = await filledTo(placed.orderId, "0.001");
    expect(partial.status).toBe("PARTIALLY_FILLED");
    expect(await upstream.print(SYMBOL, below, "0.01")).toBe(true);
    const done = await filledTo(placed.orderId, "0.003");
    expect(done.status).toBe("FILLED");
    const trades = await paperCall<PaperTrade[]>(app, cookie, "GET", `/v1/paper/trades?symbol=${SYMBOL}`);
    const mine = trades.data.filter((t) => t.orderId === placed.orderId);
    expect(mine.map((t) => [plain(t.price), t.isMaker])).toEqual([
      [plain(price), true],
      [plain(price), true],
    ]);
  }, 60_000);

  it("queue position holds an order at the touch until the size ahead of it has traded", async () => {
    const book = await mirroredBook();
    const [touch, ahead] = level(book, 0);
    const [below] = level(book, 1);
    const placed = await buy(touch, "0.003");
    expect(placed.status).toBe("NEW");
    // Exactly the size displayed ahead of it trades at its price: nothing for it yet.
    expect(await upstream.print(SYMBOL, touch, ahead)).toBe(true);
    // The next lots at its price are its own: 2 of its 3.
    expect(await upstream.print(SYMBOL, touch, "0.002")).toBe(true);
    const partial = await filledTo(placed.orderId, "0.002");
    expect(partial.status).toBe("PARTIALLY_FILLED");
    expect(await upstream.print(SYMBOL, below, "0.005")).toBe(true);
    expect((await filledTo(placed.orderId, "0.003")).status).toBe("FILLED");
  }, 60_000);
});
