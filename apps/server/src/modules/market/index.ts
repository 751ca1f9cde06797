import { listInstruments, MARKET_LISTINGS, type MarketListing } from "@meridian/domain";
import type { FastifyInstance } from "fastify";
import type { Platform } from "../../platform/platform.ts";
import { ManualClock, type MarketClock, systemClock } from "./clock.ts";
import { MarketCluster } from "./cluster.ts";
import { loadMarketConfig, type MarketConfig } from "./config.ts";
import type { MarketFeed } from "./feed.ts";
import { ModelFeed } from "./model-feed.ts";
import { loadCandleFiles, ReplayFeed } from "./replay-feed.ts";
import { marketHttpRoutes } from "./routes.ts";
import { MarketService } from "./service.ts";
import { MarketStreamHub, type WsSocket } from "./ws.ts";

export type { MarketClock } from "./clock.ts";
export { ManualClock, systemClock } from "./clock.ts";
export { type ClusterMarket, MarketCluster } from "./cluster.ts";
export { loadMarketConfig } from "./config.ts";
export type { FeedSink, FeedTrade, MarketFeed } from "./feed.ts";
export { MAKER_ACCOUNT, MAKER_ID_BASE, MakerBook } from "./maker-book.ts";
export { ModelFeed } from "./model-feed.ts";
export { ReplayFeed } from "./replay-feed.ts";
export type { MarketListener, MarketUpdate } from "./service.ts";
export { MarketService } from "./service.ts";

export interface CreateMarketOptions {
  config?: MarketConfig;
  /** Default: the system clock, or a paused manual clock when the config says paused. */
  clock?: MarketClock;
  /** Replaces the feed chosen by the config. */
  feed?: MarketFeed;
  /** Pairs listed beside the built-in ones (a symbol already listed keeps the built-in pair). */
  extraListings?: readonly MarketListing[];
}

/** The built-in pairs, then each extra pair whose symbol is not taken. */
function withExtra(extra: readonly MarketListing[]): MarketListing[] {
  const out = [...MARKET_LISTINGS];
  const taken = new Set(out.map((l) => l.instrument.symbol));
  for (const listing of extra) {
    if (taken.has(listing.instrument.symbol)) continue;
    taken.add(listing.instrument.symbol);
    out.push(listing);
  }
  return out;
}

/** Builds the market service from config (not started: see `marketRoutes`). */
export async function createMarket(options: CreateMarketOptions = {}): Promise<MarketService> {
  const config = options.config ?? loadMarketConfig();
  const listed = listInstruments(withExtra(options.extraListings ?? []));
  if (!listed.ok) throw new Error(`market listings: ${listed.error.code} ${listed.error.field}`);
  const instruments = listed.value;
  const clock = options.clock ?? (config.paused ? new ManualClock(Date.now()) : systemClock);
  const epoch = Math.floor(clock.now() / 60_000) * 60_000;
  const model = new ModelFeed({ instruments, seed: config.seed, clock, tickMs: config.tickMs, epoch });
  const feed =
    options.feed ??
    (config.feed === "replay"
      ? new ReplayFeed({
          instruments,
          files: await loadCandleFiles(config.candlesDir, instruments),
          clock,
          epoch,
          seed: config.seed,
          tickMs: config.tickMs,
          fallback: model,
        })
      : model);
  return new MarketService({ instruments, feed, clock, seed: config.seed });
}

declare module "fastify" {
  interface FastifyInstance {
    /** Set by `marketRoutes`: prices, books and candles for later modules (orders, airdrops). */
    market: MarketService;
  }
}

export interface MarketModuleOptions extends CreateMarketOptions {
  /** An existing service (tests); otherwise built by `createMarket`. */
  market?: MarketService;
  /**
   * More pairs, read when the module starts (after migrations and seeds): tokens of
   * airdrops that have listed. A pair the source gets wrong is left out, never fatal.
   */
  listingSource?: (platform: Platform) => Promise<readonly MarketListing[]>;
}

/**
 * The market module: REST under `/v1/market/*`, the `/v1/ws/market` stream, the feed
 * (single process) or the Redis leader/follower pair (REDIS_URL set). Decorates the
 * scope with `market` so modules listed after it can read prices and the books.
 */
export function marketModule(options: MarketModuleOptions = {}) {
  return async function marketRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
    const extraListings = [
      ...(options.extraListings ?? []),
      ...((await options.listingSource?.(platform).catch((err: unknown) => {
        api.log.warn({ err }, "market: extra listings unavailable");
        return [];
      })) ?? []),
    ];
    const market = options.market ?? (await createMarket({ ...options, extraListings }));
    api.decorate("market", market);
    marketHttpRoutes(api, market);
    const hub = new MarketStreamHub(market);
    api.get("/v1/ws/market", { websocket: true }, (socket) => hub.attach(socket as WsSocket));

    // On a running clock every symbol is built and caught up before the server
    // answers anyone (a paused clock never ticks: its symbols stay lazy, tests start faster).
    const running = !(market.clock instanceof ManualClock);
    if (running) market.prepareAll();
    // Several instances on PostgreSQL: the price leader is the trading writer (its books
    // match the orders); otherwise a Redis lease of its own.
    const role = api.hasDecorator("writer") && api.writer.role.clustered ? api.writer.role : undefined;
    const leader =
      role === undefined
        ? undefined
        : {
            get isLeader() {
              return role.isWriter || role.state === "promoting";
            },
            onChange: (listener: () => void) => role.onChange(listener),
          };
    const cluster = platform.redis
      ? new MarketCluster(platform.redis, market, api.log, leader === undefined ? {} : { leader })
      : undefined;
    if (cluster) await cluster.start();
    else market.startFeed(undefined, { catchUp: running });
    api.addHook("preClose", async () => {
      hub.close();
      await cluster?.stop();
      market.stopFeedLoop();
    });
  };
}

/** The module entry for `src/modules/index.ts` (config from the environment). */
export const marketRoutes = marketModule();
