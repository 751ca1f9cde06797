import {
  type Bar,
  generateHistory,
  hash32,
  type ListedInstrument,
  lotValue,
  nextTrade,
  PriceModel,
  priceToTicks,
  tickValue,
} from "@meridian/domain";
import type { MarketClock } from "./clock.ts";
import type { FeedSink, FeedStartOptions, FeedTrade, MarketFeed } from "./feed.ts";

export interface ModelFeedOptions {
  instruments: readonly ListedInstrument[];
  seed: number;
  clock: MarketClock;
  /** Milliseconds between trades per symbol. */
  tickMs: number;
  /** End of history, a minute boundary; live slots follow it every `tickMs`. */
  epoch: number;
}

interface SymbolModel {
  readonly inst: ListedInstrument;
  readonly model: PriceModel;
  readonly history: readonly Bar[];
  /** Mean lots per simulated trade. */
  readonly meanLots: number;
  /** Time of the next slot to print. */
  nextSlot: number;
}

/** Longest stretch of missed slots printed at once. */
const MAX_CATCH_UP_MS = 10 * 60_000;

/** Average traded lots per minute implied by the listing's typical 24 h quote volume. */
export function lotsPerMinute(inst: ListedInstrument): number {
  const price = Number(inst.listing.refPrice);
  return Math.max(1, inst.listing.dailyQuoteVolume / 1440 / price / lotValue(inst.spec));
}

/**
 * The seeded model as a feed: each symbol has its own model (seed mixed with the
 * symbol's listing index), history ending at the reference price at `epoch`, then one
 * trade per `tickMs` slot. Slots are fixed times (epoch + k x tickMs), printed when the
 * clock passes them, so the path depends on the seed and epoch only, never on timer
 * jitter. Symbols are built on first use.
 */
export class ModelFeed implements MarketFeed {
  readonly name = "model";
  readonly symbols: readonly string[];
  private readonly o: ModelFeedOptions;
  private readonly models = new Map<string, SymbolModel>();

  constructor(options: ModelFeedOptions) {
    this.o = options;
    this.symbols = options.instruments.map((i) => i.spec.symbol);
  }

  private ensure(symbol: string, closeTicks?: number): SymbolModel | undefined {
    const found = this.models.get(symbol);
    if (found) return found;
    const index = this.o.instruments.findIndex((i) => i.spec.symbol === symbol);
    const inst = this.o.instruments[index];
    if (inst === undefined) return undefined;
    const ref = priceToTicks(inst.spec, inst.listing.refPrice);
    if (!ref.ok) throw new Error(`${symbol}: reference price ${inst.listing.refPrice} is not on tick`);
    const model = new PriceModel(
      hash32(this.o.seed, index),
      ref.value * tickValue(inst.spec),
      inst.listing.model,
    );
    const perMinute = lotsPerMinute(inst);
    const history = generateHistory(model, inst.spec, {
      end: this.o.epoch,
      closeTicks: closeTicks !== undefined && closeTicks > 0 ? closeTicks : ref.value,
      lotsPerMinute: perMinute,
      tradesPerMinute: 60_000 / this.o.tickMs,
    });
    const meanLots = Math.max(1, (perMinute * this.o.tickMs) / 60_000);
    const entry: SymbolModel = { inst, model, history, meanLots, nextSlot: this.o.epoch };
    this.models.set(symbol, entry);
    return entry;
  }

  history(symbol: string, closeTicks?: number): readonly Bar[] {
    return this.ensure(symbol, closeTicks)?.history ?? [];
  }

  /** Trades for every slot up to `now`, in time order per symbol; `skip` names symbols another feed serves. */
  advance(now: number, skip?: ReadonlySet<string>): FeedTrade[] {
    const out: FeedTrade[] = [];
    const dt = this.o.tickMs / 60_000;
    for (const symbol of this.symbols) {
      if (skip?.has(symbol)) continue;
      const m = this.ensure(symbol);
      if (m === undefined) continue;
      // After a long stall (a suspended laptop) skip ahead: candles fill the gap flat.
      if (now - m.nextSlot > MAX_CATCH_UP_MS) {
        m.nextSlot += Math.floor((now - MAX_CATCH_UP_MS - m.nextSlot) / this.o.tickMs) * this.o.tickMs;
      }
      while (m.nextSlot <= now) {
        const t = nextTrade(m.model, m.inst.spec, dt, m.meanLots);
        out.push({ symbol, time: m.nextSlot, price: t.price, qty: t.qty, buyerMaker: t.buyerMaker });
        m.nextSlot += this.o.tickMs;
      }
    }
    return out;
  }

  start(sink: FeedSink, options: FeedStartOptions = {}): () => void {
    const run = () => {
      const trades = this.advance(this.o.clock.now());
      if (trades.length > 0) sink(trades);
    };
    if (options.catchUp === true) run();
    return this.o.clock.every(this.o.tickMs, run);
  }

  anchor(symbol: string, priceTicks: number, time: number): void {
    const m = this.ensure(symbol);
    if (m === undefined || priceTicks <= 0) return;
    m.model.shift(Math.log(priceTicks * tickValue(m.inst.spec)) - m.model.logPrice);
    m.nextSlot = Math.max(m.nextSlot, time + this.o.tickMs);
  }
}
