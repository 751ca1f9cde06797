import type { KlineIntervalValue } from "@meridian/contracts";
import {
  asAsset,
  asSymbol,
  type Bar,
  KLINE_INTERVALS,
  type ListedInstrument,
  listInstruments,
  MARKET_LISTINGS,
  type MarketListing,
} from "@meridian/domain";
import type { Exchange, Market, OrderBook, Trade } from "ccxt";
import { ConfigError } from "../../platform/config.ts";
import { chainBars, type FetchedBar, numberToUnits } from "./ccxt-bars.ts";
import type { MarketClock } from "./clock.ts";
import type { FeedBook, FeedStartOptions, FeedTrade, MarketFeed } from "./feed.ts";

/** Exchanges documented and tested (docs/operations.md); ccxt.pro's others may work too. */
export const DOCUMENTED_EXCHANGES = ["binance", "okx", "bybit", "bitget"] as const;
/** Levels per side kept from the exchange's book. */
export const MIRROR_DEPTH = 50;
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** How long a resync waits for the exchange to confirm an unsubscription. */
const UNWATCH_TIMEOUT_MS = 5_000;
/** Funding rates change slowly; their REST call is repeated this often. */
const FUNDING_POLL_MS = 60_000;
/** After a funding time, the exchange is asked for the next interval this much later. */
const SETTLED_POLL_DELAY_MS = 1_000;

/** One-minute candles backfilled: the 24 h ticker's 1,440 and some margin. */
const MINUTES_KEPT = 1_500;
const CHART_INTERVALS: readonly KlineIntervalValue[] = ["1m", "5m", "15m", "30m", "1h", "4h", "1d"];

type ExchangeClass = new (config?: Record<string, unknown>) => Exchange;

export interface CcxtLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface OpenCcxtOptions {
  exchange: string;
  /** MARKET_SYMBOLS: the exact list (each must be listed on the exchange), or undefined. */
  symbols: readonly string[] | undefined;
  /** MARKET_FEED_URL: replaces the origin of every REST and WebSocket URL. */
  url: string | undefined;
  /** Perpetual symbols to follow for marks and funding (those the futures module lists). */
  perps: readonly string[];
  /**
   * More pairs to mirror where the exchange lists them (the tokens of listed airdrops),
   * with their names and supplies; ignored when `symbols` is set. One log line names
   * those the exchange does not list.
   */
  extra?: readonly MarketListing[];
  clock: MarketClock;
  log: CcxtLog;
  /** Limits loadMarkets (the `auto` probe); unset waits as long as ccxt does. */
  timeoutMs?: number;
}

/**
 * Whether `err` is an error the exchange sent on a connection that stays open (Bitget's
 * answer to a subscription it cannot serve rejects every watch on it), as opposed to a lost
 * connection (ccxt subscribes anew on the next one), a checksum failure (ccxt has
 * unsubscribed that book itself) or the feed being closed.
 */
async function isExchangeSaid(err: unknown): Promise<boolean> {
  const { ExchangeError, ExchangeClosedByUser } = (await import("ccxt")).default;
  return err instanceof ExchangeError && !(err instanceof ExchangeClosedByUser);
}

/** ccxt.pro's exchange classes by id; a ConfigError naming the valid ids for another. */
async function exchangeClass(id: string): Promise<ExchangeClass> {
  const ccxt = (await import("ccxt")).default;
  const pro = ccxt.pro as unknown as Record<string, ExchangeClass | undefined> & { exchanges: string[] };
  const ids = pro.exchanges;
  const cls = pro[id];
  if (!ids.includes(id) || cls === undefined)
    throw new ConfigError(`MARKET_FEED: unknown exchange ${id}; valid: ${ids.join(", ")}`);
  return cls;
}

