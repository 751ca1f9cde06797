import type {
  Depth,
  Kline,
  KlineIntervalValue,
  MarketCap,
  MarketSymbolInfo,
  MarketTrade,
  Ticker,
} from "@meridian/contracts";
import {
  CandleSeries,
  formatNotional,
  formatTicker,
  INTERVAL_LIST,
  type InstrumentSpec,
  KLINE_INTERVALS,
  type KlineInterval,
  type ListedInstrument,
  lotsToQty,
  marketCap,
  notionalMinor,
  RingBuffer,
  RollingTicker,
  ticksToPrice,
  tradeBar,
} from "@meridian/domain";
import type { MarketClock } from "./clock.ts";
import type { FeedBook, FeedTrade, MarketFeed, PerpQuote } from "./feed.ts";
import { MakerBook } from "./maker-book.ts";
import { lotsPerMinute } from "./model-feed.ts";

/** Candles kept per interval (1m holds the 24 h ticker window plus margin). */
const CAPACITY: Record<KlineInterval, number> = {
  "1m": 1600,
  "5m": 1000,
  "15m": 1000,
  "30m": 1000,
  "1h": 1000,
  "4h": 1000,
  "1d": 1000,
};
const TRADES_KEPT = 500;

interface StoredTrade {
  readonly id: number;
  readonly time: number;
  readonly price: number;
  readonly qty: number;
  readonly buyerMaker: boolean;
}

interface SymbolState {
  readonly inst: ListedInstrument;
  readonly spec: InstrumentSpec;
  readonly series: Map<KlineInterval, CandleSeries>;
  readonly ticker: RollingTicker;
  readonly trades: RingBuffer<StoredTrade>;
  readonly maker: MakerBook;
  nextTradeId: number;
  last: number;
  lastTime: number;
  /** The feed lost the symbol after the trade at this time; no trade heard since. */
  gapFrom?: number | undefined;
  /** A mirrored book not yet quoted in `maker` (see `applyBook`). */
  pending?: FeedBook | undefined;
}

const MINUTE = 60_000;

/** What one applied batch changed, for the stream hub. */
export interface MarketUpdate {
  /** Symbols that traded, with their new trades (time order). */
  readonly trades: ReadonlyMap<string, readonly MarketTrade[]>;
}

export type MarketListener = (update: MarketUpdate) => void;

/** A symbol's book with no update for this long is stale: no new orders, nothing fills against it. */
export const STALE_AFTER_MS = 5_000;

export type FeedState = "live" | "stale" | "down";

export interface FeedStatus {
  readonly feed: string;
  readonly live: boolean;
  readonly bookUpdates: number;
  readonly symbols: ReadonlyArray<{ symbol: string; state: FeedState; ageMs: number }>;
}

interface Health {
  /** When the last book arrived (clock ms); 0 before the first. */
  lastBook: number;
  connected: boolean;
  /** The book is quoted in the maker (cleared while stale or down). */
  quoted: boolean;
  /** The exchange's time of the last book (its depth answers carry it). */
  bookTime: number;
  /** The exchange's levels as last mirrored: what everyone sees, without paper orders. */
  shown: FeedBook | undefined;
}

export interface MarketServiceOptions {
  instruments: readonly ListedInstrument[];
  feed: MarketFeed;
  clock: MarketClock;
  seed: number;
}

/**
 * Market data for every listed symbol: candles in ring buffers per interval (history
 * from the feed, then the live trades), rolling 24 h tickers, recent trades and the
 * order book with the maker's ladder around the last price. Symbols are built on first
 * use; memory is bounded by the ring buffer sizes.
 */
export class MarketService {
  readonly clock: MarketClock;
  private readonly o: MarketServiceOptions;
  private readonly states = new Map<string, SymbolState>();
  private readonly listeners = new Set<MarketListener>();
  private stopFeed: (() => void) | undefined;
  /** Per-symbol trades of feed batches not yet applied, an empty one after each batch (see `applyBySymbol`). */
  private readonly slices: FeedTrade[][] = [];
  /** What the batch being sliced has applied so far, for its one update. */
  private sliced = new Map<string, MarketTrade[]>();
  /** A mirroring (live) feed: its books are the maker's quotes and its health gates orders. */
  readonly mirrors: boolean;
  private readonly health = new Map<string, Health>();
  private readonly bookListeners = new Set<(symbol: string) => void>();
  private readonly perpQuotes = new Map<string, PerpQuote>();
  private stopWatchdog: (() => void) | undefined;
  /** Books a live feed delivered since start. */
  private bookUpdates = 0;

