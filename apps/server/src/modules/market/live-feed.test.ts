import {
  type Depth,
  type FundingRecord,
  type FuturesMark,
  type Kline,
  MarketCode,
  type MarketStatus,
  type MarketSymbolInfo,
  type PaperOrder,
} from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../platform/config.ts";
import { accountsTestApp } from "../../test/accounts.ts";
import { paperCall } from "../../test/paper.ts";
import { freePort } from "../../test/ports.ts";
import {
  killUpstream,
  startUpstream as startUpstreamProcess,
  type Upstream,
  until,
} from "../../test/upstream.ts";
import { securityRoutes } from "../accounts/index.ts";
import { moduleRoutes } from "../index.ts";
import { CcxtFeed, systemClock } from "./index.ts";

/**
 * The live feed end to end, offline: a second Meridian process (the model feed) is the
 * upstream exchange, and this server mirrors it with `MARKET_FEED=ccxt:bitget` through
 * ccxt's own bitget class, its URLs pointed at the upstream (`MARKET_FEED_URL`).
 */

/** The upstream's funding interval (the mirror keeps its own 8 h default). */
const FUNDING_MS = 20_000;

// A slow tick: the upstream's book holds still long enough to compare both sides.
const startUpstream = (port: number) =>
  startUpstreamProcess(port, { MARKET_TICK_MS: "400", FUNDING_INTERVAL_MS: String(FUNDING_MS) });

const getJson = async <T>(url: string): Promise<T> => {
  const body = (await (await fetch(url)).json()) as { data: T };
  return body.data;
};

let port: number;
let upstream: Upstream;
let app: FastifyInstance;
let cookie: string;
const mirror = async <T>(url: string): Promise<T> => (await app.inject({ method: "GET", url })).json().data;
const saved = { ...process.env };

beforeAll(async () => {
  port = await freePort();
  upstream = await startUpstream(port);
  process.env.MARKET_FEED = "ccxt:bitget";
  process.env.MARKET_FEED_URL = upstream.url;
  process.env.MARKET_SYMBOLS = "BTCUSDT,ETHUSDT";
  process.env.MARKET_CLOCK = "system";
  const built = await accountsTestApp({ modules: moduleRoutes.filter((m) => m !== securityRoutes) });
  app = built.app;
  cookie = await built.login();
}, 60_000);

afterAll(async () => {
  await app?.close();
  if (upstream !== undefined) await killUpstream(upstream);
  process.env = saved;
});

const mirrorDepth = () => mirror<Depth>("/v1/market/depth?symbol=BTCUSDT&limit=50");
const upstreamDepth = () => getJson<Depth>(`${upstream.url}/v1/market/depth?symbol=BTCUSDT&limit=50`);
const status = () => mirror<MarketStatus>("/v1/market/status");
const btc = (s: MarketStatus) => s.symbols.find((x) => x.symbol === "BTCUSDT");

/** The upstream's book, and the mirror's once it shows the same (the next update at most). */
async function sameBook(): Promise<{ mirror: Depth; up: Depth }> {
  return await until("mirrored book equals the upstream's", 10_000, async () => {
    const up = await upstreamDepth();
    const mirror = await mirrorDepth();
    const again = await upstreamDepth();
    // Only a book that held still across both reads can be compared.
    if (JSON.stringify([up.bids, up.asks]) !== JSON.stringify([again.bids, again.asks])) return undefined;
    return JSON.stringify([mirror.bids, mirror.asks]) === JSON.stringify([up.bids, up.asks])
      ? { mirror, up }
      : undefined;
  });
}

const place = (price: string) =>
  paperCall<{ order: PaperOrder }>(app, cookie, "POST", "/v1/paper/orders", {
    symbol: "BTCUSDT",
    side: "BUY",
    type: "LIMIT",
    price,
    quantity: "0.001",
  });

