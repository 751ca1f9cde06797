import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import {
  averageLotsPerMinute,
  type Bar,
  candlePath,
  generateHistory,
  type HistoricalCandle,
  hash32,
  type ListedInstrument,
  notionalMinor,
  PriceModel,
  parseCandleCsv,
  tickValue,
} from "@meridian/domain";
import type { MarketClock } from "./clock.ts";
import type { FeedSink, FeedStartOptions, FeedTrade, MarketFeed } from "./feed.ts";
import type { ModelFeed } from "./model-feed.ts";

/** Candles of one symbol from `<SYMBOL>-<interval>.csv`. */
export interface CandleFile {
  readonly symbol: string;
  readonly intervalMs: number;
  readonly candles: readonly HistoricalCandle[];
}

const FILE = /^([A-Z0-9]+)-(1m|5m|15m|30m|1h)\.csv$/;
const INTERVAL_MS: Record<string, number> = {
  "1m": 60_000,
  "5m": 300_000,
  "15m": 900_000,
  "30m": 1_800_000,
  "1h": 3_600_000,
};

/** Reads every `<SYMBOL>-<interval>.csv` in `dir` for the listed symbols; a malformed file fails loudly. */
export async function loadCandleFiles(
  dir: string,
  instruments: readonly ListedInstrument[],
): Promise<CandleFile[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: CandleFile[] = [];
  for (const name of names.sort()) {
    const m = FILE.exec(name);
    if (m === null) continue;
    const inst = instruments.find((i) => i.spec.symbol === m[1]);
    if (inst === undefined) continue;
    const parsed = parseCandleCsv(await readFile(path.join(dir, name), "utf8"), inst.spec);
    if (!parsed.ok)
      throw new Error(`${name}: ${parsed.error.field}: ${parsed.error.params.reason ?? parsed.error.code}`);
    if (parsed.value.length > 0) {
      out.push({
        symbol: inst.spec.symbol,
        intervalMs: INTERVAL_MS[m[2] ?? "1m"] ?? 60_000,
        candles: parsed.value,
      });
    }
  }
  return out;
}

export interface ReplayFeedOptions {
  instruments: readonly ListedInstrument[];
  files: readonly CandleFile[];
  clock: MarketClock;
  epoch: number;
  seed: number;
  /** How often the clock polls for due trades. */
  tickMs: number;
  /** Serves the symbols without a file. */
  fallback: ModelFeed;
}

interface Replay {
  readonly inst: ListedInstrument;
  readonly file: CandleFile;
  history: readonly Bar[] | undefined;
  /** Index of the next candle to play, counted across loops. */
  next: number;
  /** Index of the next point within it. */
  point: number;
  /** Price multiplier of the current loop (each loop continues from the last close). */
  scale: number;
}

/**
 * Replays historical candles as trades: the file's candles are shifted in time to
 * end at the epoch and form the recent history (seeded model bars before them, so every
 * interval still has 500 candles), then the file plays again from its start in real
 * time, each candle as four trades (open, nearer extreme, other extreme, close). Each
 * loop is rescaled to continue from the previous loop's close. Symbols without a file
 * come from the model feed.
 */
export class ReplayFeed implements MarketFeed {
  readonly name = "replay";
  readonly symbols: readonly string[];
  private readonly o: ReplayFeedOptions;
  private readonly replays = new Map<string, Replay>();
  private readonly replayed = new Set<string>();

  constructor(options: ReplayFeedOptions) {
    this.o = options;
    this.symbols = options.fallback.symbols;
    for (const file of options.files) {
      const inst = options.instruments.find((i) => i.spec.symbol === file.symbol);
      const first = file.candles[0];
      const last = file.candles[file.candles.length - 1];
      if (inst === undefined || first === undefined || last === undefined) continue;
      // The live replay starts the file again from where its history copy ended.
      const scale = last.close / first.open;
      this.replays.set(file.symbol, { inst, file, history: undefined, next: 0, point: 0, scale });
      this.replayed.add(file.symbol);
    }
  }

  private time(r: Replay, index: number): number {
    return this.o.epoch + index * r.file.intervalMs;
  }

  /** A replayed symbol's history always ends at the file's last close (`closeTicks` is for model symbols). */
  history(symbol: string, closeTicks?: number): readonly Bar[] {
    const r = this.replays.get(symbol);
    if (r === undefined) return this.o.fallback.history(symbol, closeTicks);
    if (r.history) return r.history;
    const { candles, intervalMs } = r.file;
    const first = candles[0] as HistoricalCandle;
    const start = this.o.epoch - candles.length * intervalMs;
    const perMinute = averageLotsPerMinute(candles, intervalMs);
    const index = this.o.instruments.indexOf(r.inst);
    const model = new PriceModel(
      hash32(this.o.seed, index, 1),
      first.open * tickValue(r.inst.spec),
      r.inst.listing.model,
    );
    const before = generateHistory(model, r.inst.spec, {
      end: Math.floor(start / 60_000) * 60_000,
      closeTicks: first.open,
      lotsPerMinute: perMinute,
    });
    const recent = candles.map((c, i) => ({
      time: start + i * intervalMs,
      span: intervalMs,
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
      volume: c.volume,
      quoteVolume: notionalMinor(r.inst.spec, c.close, c.volume),
      trades: 4,
    }));
    r.history = [...before, ...recent];
    return r.history;
  }

  private advance(now: number): FeedTrade[] {
    const out = this.o.fallback.advance(now, this.replayed);
    for (const [symbol, r] of this.replays) {
      const { candles, intervalMs } = r.file;
      for (;;) {
        const c = candles[r.next % candles.length] as HistoricalCandle;
        const points = candlePath(c, intervalMs, r.inst.spec);
        const p = points[r.point];
        if (p === undefined) {
          r.point = 0;
          r.next++;
          if (r.next % candles.length === 0) {
            const last = candles[candles.length - 1] as HistoricalCandle;
            const first = candles[0] as HistoricalCandle;
            r.scale *= last.close / first.open;
          }
          continue;
        }
        const time = this.time(r, r.next) + p.offsetMs;
        if (time > now) break;
        const price = Math.max(1, Math.round(p.price * r.scale));
        const prev = points[r.point - 1];
        out.push({ symbol, time, price, qty: p.qty, buyerMaker: prev !== undefined && p.price < prev.price });
        r.point++;
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
    const r = this.replays.get(symbol);
    if (r === undefined) {
      this.o.fallback.anchor(symbol, priceTicks, time);
      return;
    }
    const c = r.file.candles[r.next % r.file.candles.length];
    if (c !== undefined && priceTicks > 0) r.scale = priceTicks / c.open;
  }
}
