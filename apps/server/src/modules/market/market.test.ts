import { type Depth, type Kline, type MarketCap, type Ticker, WS_DEPTH_LEVELS } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../test/support.ts";
import { ManualClock } from "./clock.ts";
import type { MarketConfig } from "./config.ts";
import { createMarket, marketModule } from "./index.ts";
import type { MarketService } from "./service.ts";

const START = Date.UTC(2026, 0, 15, 12, 0, 10);
const config: MarketConfig = {
  tickMs: 250,
  feed: "model",
  seed: 7,
  paused: true,
  candlesDir: "/nonexistent",
};

async function get<T>(app: FastifyInstance, url: string): Promise<{ status: number; code: string; data: T }> {
  const res = await app.inject({ method: "GET", url });
  const body = res.json() as { code: string; data: T };
  return { status: res.statusCode, code: body.code, data: body.data };
}

describe("market REST", () => {
  let app: FastifyInstance;
  let market: MarketService;
  const clock = new ManualClock(START);

  beforeAll(async () => {
    market = await createMarket({ clock, config });
    app = await buildTestApp({ modules: [marketModule({ market })] });
    clock.advance(60_000);
  });
  afterAll(async () => {
    await app.close();
  });

  it("lists at least 10 symbols with exchange filters", async () => {
    const { data } = await get<Array<{ symbol: string; tickSize: string }>>(app, "/v1/market/symbols");
    expect(data.length).toBeGreaterThanOrEqual(10);
    expect(data.find((s) => s.symbol === "BTCUSDT")).toMatchObject({ tickSize: "0.01", lotSize: "0.00001" });
  });

  it("answers 24 h tickers for every symbol and one by symbol (case-insensitive)", async () => {
    const all = await get<Ticker[]>(app, "/v1/market/tickers");
    expect(all.data.length).toBeGreaterThanOrEqual(10);
    const one = await get<Ticker>(app, "/v1/market/ticker?symbol=btcusdt");
    expect(one.code).toBe("00000");
    expect(one.data.symbol).toBe("BTCUSDT");
    const t = one.data;
    expect(Number(t.highPrice)).toBeGreaterThanOrEqual(Number(t.lastPrice));
    expect(Number(t.lowPrice)).toBeLessThanOrEqual(Number(t.lastPrice));
    expect(t.lastPrice).toMatch(/^\d+\.\d{2}$/);
    expect(Number(t.bidPrice)).toBeLessThan(Number(t.askPrice));
    // 24 h of 1m candles: about a day of volume.
    expect(Number(t.volume)).toBeGreaterThan(0);
    expect(t.closeTime - t.openTime).toBeGreaterThan(23 * 3_600_000);
  });

  it("rejects unknown symbols and bad intervals with 10422 naming the field", async () => {
    const bad = await get<Array<{ field: string }>>(app, "/v1/market/ticker?symbol=FOOBAR");
    expect([bad.status, bad.code, bad.data[0]?.field]).toEqual([400, "10422", "symbol"]);
    const interval = await get<Array<{ field: string }>>(app, "/v1/market/klines?symbol=BTCUSDT&interval=2m");
    expect([interval.code, interval.data[0]?.field]).toEqual(["10422", "interval"]);
    const limit = await get<unknown>(app, "/v1/market/depth?symbol=BTCUSDT&limit=1000");
    expect(limit.code).toBe("10422");
  });

  it("serves >= 500 candles for every interval, UTC-aligned and ending with the open candle", async () => {
    for (const [interval, ms] of [
      ["1m", 60_000],
      ["5m", 300_000],
      ["15m", 900_000],
      ["30m", 1_800_000],
      ["1h", 3_600_000],
      ["4h", 14_400_000],
      ["1d", 86_400_000],
    ] as const) {
      const { data } = await get<Kline[]>(
        app,
        `/v1/market/klines?symbol=ETHUSDT&interval=${interval}&limit=1000`,
      );
      expect(data.length, interval).toBeGreaterThanOrEqual(500);
      for (const k of data) expect(k.openTime % ms).toBe(0);
      for (let i = 1; i < data.length; i++)
        expect((data[i]?.openTime ?? 0) - (data[i - 1]?.openTime ?? 0)).toBe(ms);
      const last = data[data.length - 1];
      expect(last?.closed).toBe(false);
      expect(last?.closeTime).toBe((last?.openTime ?? 0) + ms - 1);
    }
    const page = await get<Kline[]>(
      app,
      `/v1/market/klines?symbol=ETHUSDT&interval=1h&limit=3&endTime=${START - 7_200_000}`,
    );
    expect(page.data).toHaveLength(3);
    expect(page.data[2]?.openTime).toBeLessThanOrEqual(START - 7_200_000);
  });

  it("serves depth from the maker ladder around the last price, best first", async () => {
    const { data } = await get<Depth>(app, "/v1/market/depth?symbol=SOLUSDT&limit=10");
    expect(data.bids).toHaveLength(10);
    expect(data.asks).toHaveLength(10);
    const bids = data.bids.map(([p]) => Number(p));
    const asks = data.asks.map(([p]) => Number(p));
    expect([...bids].sort((a, b) => b - a)).toEqual(bids);
    expect([...asks].sort((a, b) => a - b)).toEqual(asks);
    expect(bids[0]).toBeLessThan(asks[0] ?? 0);
    const { data: t } = await get<Ticker>(app, "/v1/market/ticker?symbol=SOLUSDT");
    expect(Math.abs(Number(t.lastPrice) - ((bids[0] ?? 0) + (asks[0] ?? 0)) / 2)).toBeLessThan(0.1);
  });

  it("serves recent trades newest first and moves with the clock", async () => {
    const before = await get<Array<{ id: number; time: number }>>(
      app,
      "/v1/market/trades?symbol=BTCUSDT&limit=5",
    );
    clock.advance(1000);
    const after = await get<Array<{ id: number; time: number; price: string }>>(
      app,
      "/v1/market/trades?symbol=BTCUSDT&limit=5",
    );
    expect(after.data).toHaveLength(5);
    expect(after.data[0]?.id).toBe((before.data[0]?.id ?? 0) + 4);
    expect(after.data[0]?.time).toBeGreaterThan(after.data[4]?.time ?? 0);
  });

  it("ranks market caps (supply x last price), top 8 by default", async () => {
    const { data } = await get<MarketCap[]>(app, "/v1/market/caps");
    expect(data).toHaveLength(8);
    expect(data[0]?.symbol).toBe("BTCUSDT");
    expect(data.map((c) => c.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (let i = 1; i < data.length; i++)
      expect(Number(data[i - 1]?.marketCap)).toBeGreaterThanOrEqual(Number(data[i]?.marketCap));
    const btc = data[0];
    expect(Number(btc?.marketCap)).toBeCloseTo(Number(btc?.circulatingSupply) * Number(btc?.price), -2);
  });

  it("hands later modules the service: prices for the airdrops page", async () => {
    const prices = await market.prices(["NOTUSDT", "TONUSDT", "NOPE"]);
    expect([...prices.keys()]).toEqual(["NOTUSDT", "TONUSDT"]);
    expect(prices.get("NOTUSDT")).toMatch(/^0\.\d{6}$/);
  });

  it("is deterministic for a seed", async () => {
    const other = await buildTestApp({ modules: [marketModule({ clock: new ManualClock(START), config })] });
    try {
      const a = await get<Kline[]>(
        app,
        `/v1/market/klines?symbol=XRPUSDT&interval=1d&limit=50&endTime=${START - 86_400_000}`,
      );
      const b = await get<Kline[]>(
        other,
        `/v1/market/klines?symbol=XRPUSDT&interval=1d&limit=50&endTime=${START - 86_400_000}`,
      );
      expect(a.data).toEqual(b.data);
    } finally {
      await other.close();
    }
  });
});

describe("market test prints", () => {
  it("prints one trade at a price and the feed walks on from it", async () => {
    const clock = new ManualClock(START);
    const market = await createMarket({ clock, config });
    market.startFeed();
    clock.advance(5_000);
    const heard: string[] = [];
    market.onUpdate((u) => heard.push(...u.trades.keys()));
    expect(market.printTrade("NOPEUSDT", 100)).toBe(false);
    expect(market.printTrade("ETHUSDT", 0)).toBe(false);
    expect(market.printTrade("ETHUSDT", 300_000)).toBe(true);
    expect(market.price("ETHUSDT")).toBe("3000.00");
    expect(heard).toEqual(["ETHUSDT"]);
    clock.advance(2_000);
    const walked = Number(market.price("ETHUSDT"));
    expect(Math.abs(walked - 3000) / 3000).toBeLessThan(0.01);
    market.stopFeedLoop();
  });
});

describe("market WebSocket", () => {
  let app: FastifyInstance;
  let url: string;
  const clock = new ManualClock(START);

  beforeAll(async () => {
    app = await buildTestApp({ modules: [marketModule({ clock, config })] });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    url = `ws://127.0.0.1:${address.port}/v1/ws/market`;
  });
  afterAll(async () => {
    await app.close();
  });

  function open(): Promise<{
    ws: WebSocket;
    messages: unknown[];
    next: (pred: (m: Record<string, unknown>) => boolean) => Promise<Record<string, unknown>>;
  }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const messages: Record<string, unknown>[] = [];
      const waiters: Array<{
        pred: (m: Record<string, unknown>) => boolean;
        done: (m: Record<string, unknown>) => void;
      }> = [];
      ws.addEventListener("message", (e) => {
        const m = JSON.parse(String(e.data)) as Record<string, unknown>;
        messages.push(m);
        for (const w of [...waiters]) {
          if (w.pred(m)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.done(m);
          }
        }
      });
      const next = (pred: (m: Record<string, unknown>) => boolean) =>
        new Promise<Record<string, unknown>>((done, fail) => {
          const seen = messages.find(pred);
          if (seen) return done(seen);
          waiters.push({ pred, done });
          setTimeout(() => fail(new Error("timed out waiting for a message")), 5000);
        });
      ws.addEventListener("open", () => resolve({ ws, messages, next }));
      ws.addEventListener("error", () => reject(new Error("ws error")));
    });
  }

  it("subscribes, receives ticker, kline, trades and coalesced depth as the clock runs, then unsubscribes", async () => {
    const { ws, messages, next } = await open();
    ws.send(
      JSON.stringify({
        op: "subscribe",
        args: ["ticker@btcusdt", "kline@BTCUSDT@1m", "trades@BTCUSDT", "depth@BTCUSDT"],
        id: 1,
      }),
    );
    const ack = await next((m) => m.event === "subscribed");
    expect(ack).toEqual({
      event: "subscribed",
      streams: ["ticker@BTCUSDT", "kline@BTCUSDT@1m", "trades@BTCUSDT", "depth@BTCUSDT"],
      id: 1,
    });
    const snapshot = await next((m) => m.stream === "ticker@BTCUSDT");
    const first = (snapshot.data as Ticker).closeTime;
    const depthSnap = await next((m) => m.stream === "depth@BTCUSDT");
    expect((depthSnap.data as Depth).bids).toHaveLength(WS_DEPTH_LEVELS);

    clock.advance(1000);
    const later = await next((m) => m.stream === "ticker@BTCUSDT" && (m.data as Ticker).closeTime > first);
    expect((later.data as Ticker).symbol).toBe("BTCUSDT");
    await next((m) => m.stream === "trades@BTCUSDT");
    const kline = await next(
      (m) => m.stream === "kline@BTCUSDT@1m" && (m.data as { closed: boolean }).closed === false,
    );
    expect(kline.data).toMatchObject({ symbol: "BTCUSDT", interval: "1m" });
    // Four ticks in a second but depth flushes every 250 ms: at most one depth push per flush.
    const depthPushes = messages.filter((m) => (m as { stream?: string }).stream === "depth@BTCUSDT").length;
    expect(depthPushes).toBeLessThanOrEqual(1 + 4);

    ws.send(JSON.stringify({ op: "ping", id: "hb" }));
    expect(await next((m) => m.event === "pong")).toMatchObject({ event: "pong", id: "hb" });

    ws.send(
      JSON.stringify({
        op: "unsubscribe",
        args: ["ticker@BTCUSDT", "kline@BTCUSDT@1m", "trades@BTCUSDT", "depth@BTCUSDT"],
      }),
    );
    await next((m) => m.event === "unsubscribed");
    const count = messages.length;
    clock.advance(1000);
    await new Promise((r) => setTimeout(r, 100));
    expect(messages.length).toBe(count);
    ws.close();
  });

  it("answers errors for bad messages and unknown streams without closing", async () => {
    const { ws, next } = await open();
    ws.send("not json");
    expect(await next((m) => m.event === "error")).toMatchObject({ code: "10400" });
    ws.send(JSON.stringify({ op: "subscribe", args: ["ticker@NOPEUSDT"], id: 9 }));
    expect(await next((m) => m.event === "error" && m.id === 9)).toMatchObject({ code: "10422" });
    ws.send(JSON.stringify({ op: "ping" }));
    await next((m) => m.event === "pong");
    ws.close();
  });

  it("closes sockets with a clean closing handshake when the server shuts down", async () => {
    const { ws } = await open();
    const closed = new Promise<{ code: number; clean: boolean }>((resolve) =>
      ws.addEventListener("close", (e) => resolve({ code: e.code, clean: e.wasClean })),
    );
    const other = app;
    app = await buildTestApp({ modules: [marketModule({ clock, config })] });
    await other.close();
    // The platform's websocket plugin closes clients first, without a status (1005); the hub's 1001 covers its own shutdown path.
    const { code, clean } = await closed;
    expect(clean).toBe(true);
    expect([1001, 1005]).toContain(code);
  });
});