/**
 * Points every URL of `urls.api` (REST and WebSocket, nested) at `base`, keeping paths:
 * `https://api.bitget.com` becomes `http://127.0.0.1:4000`, `wss://ws.bitget.com/v2/ws/public`
 * becomes `ws://127.0.0.1:4000/v2/ws/public`.
 */
export function pointUrls(api: unknown, base: string): unknown {
  const u = new URL(base);
  const secure = u.protocol === "https:";
  const swap = (text: string): string =>
    text.replace(/^(https?|wss?):\/\/[^/]+/, (_m, scheme: string) => {
      const ws = scheme.startsWith("ws");
      return `${ws ? (secure ? "wss" : "ws") : secure ? "https" : "http"}://${u.host}`;
    });
  if (typeof api === "string") return swap(api);
  if (api === null || typeof api !== "object") return api;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(api)) out[k] = pointUrls(v, base);
  return out;
}

function withTimeout<T>(p: Promise<T>, ms: number | undefined, what: string): Promise<T> {
  if (ms === undefined) return p;
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

/** What `guardWatches` uses of a ccxt.pro WebSocket client. */
interface WsClient {
  future(messageHash: string): Promise<unknown>;
}

/**
 * Gives every watch future of `ex` a rejection handler. NOTE: ccxt 4.5.84's `Future.race`
 * (every `watch*ForSymbols`) stops subscribing at the first future already settled, so the
 * other symbols' futures of that call are left without one; a later rejection of one of
 * them (its book failing a checksum, an exchange error event rejecting every watch on the
 * connection) was an unhandled rejection, which ends the process. The watchers still see
 * every rejection: they subscribe to the same futures.
 */
export function guardWatches(ex: Exchange): void {
  const target = ex as unknown as { client(url: string): WsClient };
  const client = target.client.bind(ex);
  const guarded = new WeakSet<WsClient>();
  target.client = (url: string) => {
    const c = client(url);
    if (!guarded.has(c)) {
      guarded.add(c);
      const future = c.future.bind(c);
      c.future = (messageHash: string) => {
        const f = future(messageHash);
        f.catch(() => undefined);
        return f;
      };
    }
    return c;
  };
}

/** A step of the exchange's precision (TICK_SIZE mode) or its digits (DECIMAL_PLACES) as a decimal. */
function stepOf(ex: Exchange, precision: number | undefined): string | undefined {
  if (precision === undefined || !(precision > 0)) return undefined;
  // ccxt's TICK_SIZE is 4; DECIMAL_PLACES is 2 (precision is then a digit count).
  if (ex.precisionMode === 4) return ex.numberToString(precision);
  return ex.numberToString(10 ** -Math.round(precision));
}

interface Followed {
  readonly symbol: string;
  readonly ccxtSymbol: string;
  readonly inst: ListedInstrument;
}

/**
 * The trades of one symbol not heard before. A resubscription (after a gap) may deliver
 * the exchange's recent trades again (Bitget's trade channel opens with a snapshot);
 * resting orders fill from trades (`QueuedOrder`), so each may count once only. Trades
 * older than the newest heard are dropped, and at the newest time those whose id was heard.
 */
export class NewTrades {
  private time = Number.NEGATIVE_INFINITY;
  private ids = new Set<string>();

  /** True for a trade not heard before (and remembers it). */
  admit(time: number, id: string | undefined): boolean {
    if (time < this.time) return false;
    if (time > this.time) {
      this.time = time;
      this.ids = new Set();
    } else if (id !== undefined && this.ids.has(id)) return false;
    if (id !== undefined) this.ids.add(id);
    return true;
  }
}

/**
 * Mirrors a public exchange through ccxt's WebSocket classes: each symbol's order book
 * (ccxt keeps it in sync with the exchange's snapshots, sequence numbers and checksums;
 * the top 50 levels are handed on), its trades, and the perpetuals' marks and funding.
 * History comes from `fetchOHLCV` for every chart interval before the feed starts.
 */
export class CcxtFeed implements MarketFeed {
  readonly name: string;
  readonly mirrorsBooks = true;
  readonly symbols: readonly string[];
  private readonly ex: Exchange;
  private readonly followed: readonly Followed[];
  private readonly perps: ReadonlyMap<string, string>;
  private readonly bars = new Map<string, readonly Bar[]>();
  private readonly o: OpenCcxtOptions;
  /** ccxt's decimal text of a number it parsed (the slow path of `numberToUnits`). */
  private readonly text = (n: number): string => this.ex.numberToString(n);

  private constructor(
    o: OpenCcxtOptions,
    ex: Exchange,
    followed: readonly Followed[],
    perps: ReadonlyMap<string, string>,
  ) {
    this.o = o;
    this.ex = ex;
    this.name = `ccxt:${o.exchange}`;
    this.followed = followed;
    this.symbols = followed.map((f) => f.symbol);
    this.perps = perps;
  }

  /** Loads the exchange's markets and the chart history; throws ConfigError on a bad id or symbol. */
  static async open(o: OpenCcxtOptions): Promise<CcxtFeed> {
    const Cls = await exchangeClass(o.exchange);
    const ex = new Cls({ enableRateLimit: true, timeout: o.timeoutMs ?? 10_000 });
    guardWatches(ex);
    if (o.url !== undefined) {
      ex.urls = { ...ex.urls, api: pointUrls(ex.urls.api, o.url) as Exchange["urls"]["api"] };
      // Plain ws:// needs ccxt's agent set up first (it refuses otherwise).
      if (o.url.startsWith("http:")) await ex.loadHttpProxyAgent();
    }
    if (o.exchange === "bitget") ex.options = { ...ex.options, uta: false };
    const markets = await withTimeout(ex.loadMarkets(), o.timeoutMs, o.exchange);
    const spot = new Map<string, Market>();
    for (const m of Object.values(markets)) {
      if (m?.spot === true && m.active !== false && m.quote === "USDT") spot.set(`${m.base}${m.quote}`, m);
    }
    const extra = new Map(
      (o.symbols === undefined ? (o.extra ?? []) : []).map((l) => [l.instrument.symbol as string, l]),
    );
    const builtIns = MARKET_LISTINGS.map((l) => l.instrument.symbol as string);
    const wanted = o.symbols ?? [...new Set([...builtIns, ...extra.keys()])];
    const absent: string[] = [];
    const unknown = o.symbols?.filter((s) => !spot.has(s)) ?? [];
    if (unknown.length > 0)
      throw new ConfigError(
        `MARKET_SYMBOLS: ${unknown.join(", ")} not on ${o.exchange}; valid: ${[...spot.keys()].sort().join(", ")}`,
      );
    const followed: Followed[] = [];
    for (const symbol of wanted) {
      const m = spot.get(symbol);
      if (m === undefined) {
        if (builtIns.includes(symbol))
          o.log.warn({ symbol, exchange: o.exchange }, "market: pair not on the exchange, left out");
        else absent.push(symbol);
        continue;
      }
      const inst = listingOf(ex, symbol, m, extra.get(symbol));
      if (inst === undefined) {
        o.log.warn({ symbol }, "market: the exchange's filters do not fit, left out");
        continue;
      }
      followed.push({ symbol, ccxtSymbol: m.symbol, inst });
    }
    if (absent.length > 0)
      o.log.info(
        { symbols: absent, exchange: o.exchange },
        "market: airdrop token pairs the exchange does not list",
      );
    const perps = new Map<string, string>();
    for (const p of o.perps) {
      // USDT-M BTCUSDT is ccxt's BTC/USDT:USDT; coin-M BTCUSD its inverse BTC/USD:BTC.
      const id = p.endsWith("USDT")
        ? `${p.slice(0, -4)}/USDT:USDT`
        : p.endsWith("USD")
          ? `${p.slice(0, -3)}/USD:${p.slice(0, -3)}`
          : p;
      if (markets[id]?.swap === true) perps.set(p, id);
    }
    const feed = new CcxtFeed(o, ex, followed, perps);
    await feed.backfill();
    return feed;
  }

  /** The listed pairs with the exchange's filters (the market lists these instead of the built-ins). */
  get instruments(): readonly ListedInstrument[] {
    return this.followed.map((f) => f.inst);
  }

  async gapBars(symbol: string, from: number, to: number): Promise<readonly Bar[]> {
    const f = this.followed.find((x) => x.symbol === symbol);
    if (f === undefined) return [];
    const rows: FetchedBar[] = [];
    const s = (n: number | undefined) => this.ex.numberToString(n ?? 0);
    // Pages of 1,000 minutes up to the gap's end: two at most (the 1m series keeps about a day).
    for (let since = from, page = 0; since < to && page < 2; page++) {
      const got = await this.ex.fetchOHLCV(f.ccxtSymbol, "1m", since, 1000).catch((err: unknown) => {
        this.o.log.warn({ err: String(err), symbol }, "market: the gap's history unavailable");
        return [];
      });
      for (const [t, open, high, low, close, volume] of got) {
        if (t === undefined || t >= to || open === undefined || close === undefined) continue;
        rows.push({ time: t, open: s(open), high: s(high), low: s(low), close: s(close), volume: s(volume) });
      }
      const last = got[got.length - 1]?.[0];
      if (last === undefined || got.length < 1000) break;
      since = last + 60_000;
    }
    return chainBars(f.inst.spec, new Map([[60_000, rows]]));
  }

  private async backfill(): Promise<void> {
    await Promise.all(
      this.followed.map(async (f) => {
        const fetched = new Map<number, FetchedBar[]>();
        for (const interval of CHART_INTERVALS) {
          const ms = KLINE_INTERVALS[interval];
          const fetch = (since: number | undefined) =>
            this.ex.fetchOHLCV(f.ccxtSymbol, interval, since, 1000).catch((err: unknown) => {
              this.o.log.warn(
                { err: String(err), symbol: f.symbol, interval },
                "market: history unavailable",
              );
              return [];
            });
          let rows = await fetch(undefined);
          // The 24 h ticker reads one-minute candles: a day and a bit of them, in two calls.
          const first = rows[0]?.[0];
          if (interval === "1m" && first !== undefined && first > this.o.clock.now() - MINUTES_KEPT * ms)
            rows = [...(await fetch(first - (MINUTES_KEPT - rows.length) * ms)), ...rows];
          const byTime = new Map(rows.map((r) => [r[0], r]));
          fetched.set(
            ms,
            [...byTime.values()].flatMap((r) => {
              const [t, open, high, low, close, volume] = r;
              if (t === undefined || open === undefined || high === undefined || low === undefined) return [];
              if (close === undefined) return [];
              const s = (n: number | undefined) => this.ex.numberToString(n ?? 0);
              return [
                { time: t, open: s(open), high: s(high), low: s(low), close: s(close), volume: s(volume) },
              ];
            }),
          );
        }
        this.bars.set(f.symbol, chainBars(f.inst.spec, fetched));
      }),
    );
  }

  history(symbol: string): readonly Bar[] {
    return this.bars.get(symbol) ?? [];
  }

  /** A live feed continues from the exchange, never from a local price. */
  anchor(): void {}

  /**
   * One subscription per stream for every symbol at once (`watch*ForSymbols`): a few
   * messages at start and at each reconnection, within the exchanges' per-connection
   * message limits without ccxt's WebSocket throttle (whose send after a closed socket is
   * an unhandled rejection in ccxt 4.5.84, which would end the process).
   */
  start(sink: (trades: readonly FeedTrade[]) => void, options: FeedStartOptions = {}): () => void {
    let running = true;
    const isRunning = () => running;
    this.ex.enableRateLimit = false;
    const bySymbol = new Map(this.followed.map((f) => [f.ccxtSymbol, f]));
    const ids = this.followed.map((f) => f.ccxtSymbol);
    const heard = new Map(this.followed.map((f) => [f.ccxtSymbol, new NewTrades()]));
    const allDown = () => {
      const books = this.ex.orderbooks as Record<string, OrderBook | undefined>;
      for (const f of this.followed) {
        delete books[f.ccxtSymbol];
        options.down?.(f.symbol);
      }
    };
    // The book subscriptions outlive an error the exchange sent on an open connection, and
    // their next deltas would land on the emptied books (a checksum over the top levels can
    // even pass): unsubscribed, the next watch subscribes again and starts from a snapshot.
    const booksLost = async (err: unknown) => {
      allDown();
      if (await isExchangeSaid(err))
        await withTimeout(this.unwatchBooks(ids), UNWATCH_TIMEOUT_MS, "unsubscribe").catch(() => undefined);
    };
    // One resolution may stand for several symbols' messages (ccxt resolves the shared
    // future once per turn), so every book ccxt changed since the last pass is handed on.
    const seen = new Map<string, number | undefined>();
    this.loop(isRunning, "books", booksLost, async () => {
      const resolved = await this.ex.watchOrderBookForSymbols(ids);
      if (!running) return;
      const books = this.ex.orderbooks as Record<string, OrderBook | undefined>;
      for (const f of this.followed) {
        const ob = books[f.ccxtSymbol];
        if (ob === undefined) continue;
        if (ob !== resolved && seen.has(f.ccxtSymbol) && seen.get(f.ccxtSymbol) === ob.timestamp) continue;
        seen.set(f.ccxtSymbol, ob.timestamp);
        options.book?.(this.book(f, ob));
      }
    });
    // The trades of every message ccxt delivers in one loop turn (a socket read holds
    // several) go to the sink as one batch: each batch is a market update that the paper
    // and futures modules re-check fills and marks on, so one per message cost as much
    // again as the trades themselves.
    let batch: FeedTrade[] = [];
    const flush = () => {
      const out = batch;
      batch = [];
      if (running && out.length > 0) sink(out);
    };
    this.loop(isRunning, "trades", allDown, async () => {
      const trades = await this.ex.watchTradesForSymbols(ids);
      if (!running) return;
      const first = batch.length === 0;
      for (const t of trades) {
        const f = t.symbol === undefined ? undefined : bySymbol.get(t.symbol);
        if (f === undefined) continue;
        if (heard.get(f.ccxtSymbol)?.admit(t.timestamp ?? this.o.clock.now(), t.id) !== true) continue;
        const trade = this.trade(f, t);
        if (trade !== undefined) batch.push(trade);
      }
      if (first && batch.length > 0) this.o.clock.soon(flush);
    });
    const stopPerps =
      this.perps.size > 0 && options.perp !== undefined ? this.followPerps(isRunning, options) : undefined;
    return () => {
      flush();
      running = false;
      stopPerps?.();
      void this.ex.close().catch(() => undefined);
    };
  }

  /**
   * Runs one watch until stopped; a failure calls `lost` (the symbols are down and ccxt's
   * copies of their books dropped, so the next subscription starts from a fresh snapshot)
   * and retries with doubling, jittered backoff. Logged once per episode.
   */
  private loop(
    running: () => boolean,
    what: string,
    lost: (err: unknown) => void | Promise<void>,
    step: () => Promise<void>,
  ): void {
    void (async () => {
      let backoff = FIRST_BACKOFF_MS;
      let failing = false;
      while (running()) {
        try {
          await step();
          if (failing) this.o.log.info({ exchange: this.o.exchange, what }, "market: feed back");
          failing = false;
          backoff = FIRST_BACKOFF_MS;
        } catch (err) {
          if (!running()) return;
          if (!failing)
            this.o.log.warn(
              { err: String(err), exchange: this.o.exchange, what },
              "market: feed lost, resyncing",
            );
          failing = true;
          await lost(err);
          await new Promise((r) => setTimeout(r, backoff + Math.floor(Math.random() * (backoff / 4))));
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        }
      }
    })();
  }

  /**
   * Ends the book subscriptions of `ids`: one message for all where ccxt has it (binance,
   * okx, bybit), else one per symbol (bitget, whose `has` does not list it); an exchange
   * with neither rejects with NotSupported and resyncs on the next checksum failure.
   */
  private async unwatchBooks(ids: string[]): Promise<void> {
    if (this.ex.has.unWatchOrderBookForSymbols === true) await this.ex.unWatchOrderBookForSymbols(ids);
    else await Promise.all(ids.map((id) => this.ex.unWatchOrderBook(id)));
  }

  private followPerps(running: () => boolean, options: FeedStartOptions): () => void {
    const text = (n: number | undefined) => (n === undefined ? undefined : this.ex.numberToString(n));
    // Polled each minute, and again just after a settlement, when the new interval's
    // rate and next time are known (a stale next time would leave funding unscheduled).
    let soon: NodeJS.Timeout | undefined;
    const poll = async () => {
      let next: number | undefined;
      for (const [symbol, id] of this.perps) {
        if (!running()) return;
        const r = await this.ex.fetchFundingRate(id).catch(() => undefined);
        if (r === undefined) continue;
        const t = r.fundingTimestamp ?? undefined;
        if (t !== undefined && t > this.o.clock.now() && (next === undefined || t < next)) next = t;
        options.perp?.({
          symbol,
          mark: text(r.markPrice),
          index: text(r.indexPrice),
          fundingRate: text(r.fundingRate),
          nextFundingTime: r.fundingTimestamp ?? undefined,
          time: this.o.clock.now(),
        });
      }
      if (soon !== undefined) clearTimeout(soon);
      if (next !== undefined && next - this.o.clock.now() < FUNDING_POLL_MS) {
        soon = setTimeout(() => void safePoll(), next - this.o.clock.now() + SETTLED_POLL_DELAY_MS);
        soon.unref();
      }
    };
    // A failed poll (a sink that throws) is logged, never left to reject unhandled.
    const safePoll = () =>
      poll().catch((err: unknown) =>
        this.o.log.warn({ err: String(err), exchange: this.o.exchange }, "market: funding poll failed"),
      );
    void safePoll();
    const timer = setInterval(() => void safePoll(), FUNDING_POLL_MS);
    timer.unref();
    const bySymbol = new Map([...this.perps].map(([symbol, id]) => [id, symbol]));
    // Linear and inverse contracts are separate products on the exchanges (Bitget's
    // USDT-FUTURES and COIN-FUTURES): one ticker stream each.
    const all = [...this.perps.values()];
    const groups = [all.filter((id) => id.endsWith(":USDT")), all.filter((id) => !id.endsWith(":USDT"))];
    for (const ids of groups.filter((g) => g.length > 0))
      this.followPerpTickers(running, options, ids, bySymbol);
    return () => {
      clearInterval(timer);
      if (soon !== undefined) clearTimeout(soon);
    };
  }

  /** One stream of perpetual tickers (marks and index) for `ids`, all of one product. */
  private followPerpTickers(
    running: () => boolean,
    options: FeedStartOptions,
    ids: string[],
    bySymbol: ReadonlyMap<string, string>,
  ): void {
    const text = (n: number | undefined) => (n === undefined ? undefined : this.ex.numberToString(n));
    this.loop(
      running,
      "perp tickers",
      () => undefined,
      async () => {
        // Mark-price streams where ccxt has them (binance, okx); their tickers lack the mark.
        const tickers =
          this.ex.has.watchMarkPrices === true
            ? await this.ex.watchMarkPrices(ids)
            : await this.ex.watchTickers(ids);
        for (const t of Object.values(tickers)) {
          const symbol = t.symbol === undefined ? undefined : bySymbol.get(t.symbol);
          if (symbol === undefined || !running()) continue;
          // Some ccxt.pro classes (bitget's) leave a perpetual's mark and index in `info` only.
          const info = (t.info ?? {}) as Record<string, unknown>;
          const raw = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
          options.perp?.({
            symbol,
            mark: text(t.markPrice) ?? raw(info.markPrice),
            index: text(t.indexPrice) ?? raw(info.indexPrice),
            fundingRate: undefined,
            nextFundingTime: undefined,
            time: this.o.clock.now(),
          });
        }
      },
    );
  }

  private book(f: Followed, ob: OrderBook): FeedBook {
    const spec = f.inst.spec;
    const text = this.text;
    const side = (levels: ReadonlyArray<ReadonlyArray<number | undefined>>, up: boolean) => {
      const out: Array<[number, number]> = [];
      for (const level of levels) {
        if (out.length >= MIRROR_DEPTH) break;
        const p = level[0];
        const q = level[1];
        if (p === undefined || q === undefined) continue;
        const ticks = numberToUnits(p, spec.priceDecimals, spec.tickUnits, up ? "up" : "down", text);
        const lots = numberToUnits(q, spec.qtyDecimals, spec.lotUnits, "down", text);
        if (ticks <= 0 || lots <= 0) continue;
        const last = out[out.length - 1];
        if (last !== undefined && last[0] === ticks) last[1] += lots;
        else out.push([ticks, lots]);
      }
      return out;
    };
    return {
      symbol: f.symbol,
      time: ob.timestamp ?? this.o.clock.now(),
      bids: side(ob.bids, false),
      asks: side(ob.asks, true),
    };
  }

  private trade(f: Followed, t: Trade): FeedTrade | undefined {
    const spec = f.inst.spec;
    if (t.price === undefined || t.amount === undefined) return undefined;
    const price = numberToUnits(t.price, spec.priceDecimals, spec.tickUnits, "nearest", this.text);
    const qty = numberToUnits(t.amount, spec.qtyDecimals, spec.lotUnits, "down", this.text);
    if (price <= 0) return undefined;
    return {
      symbol: f.symbol,
      time: t.timestamp ?? this.o.clock.now(),
      price,
      qty: Math.max(1, qty),
      buyerMaker: t.side === "sell",
    };
  }
}

/** The pair with the exchange's tick, lot, minimum quantity and notional; names from the built-ins. */
function listingOf(
  ex: Exchange,
  symbol: string,
  m: NonNullable<Market>,
  extra?: MarketListing,
): ListedInstrument | undefined {
  const tickSize = stepOf(ex, m.precision.price);
  const lotSize = stepOf(ex, m.precision.amount);
  if (tickSize === undefined || lotSize === undefined) return undefined;
  const builtIn = MARKET_LISTINGS.find((l) => l.instrument.symbol === symbol) ?? extra;
  const minQty = m.limits.amount?.min;
  const minCost = m.limits.cost?.min;
  const listing: MarketListing = {
    instrument: {
      symbol: asSymbol(symbol),
      base: asAsset(m.base),
      quote: asAsset(m.quote),
      tickSize,
      lotSize,
      minNotional: minCost === undefined ? "0" : ex.numberToString(minCost),
      ...(minQty === undefined ? {} : { minQty: ex.numberToString(minQty) }),
    },
    name: builtIn?.name ?? m.base,
    refPrice: builtIn?.refPrice ?? tickSize,
    circulatingSupply: builtIn?.circulatingSupply ?? "0",
    dailyQuoteVolume: builtIn?.dailyQuoteVolume ?? 1_000_000,
    model: builtIn?.model ?? { annualVol: 0.8 },
  };
  const r = listInstruments([listing]);
  return r.ok ? r.value[0] : undefined;
}
