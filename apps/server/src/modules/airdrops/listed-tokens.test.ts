import {
  AIRDROPS_API,
  type AirdropDetailResult,
  type AirdropListResult,
  airdropInputSchema,
} from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Seed } from "../../platform/db/seed.ts";
import { buildTestApp, testConfig } from "../../test/support.ts";
import { contentTexts } from "../content/index.ts";
import { ManualClock, type MarketService, registerMarket } from "../market/index.ts";
import { airdropsModule, airdropTokenListings } from "./index.ts";
import { sanitizeAirdropInput, saveAirdrop } from "./writes.ts";

const DAY = 86_400_000;
const NOW = Date.now();

const airdrop = (slug: string, ticker: string, over: Record<string, unknown>) =>
  sanitizeAirdropInput(
    airdropInputSchema.parse({
      slug,
      name: `Token ${ticker}`,
      ticker,
      chain: "TON",
      type: "standard",
      estValue: "10",
      seedPrice: "0.0842",
      predictedPrice: "0.1",
      marketCap: "84200000",
      startAt: NOW - 30 * DAY,
      endAt: NOW - 10 * DAY,
      description: `About ${ticker}`,
      ...over,
    }),
  );

/** Three airdrops: listed (no stored pair), not listed yet, and listed on a built-in pair. */
const seed: Seed = {
  name: "listed-tokens-test",
  async seed(db) {
    await db.transaction(async (tx) => {
      await saveAirdrop(
        tx,
        contentTexts,
        airdrop("listed-one", "LSTA", { listingAt: NOW - 5 * DAY }),
        NOW,
        "insert-only",
      );
      await saveAirdrop(
        tx,
        contentTexts,
        airdrop("coming-one", "SOONB", { listingAt: NOW + 20 * DAY }),
        NOW,
        "insert-only",
      );
      await saveAirdrop(
        tx,
        contentTexts,
        airdrop("notcoin-like", "NOT", {
          listingAt: NOW - 90 * DAY,
          marketSymbol: "NOTUSDT",
          seedPrice: "1",
        }),
        NOW,
        "insert-only",
      );
    });
  },
};

async function get<T>(app: FastifyInstance, url: string): Promise<T> {
  const res = await app.inject({ method: "GET", url });
  const body = res.json() as { code: string; data: T };
  expect(body.code, url).toBe("00000");
  return body.data;
}

describe("tokens of listed airdrops", () => {
  let app: FastifyInstance;
  let market: MarketService | undefined;

  beforeAll(async () => {
    app = await buildTestApp({
      config: testConfig({ SEED_DEMO_DATA: "true" }),
      seeds: [seed],
      modules: [
        async (api, platform) => {
          market = await registerMarket(api, platform, {
            config: { tickMs: 250, feed: "model", seed: 7, paused: true, candlesDir: "/nonexistent" },
            clock: new ManualClock(NOW),
            listingSource: airdropTokenListings,
          });
        },
        airdropsModule({ texts: contentTexts, market: () => market }),
      ],
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("get a USDT spot market anchored at the airdrop's price; the others do not", async () => {
    const symbols = await get<{ symbol: string; tickSize: string; lotSize: string }[]>(
      app,
      "/v1/market/symbols",
    );
    const listed = symbols.find((s) => s.symbol === "LSTAUSDT");
    expect(listed).toMatchObject({ tickSize: "0.000001", lotSize: "1" });
    expect(symbols.some((s) => s.symbol === "SOONBUSDT")).toBe(false);
    // the built-in pair stays the built-in one (one NOTUSDT)
    expect(symbols.filter((s) => s.symbol === "NOTUSDT")).toHaveLength(1);
    const ticker = await get<{ lastPrice: string }>(app, "/v1/market/ticker?symbol=LSTAUSDT");
    expect(Number(ticker.lastPrice)).toBeGreaterThan(0.0842 * 0.8);
    expect(Number(ticker.lastPrice)).toBeLessThan(0.0842 * 1.2);
  });

  it("the airdrop pages name a pair only when the market lists it", async () => {
    const list = await get<AirdropListResult>(app, `${AIRDROPS_API.list}?page=1&pageSize=50`);
    const bySlug = new Map(list.items.map((a) => [a.slug, a]));
    expect(bySlug.get("listed-one")?.marketSymbol).toBe("LSTAUSDT");
    expect(bySlug.get("coming-one")?.marketSymbol).toBe("");
    expect(bySlug.get("notcoin-like")?.marketSymbol).toBe("NOTUSDT");
    // the current price is the market's, not the seeded one, once the pair trades
    expect(bySlug.get("notcoin-like")?.currentPrice).not.toBe("1");
    const detail = await get<AirdropDetailResult>(app, `${AIRDROPS_API.detail}coming-one?locale=en`);
    expect(detail.airdrop.marketSymbol).toBe("");
    expect(detail.airdrop.listingAt).toBeGreaterThan(NOW);
  });
});