  constructor(options: MarketServiceOptions) {
    this.o = options;
    this.clock = options.clock;
    this.mirrors = options.feed.mirrorsBooks === true;
  }

  get feedName(): string {
    return this.o.feed.name;
  }

  /** Symbols in listing order. */
  get symbols(): readonly string[] {
    return this.o.instruments.map((i) => i.spec.symbol);
  }

  has(symbol: string): boolean {
    return this.o.instruments.some((i) => i.spec.symbol === symbol);
  }

  /**
   * Runs the feed into the market (the price leader, or a single process); `tap` sees
   * each batch first. `catchUp`: the trades due since the feed's epoch (up to a minute
   * of them per symbol) are applied now, in one go, rather than by the first tick while
   * the server is already answering.
   */
  startFeed(tap?: (trades: readonly FeedTrade[]) => void, options: { catchUp?: boolean } = {}): void {
    if (this.stopFeed) return;
    let starting = true;
    this.stopFeed = this.o.feed.start(
      (trades) => {
        tap?.(trades);
        if (starting) this.apply(trades);
        else this.applyBySymbol(trades);
      },
      {
        catchUp: options.catchUp === true,
        book: (b) => this.applyBook(b),
        down: (symbol) => this.feedDown(symbol),
        perp: (q) => this.applyPerp(q),
      },
    );
    starting = false;
    if (this.mirrors) this.stopWatchdog = this.clock.every(500, () => this.watchdog());
  }

  /* ------------------------------ a live feed's books and health ------------------------------ */

  private healthOf(symbol: string): Health {
    let h = this.health.get(symbol);
    if (h === undefined) {
      h = { lastBook: 0, connected: false, quoted: false, bookTime: 0, shown: undefined };
      this.health.set(symbol, h);
    }
    return h;
  }

  /**
   * A mirroring feed's book: the maker quotes it as it is; the symbol is live again.
   * While the maker's book holds only its own whole quotes (`MakerBook.pristine`: no
   * paper order, nothing taken) quoting is left until something reads the engine's book
   * (`book`, `depth`, `changedDepths`), which then quotes the latest book only: the
   * same quotes as quoting each in turn, at a fraction of the cost (the exchange sends
   * hundreds a second; the web's depth stream reads one per 20 ms).
   */
  applyBook(book: FeedBook): void {
    const s = this.state(book.symbol);
    if (s === undefined) return;
    const now = this.clock.now();
    if (s.maker.pristine) s.pending = book;
    else {
      s.pending = undefined;
      s.maker.mirror(book.bids, book.asks, now);
    }
    const h = this.healthOf(book.symbol);
    h.lastBook = now;
    h.bookTime = book.time;
    h.shown = book;
    h.connected = true;
    h.quoted = true;
    this.bookUpdates++;
    for (const l of this.bookListeners) l(book.symbol);
  }

  /** The feed lost the symbol: its quotes go until a fresh snapshot arrives. */
  feedDown(symbol: string): void {
    const s = this.states.get(symbol);
    if (s !== undefined && s.gapFrom === undefined && this.o.feed.gapBars !== undefined)
      s.gapFrom = s.lastTime;
    const h = this.healthOf(symbol);
    h.connected = false;
    this.withdraw(symbol, h);
  }

  private withdraw(symbol: string, h: Health): void {
    if (!h.quoted) return;
    h.quoted = false;
    h.shown = undefined;
    const s = this.states.get(symbol);
    if (s !== undefined) {
      s.pending = undefined;
      s.maker.clear(this.clock.now());
    }
    for (const l of this.bookListeners) l(symbol);
  }

  private watchdog(): void {
    for (const symbol of this.symbols) {
      const h = this.healthOf(symbol);
      if (h.quoted && this.feedState(symbol) !== "live") this.withdraw(symbol, h);
    }
  }

  /** `live` (orders accepted), `stale` (no book for 5 s) or `down` (disconnected, or never heard). */
  feedState(symbol: string): FeedState {
    if (!this.mirrors) return "live";
    const h = this.health.get(symbol);
    if (h === undefined || !h.connected || h.lastBook === 0) return "down";
    return this.clock.now() - h.lastBook > STALE_AFTER_MS ? "stale" : "live";
  }

  /** Whether new orders on the symbol may be taken (its market data is live). */
  tradable(symbol: string): boolean {
    return this.feedState(symbol) === "live";
  }