describe("MARKET_FEED=ccxt:bitget against a Meridian upstream", () => {
  it("lists the upstream's pairs with its filters and backfills its chart", async () => {
    const st = await status();
    expect(st.feed).toBe("ccxt:bitget");
    expect(st.live).toBe(true);
    expect(st.symbols.map((s) => s.symbol)).toEqual(["BTCUSDT", "ETHUSDT"]);
    const info = await mirror<MarketSymbolInfo[]>("/v1/market/symbols");
    const up = await getJson<MarketSymbolInfo[]>(`${upstream.url}/v1/market/symbols`);
    for (const s of info) {
      const u = up.find((x) => x.symbol === s.symbol);
      expect([s.tickSize, s.lotSize, s.minQty, s.minNotional]).toEqual([
        u?.tickSize,
        u?.lotSize,
        u?.minQty,
        u?.minNotional,
      ]);
    }
    // An hourly candle from before the finer history is the upstream's own.
    const q = "symbol=ETHUSDT&interval=1h&limit=200";
    const mine = await mirror<Kline[]>(`/v1/market/klines?${q}`);
    const theirs = await getJson<Kline[]>(`${upstream.url}/v1/market/klines?${q}`);
    const old = theirs[20];
    expect(old).toBeDefined();
    const match = mine.find((k) => k.openTime === old?.openTime);
    expect([match?.open, match?.high, match?.low, match?.close]).toEqual([
      old?.open,
      old?.high,
      old?.low,
      old?.close,
    ]);
  });

  it("refuses a pair the upstream does not list, naming the ones it does", async () => {
    const err = await CcxtFeed.open({
      exchange: "bitget",
      symbols: ["BTCUSDT", "NOPEUSDT"],
      url: upstream.url,
      perps: [],
      clock: systemClock,
      log: { info() {}, warn() {} },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(
      /^MARKET_SYMBOLS: NOPEUSDT not on bitget; valid: .*BTCUSDT, .*ETHUSDT/,
    );
  });

  it("mirrors the upstream's top 50 levels, never showing paper orders", async () => {
    const { up } = await sameBook();
    const far = String(Math.floor(Number(up.bids[0]?.[0] ?? "2") / 2));
    const placed = await place(far);
    expect(placed.code).toBe("00000");
    const { mirror } = await sameBook();
    expect(mirror.bids.length).toBeGreaterThan(10);
    expect(mirror.asks.length).toBeGreaterThan(10);
    expect(mirror.bids.some(([p]) => p === far)).toBe(false);
    expect(btc(await status())?.state).toBe("live");
    await paperCall(app, cookie, "DELETE", `/v1/paper/orders/${placed.data.order.orderId}`);
  });

  it("takes the perpetuals' marks and funding from the upstream", async () => {
    const up = await until("the mirror's BTCUSDT mark equals the upstream's", 15_000, async () => {
      const theirs = (await getJson<FuturesMark[]>(`${upstream.url}/v1/paper/futures/marks`)).find(
        (m) => m.symbol === "BTCUSDT",
      );
      const mine = (await mirror<FuturesMark[]>("/v1/paper/futures/marks")).find(
        (m) => m.symbol === "BTCUSDT",
      );
      return theirs !== undefined &&
        mine?.markPrice === theirs.markPrice &&
        mine.indexPrice === theirs.indexPrice
        ? { theirs, mine }
        : undefined;
    });
    expect(up.mine.markPrice).toBe(up.theirs.markPrice);
    // The upstream's rate and next time (its 20 s interval, not the mirror's own 8 h one),
    // as of its latest answer: a settlement may fall between the two reads.
    await until("the mirror's funding equals the upstream's", 30_000, async () => {
      const rate = await getJson<Array<{ fundingRate: string; nextUpdate: string }>>(
        `${upstream.url}/api/v2/mix/market/current-fund-rate?symbol=BTCUSDT&productType=USDT-FUTURES`,
      );
      const mine = (await mirror<FuturesMark[]>("/v1/paper/futures/marks")).find(
        (m) => m.symbol === "BTCUSDT",
      );
      return Number(mine?.fundingRate) === Number(rate[0]?.fundingRate) &&
        mine?.nextFundingTime === Number(rate[0]?.nextUpdate)
        ? true
        : undefined;
    });
  }, 60_000);

  it("takes the coin-M contracts' marks and funding from the upstream's inverse perpetuals", async () => {
    // BTCUSD's own mark (its 0.1 tick) arrives on the COIN-FUTURES ticker stream, beside
    // the USDT-M one on the same public connection.
    const both = await until(
      "the mirror's BTCUSD and BTCUSDT marks equal the upstream's",
      20_000,
      async () => {
        const theirs = await getJson<FuturesMark[]>(`${upstream.url}/v1/paper/futures/marks`);
        const mine = await mirror<FuturesMark[]>("/v1/paper/futures/marks");
        const same = (symbol: string) => {
          const t = theirs.find((m) => m.symbol === symbol);
          const m = mine.find((x) => x.symbol === symbol);
          return t !== undefined && m?.markPrice === t.markPrice && m.indexPrice === t.indexPrice
            ? m
            : undefined;
        };
        const coin = same("BTCUSD");
        const usdt = same("BTCUSDT");
        return coin !== undefined && usdt !== undefined ? { coin, usdt } : undefined;
      },
    );
    expect(both.coin).toMatchObject({ family: "coin", marginCoin: "BTC" });
    expect(both.coin.markPrice).toMatch(/^\d+\.\d$/);
    await until("the mirror's BTCUSD funding equals the upstream's", 30_000, async () => {
      const rate = await getJson<Array<{ fundingRate: string; nextUpdate: string }>>(
        `${upstream.url}/api/v2/mix/market/current-fund-rate?symbol=BTCUSD&productType=COIN-FUTURES`,
      );
      const mine = (await mirror<FuturesMark[]>("/v1/paper/futures/marks")).find(
        (m) => m.symbol === "BTCUSD",
      );
      return rate[0] !== undefined &&
        Number(mine?.fundingRate) === Number(rate[0].fundingRate) &&
        mine?.nextFundingTime === Number(rate[0].nextUpdate)
        ? true
        : undefined;
    });
    // The books stayed live beside the inverse stream.
    expect(btc(await status())?.state).toBe("live");
    await sameBook();
  }, 60_000);

  it("settles funding at the upstream's rate and time", async () => {
    const moved = await paperCall(app, cookie, "POST", "/v1/paper/futures/transfer", {
      direction: "IN",
      amount: "2000",
    });
    expect(moved.code).toBe("00000");
    const bought = await paperCall(app, cookie, "POST", "/v1/paper/futures/orders", {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.01",
    });
    expect(bought.code).toBe("00000");
    const record = await until("a funding settlement", 3 * FUNDING_MS, async () => {
      const r = await paperCall<FundingRecord[]>(app, cookie, "GET", "/v1/paper/futures/funding");
      return r.data[0];
    });
    const rate = await getJson<Array<{ fundingRate: string }>>(
      `${upstream.url}/api/v2/mix/market/current-fund-rate?symbol=BTCUSDT&productType=USDT-FUTURES`,
    );
    expect(Number(record.rate)).toBe(Number(rate[0]?.fundingRate));
    // The upstream's schedule (every FUNDING_MS), not Meridian's own 8 h one.
    expect(record.time % FUNDING_MS).toBeLessThan(5_000);
  }, 90_000);

  it("refuses new orders within 5 s of losing the upstream and trades again after it returns", async () => {
    const { up } = await sameBook();
    const bid = up.bids[up.bids.length - 1]?.[0] ?? "1";
    const low = String(Math.floor(Number(bid) / 2));
    const resting = await place(low);
    expect(resting.code).toBe("00000");

    const killedAt = Date.now();
    await killUpstream(upstream);
    const refused = await until("order refused", 10_000, async () => {
      const r = await place(low);
      if (r.code === "00000") return undefined;
      return r;
    });
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(refused.code).toBe(MarketCode.DATA_UNAVAILABLE);
    expect(refused.msg).toBe("market data unavailable for BTCUSDT");
    expect(["stale", "down"]).toContain(btc(await status())?.state);
    expect((await mirrorDepth()).asks).toEqual([]);
    const open = await paperCall<PaperOrder[]>(app, cookie, "GET", "/v1/paper/orders/open");
    expect(open.data.map((o) => o.orderId)).toContain(resting.data.order.orderId);

    // The resting orders stay, and the mirrored book below (equal to the upstream's) never shows them.
    upstream = await startUpstream(port);
    await until("feed live again", 40_000, async () =>
      btc(await status())?.state === "live" ? true : undefined,
    );
    await sameBook();
    const again = await place(low);
    expect(again.code).toBe("00000");
  }, 90_000);
});
