import { createMarket, ManualClock, type MarketFeed, type MarketService } from "../modules/market/index.ts";

/**
 * A market held still at `start` (a manual clock, the model paused) whose feed is `feed`, a
 * mirroring feed the test drives by hand; the feed is started.
 */
export async function fedMarket(feed: MarketFeed, start: number): Promise<MarketService> {
  const market = await createMarket({
    clock: new ManualClock(start),
    feed,
    config: { tickMs: 250, feed: "model", seed: 7, paused: true, candlesDir: "/nonexistent" },
  });
  market.startFeed();
  return market;
}