  status(): FeedStatus {
    const now = this.clock.now();
    return {
      feed: this.feedName,
      live: this.mirrors,
      bookUpdates: this.bookUpdates,
      symbols: this.symbols.map((symbol) => {
        const h = this.health.get(symbol);
        const since = this.mirrors ? (h?.lastBook ?? 0) : (this.states.get(symbol)?.lastTime ?? 0);
        return { symbol, state: this.feedState(symbol), ageMs: since === 0 ? -1 : Math.max(0, now - since) };
      }),
    };
  }

  /** The exchange's book as last mirrored (what everyone sees, without paper orders); undefined while unknown. */
  shownBook(symbol: string): FeedBook | undefined {
    return this.health.get(symbol)?.shown;
  }

  /** Called with the symbol after each book the feed mirrored (and when a book is withdrawn). */
  onBook(listener: (symbol: string) => void): () => void {
    this.bookListeners.add(listener);
    return () => this.bookListeners.delete(listener);
  }

  private applyPerp(q: PerpQuote): void {
    const prev = this.perpQuotes.get(q.symbol);
    this.perpQuotes.set(q.symbol, {
      symbol: q.symbol,
      mark: q.mark ?? prev?.mark,
      index: q.index ?? prev?.index,
      fundingRate: q.fundingRate ?? prev?.fundingRate,
      nextFundingTime: q.nextFundingTime ?? prev?.nextFundingTime,
      time: q.time,
    });
  }

  /** The exchange's mark, index and funding for a perpetual (live feeds only). */
  perpQuote(symbol: string): PerpQuote | undefined {
    return this.perpQuotes.get(symbol);
  }

  /**
   * Applies a feed batch one symbol per loop turn (`clock.soon`). Requoting every
   * symbol's maker ladder in one go holds the event loop for milliseconds each tick
   * (about 100 book operations per symbol), which is what an order arriving then
   * waits; between symbols, waiting requests run. Each symbol's trades stay in order,
   * a later batch is applied only after the earlier one, and the listeners still hear
   * one update per batch (after its last symbol), so per-update work (stops, marks,
   * risk passes) runs once per tick as before.
   */
  private applyBySymbol(trades: readonly FeedTrade[]): void {
    const bySymbol = new Map<string, FeedTrade[]>();
    for (const t of trades) {
      const list = bySymbol.get(t.symbol);
      if (list === undefined) bySymbol.set(t.symbol, [t]);
      else list.push(t);
    }
    if (bySymbol.size === 0) return;
    const idle = this.slices.length === 0;
    const slices = [...bySymbol.values()];
    slices.push([]);
    this.slices.push(...slices);
    if (idle) this.applyNextSlice();
  }

  private readonly applyNextSlice = (): void => {
    const slice = this.slices.shift();
    if (slice === undefined) return;
    this.applySlice(slice);
    if (this.slices.length > 0) this.clock.soon(this.applyNextSlice);
  };

  /** One symbol's trades; an empty slice ends a batch and tells the listeners. */
  private applySlice(slice: readonly FeedTrade[]): void {
    if (slice.length > 0) {
      this.applyQuietly(slice, this.sliced);
      return;
    }
    const update = this.sliced;
    this.sliced = new Map();
    this.notify(update);
  }

  /**
   * Builds every symbol now (history, candles, the maker's ladder) instead of on its
   * first trade. Built lazily, the feed's first tick builds them all at once and holds
   * the event loop for hundreds of milliseconds while the server is already answering.
   */
  prepareAll(): void {
    for (const symbol of this.symbols) this.state(symbol);
  }

  get feedRunning(): boolean {
    return this.stopFeed !== undefined;
  }

  stopFeedLoop(): void {
    this.stopFeed?.();
    this.stopFeed = undefined;
    this.stopWatchdog?.();
    this.stopWatchdog = undefined;
    // What the feed already printed is applied now, not dropped.
    for (const slice of this.slices.splice(0)) this.applySlice(slice);
  }

  /** Continues the local feed from the current prices (after following another instance). */
  anchorFeed(): void {
    for (const [symbol, s] of this.states) this.o.feed.anchor(symbol, s.last, s.lastTime);
  }

