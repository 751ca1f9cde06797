import { ALL_PERP_CONTRACTS, listInstruments, MARKET_LISTINGS, type MarketListing } from "@meridian/domain";
import type { FastifyInstance } from "fastify";
import { ConfigError } from "../../platform/config.ts";
import type { Platform } from "../../platform/platform.ts";
import type { Writer } from "../writer/index.ts";
import { CcxtFeed, type CcxtLog } from "./ccxt-feed.ts";
import { ManualClock, type MarketClock, systemClock } from "./clock.ts";
import { MarketCluster } from "./cluster.ts";
import { feedExchange, loadMarketConfig, type MarketConfig } from "./config.ts";
import type { MarketFeed } from "./feed.ts";
import { ModelFeed } from "./model-feed.ts";
import { loadCandleFiles, ReplayFeed } from "./replay-feed.ts";
import { marketHttpRoutes } from "./routes.ts";
import { MarketService } from "./service.ts";
import { MarketStreamHub, type WsSocket } from "./ws.ts";

export { CcxtFeed } from "./ccxt-feed.ts";
export type { MarketClock } from "./clock.ts";
export { ManualClock, systemClock } from "./clock.ts";
export { type ClusterMarket, MarketCluster } from "./cluster.ts";
export { loadMarketConfig } from "./config.ts";
export type { FeedBook, FeedSink, FeedTrade, MarketFeed, PerpQuote } from "./feed.ts";
export { MAKER_ACCOUNT, MAKER_ID_BASE, MakerBook } from "./maker-book.ts";
export { ModelFeed } from "./model-feed.ts";
export { ReplayFeed } from "./replay-feed.ts";
export type { FeedState, FeedStatus, MarketListener, MarketUpdate } from "./service.ts";
export { MarketService, STALE_AFTER_MS } from "./service.ts";

export interface CreateMarketOptions {
  config?: MarketConfig;
  /** Default: the system clock, or a paused manual clock when the config says paused. */
  clock?: MarketClock;
  /** Replaces the feed chosen by the config. */
  feed?: MarketFeed;
  /** Pairs listed beside the built-in ones (a symbol already listed keeps the built-in pair). */
  extraListings?: readonly MarketListing[];
  /** Where a live feed logs its choice and its outages. */
  log?: CcxtLog;
}

const LIVE_DEPTH_FLUSH_MS = 20;

/** How long `MARKET_FEED=auto` waits for the live exchange before it runs the model. */
export const AUTO_TIMEOUT_MS = 3_000;

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

const quietLog: CcxtLog = { info() {}, warn() {} };

/**
 * A live feed for `ccxt:<id>` (failures propagate: the server refuses to start), or for
 * `auto` the live exchange when it answers within 3 s, else undefined (the model).
 */
async function liveFeed(
  config: MarketConfig,
  clock: MarketClock,
  log: CcxtLog,
  extra: readonly MarketListing[],
): Promise<CcxtFeed | undefined> {
  const exchange = feedExchange(config.feed);
  if (exchange === undefined) return undefined;
  const auto = config.feed === "auto";
  const open = () =>
    CcxtFeed.open({
      exchange,
      symbols: config.symbols,
      url: config.feedUrl,
      // USDT-M and coin-M: the inverse contracts' tickers are a stream of their own.
      perps: ALL_PERP_CONTRACTS.map((c) => c.symbol),
      extra,
      clock,
      log,
      ...(auto ? { timeoutMs: AUTO_TIMEOUT_MS } : {}),
    });
  if (!auto) return await open();
  try {
    return await open();
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    log.warn({ err: String(err), exchange }, "market: Simulated market (no live exchange answered)");
    return undefined;
  }
}

/** Builds the market service from config (not started: see `marketRoutes`). */
export async function createMarket(options: CreateMarketOptions = {}): Promise<MarketService> {
  const config = options.config ?? loadMarketConfig();
  const clock = options.clock ?? (config.paused ? new ManualClock(Date.now()) : systemClock);
  const live =
    options.feed === undefined
      ? await liveFeed(config, clock, options.log ?? quietLog, options.extraListings ?? [])
      : undefined;
  if (live !== undefined) {
    options.log?.info(
      { feed: live.name, symbols: live.symbols.length },
      `market: Live prices from ${live.name.slice(5)}`,
    );
    return new MarketService({ instruments: live.instruments, feed: live, clock, seed: config.seed });
  }
  if (options.feed === undefined) options.log?.info({ feed: config.feed }, "market: Simulated market");
  const listed = listInstruments(withExtra(options.extraListings ?? []));
  if (!listed.ok) throw new Error(`market listings: ${listed.error.code} ${listed.error.field}`);
  const instruments = listed.value;
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
  /** The trading writer (several instances: the price leader is the writer); absent: none. */
  writer?: Writer | undefined;
}

/**
 * The market module: REST under `/v1/market/*`, the `/v1/ws/market` stream, the feed
 * (single process) or the Redis leader/follower pair (REDIS_URL set). Decorates the
 * scope with `market` so modules listed after it can read prices and the books.
 */
export async function registerMarket(
  api: FastifyInstance,
  platform: Platform,
  options: MarketModuleOptions = {},
): Promise<MarketService> {
  const extraListings = [
    ...(options.extraListings ?? []),
    ...((await options.listingSource?.(platform).catch((err: unknown) => {
      api.log.warn({ err }, "market: extra listings unavailable");
      return [];
    })) ?? []),
  ];
  const market = options.market ?? (await createMarket({ log: api.log, ...options, extraListings }));
  api.decorate("market", market);
  marketHttpRoutes(api, market);
  // A live book moves many times a second: its pushes wait 20 ms at most, not 250.
  const hub = new MarketStreamHub(market, market.mirrors ? { depthFlushMs: LIVE_DEPTH_FLUSH_MS } : {});
  api.get("/v1/ws/market", { websocket: true }, (socket) => hub.attach(socket as WsSocket));

  // On a running clock every symbol is built and caught up before the server
  // answers anyone (a paused clock never ticks: its symbols stay lazy, tests start faster).
  const running = !(market.clock instanceof ManualClock);
  if (running) market.prepareAll();
  // Several instances on PostgreSQL: the price leader is the trading writer (its books
  // match the orders); otherwise a Redis lease of its own.
  const role = options.writer?.role.clustered === true ? options.writer.role : undefined;
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
  return market;
}

/** The market module as a list entry (`registerMarket`). */
export function marketModule(options: MarketModuleOptions = {}) {
  return async function marketRoutes(api: FastifyInstance, platform: Platform): Promise<void> {
    await registerMarket(api, platform, options);
  };
}

/** The module entry for `src/modules/index.ts` (config from the environment). */
export const marketRoutes = marketModule();