  /**
   * Test-only: prints one trade of `lots` (default one) at `ticks` now, as if the feed
   * had, and continues the feed's walk from that price. Local to this instance (a
   * follower's print is not published; use it on a single instance). False: an unknown
   * symbol.
   */
  printTrade(symbol: string, ticks: number, lots = 1): boolean {
    const s = this.state(symbol);
    if (s === undefined || ticks <= 0 || lots <= 0) return false;
    const time = Math.max(this.clock.now(), s.lastTime);
    this.apply([{ symbol, time, price: ticks, qty: lots, buyerMaker: ticks < s.last }]);
    this.o.feed.anchor(symbol, ticks, time);
    return true;
  }

  onUpdate(listener: MarketListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private state(symbol: string, anchorTicks?: number): SymbolState | undefined {
    const found = this.states.get(symbol);
    if (found) return found;
    const index = this.o.instruments.findIndex((i) => i.spec.symbol === symbol);
    const inst = this.o.instruments[index];
    if (inst === undefined) return undefined;
    const series = new Map<KlineInterval, CandleSeries>();
    for (const i of INTERVAL_LIST) series.set(i, new CandleSeries(KLINE_INTERVALS[i], CAPACITY[i]));
    const history = this.o.feed.history(symbol, anchorTicks);
    for (const bar of history) {
      for (const s of series.values()) if (s.intervalMs >= bar.span) s.apply(bar);
    }
    const lastBar = history[history.length - 1];
    const maker = new MakerBook({
      spec: inst.spec,
      seed: this.o.seed + index,
      touchLots: lotsPerMinute(inst) / 4,
    });
    const state: SymbolState = {
      inst,
      spec: inst.spec,
      series,
      ticker: new RollingTicker(),
      trades: new RingBuffer<StoredTrade>(TRADES_KEPT),
      maker,
      nextTradeId: 1,
      last: lastBar?.close ?? 0,
      lastTime: lastBar?.time ?? this.clock.now(),
    };
    this.states.set(symbol, state);
    if (state.last > 0 && !this.mirrors) maker.requote(state.last, this.clock.now());
    return state;
  }

  /** Applies trades (from the local feed or the leader), then tells the listeners. */
  apply(trades: readonly FeedTrade[]): void {
    this.notify(this.applyQuietly(trades, new Map()));
  }

  private notify(bySymbol: ReadonlyMap<string, readonly MarketTrade[]>): void {
    if (bySymbol.size === 0) return;
    const update: MarketUpdate = { trades: bySymbol };
    for (const l of this.listeners) l(update);
  }

  /** Applies trades and requotes the makers; adds the presented trades to `bySymbol`, tells no one. */
  private applyQuietly(
    trades: readonly FeedTrade[],
    bySymbol: Map<string, MarketTrade[]>,
  ): Map<string, MarketTrade[]> {
    const touched = new Set<SymbolState>();
    for (const t of trades) {
      const s = this.state(t.symbol, t.price);
      if (s === undefined || t.time < s.lastTime) continue;
      if (s.gapFrom !== undefined) {
        this.fillGap(s, s.gapFrom, t.time);
        s.gapFrom = undefined;
      }
      const quote = notionalMinor(s.spec, t.price, t.qty);
      const bar = tradeBar(t.time, t.price, t.qty, quote);
      for (const series of s.series.values()) series.apply(bar);
      const stored: StoredTrade = {
        id: s.nextTradeId++,
        time: t.time,
        price: t.price,
        qty: t.qty,
        buyerMaker: t.buyerMaker,
      };
      s.trades.push(stored);
      s.last = t.price;
      s.lastTime = t.time;
      touched.add(s);
      const list = bySymbol.get(t.symbol) ?? [];
      list.push(presentTrade(s.spec, stored));
      bySymbol.set(t.symbol, list);
    }
    const now = this.clock.now();
    if (!this.mirrors) for (const s of touched) s.maker.requote(s.last, now);
    return bySymbol;
  }

  /**
   * After an outage the series hold flat candles for the minutes no trade was heard in
   * (`CandleSeries.apply`); the exchange's minute bars of that stretch replace them once
   * fetched. Only on the instance that runs the feed (followers build candles from the
   * trades the writer publishes, which has the same gap: documented).
   */
  private fillGap(s: SymbolState, from: number, to: number): void {
    const gapBars = this.o.feed.gapBars;
    if (gapBars === undefined || Math.floor(from / MINUTE) * MINUTE + 2 * MINUTE > to) return;
    void gapBars.call(this.o.feed, s.spec.symbol, from, to).then((bars) => {
      for (const series of s.series.values()) series.patchGap(bars, from, to);
    });
  }

  /* ------------------------------ queries ------------------------------ */

  symbolInfo(): MarketSymbolInfo[] {
    return this.o.instruments.map(({ spec, listing }) => ({
      symbol: spec.symbol,
      base: spec.base,
      quote: spec.quote,
      name: listing.name,
      tickSize: spec.tickSize,
      lotSize: spec.lotSize,
      minNotional: spec.minNotional,
      priceDecimals: spec.priceDecimals,
      qtyDecimals: spec.qtyDecimals,
      minQty: lotsToQty(spec, spec.minQtyLots),
      maxQty: lotsToQty(spec, spec.maxQtyLots),
      status: "TRADING" as const,
    }));
  }

  /** The instrument spec (order validation), or undefined. */
  spec(symbol: string): InstrumentSpec | undefined {
    return this.o.instruments.find((i) => i.spec.symbol === symbol)?.spec;
  }

  /** The symbol's order book with the maker's ladder (the order service places user orders here). */
  book(symbol: string): MakerBook | undefined {
    const s = this.state(symbol);
    if (s === undefined) return undefined;
    this.quotePending(s);
    return s.maker;
  }

  /** Quotes the book `applyBook` left pending, if any. */
  private quotePending(s: SymbolState): void {
    const b = s.pending;
    if (b === undefined) return;
    s.pending = undefined;
    s.maker.mirror(b.bids, b.asks, this.clock.now());
  }

  /** Last price in ticks (0 for an unknown symbol). */
  lastTicks(symbol: string): number {
    return this.state(symbol)?.last ?? 0;
  }

  /** Last price as a decimal string, or undefined. */
  price(symbol: string): string | undefined {
    const s = this.state(symbol);
    return s === undefined ? undefined : ticksToPrice(s.spec, s.last);
  }

  /** Last prices by symbol; unknown symbols are left out (fits the airdrops `PriceSource`). */
  async prices(symbols: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const sym of symbols) {
      const p = this.price(sym.toUpperCase());
      if (p !== undefined) out.set(sym, p);
    }
    return out;
  }

  ticker(symbol: string): Ticker | undefined {
    const s = this.state(symbol);
    if (s === undefined) return undefined;
    const now = this.clock.now();
    const m1 = s.series.get("1m");
    const stats = m1 ? s.ticker.stats(m1, now) : undefined;
    if (stats === undefined) return undefined;
    const top = this.topOf(symbol, s);
    return {
      symbol,
      ...formatTicker(s.spec, stats),
      closeTime: Math.max(now, s.lastTime),
      bidPrice: top.bid === 0 ? "0" : ticksToPrice(s.spec, top.bid),
      askPrice: top.ask === 0 ? "0" : ticksToPrice(s.spec, top.ask),
    };
  }

  tickers(): Ticker[] {
    const out: Ticker[] = [];
    for (const sym of this.symbols) {
      const t = this.ticker(sym);
      if (t) out.push(t);
    }
    return out;
  }

  klines(symbol: string, interval: KlineIntervalValue, limit: number, endTime?: number): Kline[] | undefined {
    const s = this.state(symbol);
    const series = s?.series.get(interval);
    if (s === undefined || series === undefined) return undefined;
    const open = series.last()?.openTime;
    return series.list(limit, endTime).map((c) => ({
      openTime: c.openTime,
      closeTime: c.openTime + series.intervalMs - 1,
      open: ticksToPrice(s.spec, c.open),
      high: ticksToPrice(s.spec, c.high),
      low: ticksToPrice(s.spec, c.low),
      close: ticksToPrice(s.spec, c.close),
      volume: lotsToQty(s.spec, c.volume),
      quoteVolume: formatNotional(s.spec, c.quoteVolume),
      trades: c.trades,
      closed: c.openTime !== open || c.openTime + series.intervalMs <= this.clock.now(),
    }));
  }

  /** Best bid and ask in ticks: the exchange's on a live feed (paper orders never show), else the book's. */
  private topOf(symbol: string, s: SymbolState): { bid: number; ask: number } {
    if (!this.mirrors) return s.maker.book.top();
    const shown = this.health.get(symbol)?.shown;
    return { bid: shown?.bids[0]?.[0] ?? 0, ask: shown?.asks[0]?.[0] ?? 0 };
  }

  /**
   * Several instances: the writer's books as it last published them (user orders rest
   * only in the writer's books); `null` while this instance holds the books itself.
   */
  private remoteDepth: Map<string, Depth> | null = null;

  /** Follows the writer's published books (true) or serves its own (false). */
  followBooks(on: boolean): void {
    this.remoteDepth = on ? new Map() : null;
  }

  /**
   * A book the writer published (see `changedDepths`). On a live feed it is also this
   * follower's health: the writer publishes a book when it moved, so one that stops
   * arriving turns stale here after 5 s, as it did there.
   */
  applyDepth(depth: Depth): void {
    if (this.remoteDepth === null) return;
    this.remoteDepth.set(depth.symbol, depth);
    if (!this.mirrors) return;
    const h = this.healthOf(depth.symbol);
    h.lastBook = this.clock.now();
    h.bookTime = depth.time;
    h.connected = depth.bids.length > 0 || depth.asks.length > 0;
  }

  /** The books whose sequence moved since `seen` (updated), at full depth, for the followers. */
  changedDepths(seen: Map<string, number>, limit: number): Depth[] {
    const out: Depth[] = [];
    for (const [symbol, s] of this.states) {
      this.quotePending(s);
      const seq = s.maker.book.sequence;
      if (seen.get(symbol) === seq) continue;
      seen.set(symbol, seq);
      const d = this.depth(symbol, limit);
      if (d !== undefined) out.push(d);
    }
    return out;
  }

  depth(symbol: string, limit: number): Depth | undefined {
    const remote = this.remoteDepth?.get(symbol);
    if (remote !== undefined)
      return {
        ...remote,
        bids: remote.bids.slice(0, limit),
        asks: remote.asks.slice(0, limit),
        time: this.clock.now(),
      };
    const s = this.state(symbol);
    if (s === undefined) return undefined;
    // Its lastUpdateId is the engine's sequence, which moves with the quotes.
    this.quotePending(s);
    // A live feed shows the exchange's book as mirrored: paper orders rest in the engine's
    // book but never show to others (docs/trading.md).
    const shown = this.mirrors ? this.health.get(symbol)?.shown : undefined;
    const { bids, asks } = this.mirrors
      ? { bids: (shown?.bids ?? []).slice(0, limit), asks: (shown?.asks ?? []).slice(0, limit) }
      : s.maker.depth(limit);
    const level = ([p, q]: readonly [number, number]): [string, string] => [
      ticksToPrice(s.spec, p),
      lotsToQty(s.spec, q),
    ];
    // A mirrored book is as of the exchange's time (feed lag is measured from it).
    const bookTime = this.mirrors ? this.health.get(symbol)?.bookTime : undefined;
    return {
      symbol,
      lastUpdateId: s.maker.book.sequence,
      bids: bids.map(level),
      asks: asks.map(level),
      time: bookTime !== undefined && bookTime > 0 ? bookTime : this.clock.now(),
    };
  }

  trades(symbol: string, limit: number): MarketTrade[] | undefined {
    const s = this.state(symbol);
    if (s === undefined) return undefined;
    return s.trades
      .tail(limit)
      .reverse()
      .map((t) => presentTrade(s.spec, t));
  }

  /** Top `limit` listed coins by market cap (circulating supply x last price). */
  caps(limit: number): MarketCap[] {
    const rows = this.o.instruments.map(({ spec, listing }) => {
      const last = this.lastTicks(spec.symbol);
      const t = this.ticker(spec.symbol);
      return {
        symbol: spec.symbol,
        base: spec.base as string,
        name: listing.name,
        price: ticksToPrice(spec, last),
        priceChangePercent: t?.priceChangePercent ?? "0.00",
        circulatingSupply: listing.circulatingSupply,
        marketCap: marketCap(spec, listing.circulatingSupply, last),
      };
    });
    rows.sort((a, b) => compareDecimal(b.marketCap, a.marketCap) || a.symbol.localeCompare(b.symbol));
    return rows.slice(0, limit).map((r, i) => ({ rank: i + 1, ...r }));
  }
}

function compareDecimal(a: string, b: string): number {
  const [ai = "0", af = ""] = a.split(".");
  const [bi = "0", bf = ""] = b.split(".");
  if (ai.length !== bi.length) return ai.length - bi.length;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const fa = af.padEnd(bf.length, "0");
  const fb = bf.padEnd(af.length, "0");
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

function presentTrade(spec: InstrumentSpec, t: StoredTrade): MarketTrade {
  return {
    id: t.id,
    price: ticksToPrice(spec, t.price),
    qty: lotsToQty(spec, t.qty),
    quoteQty: formatNotional(spec, notionalMinor(spec, t.price, t.qty)),
    time: t.time,
    isBuyerMaker: t.buyerMaker,
  };
}
