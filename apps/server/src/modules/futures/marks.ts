import {
  ALL_PERP_CONTRACTS,
  type AnyPerpContract,
  addPremiumSample,
  averagePremiumE8,
  type Candle,
  CandleSeries,
  fundingRateE8,
  INITIAL_MARK_STATE,
  INTERVAL_LIST,
  interestForInterval,
  KLINE_INTERVALS,
  type KlineInterval,
  type MarkState,
  NO_SAMPLES,
  type PremiumSamples,
  premiumIndexE8,
  tradeBar,
  updateMark,
} from "@meridian/domain";

/** Mark and index candles kept per perpetual and interval (this instance's memory). */
const CANDLES_KEPT = 1000;

/** Which price a candle series follows. */
export type MarkPriceKind = "mark" | "index";

interface SymbolMark {
  state: MarkState;
  mark: number;
  index: number;
  pinned: number | null;
  samples: PremiumSamples;
  /** A live exchange's rate for the running interval, settled instead of the computed one. */
  exchangeRate: bigint | null;
}

/**
 * Mark prices of every perpetual (the domain's `updateMark`: index plus a damped basis)
 * and the premium samples of the running funding interval. A pinned mark (the test-only
 * endpoint) replaces the computed one until unpinned.
 */
export class MarkBoard {
  private readonly by = new Map<string, SymbolMark>();
  /** `kind:symbol` -> a candle series per interval, fed with every mark and index update. */
  private readonly candles = new Map<string, Map<KlineInterval, CandleSeries>>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  private of(c: AnyPerpContract): SymbolMark {
    let m = this.by.get(c.symbol);
    if (m === undefined) {
      m = {
        state: INITIAL_MARK_STATE,
        mark: 0,
        index: 0,
        pinned: null,
        samples: NO_SAMPLES,
        exchangeRate: null,
      };
      this.by.set(c.symbol, m);
    }
    return m;
  }

  /** One update from the index (spot last) and the book's mid; false when nothing is known yet. */
  update(c: AnyPerpContract, indexTicks: number, bid: number, ask: number): boolean {
    if (indexTicks <= 0) return false;
    const m = this.of(c);
    const mid = bid > 0 && ask > 0 ? Math.round((bid + ask) / 2) : indexTicks;
    const next = updateMark(m.state, indexTicks, mid);
    m.state = next.state;
    m.mark = next.markTicks;
    m.index = indexTicks;
    if (bid > 0 && ask > 0) m.samples = addPremiumSample(m.samples, premiumIndexE8(indexTicks, bid, ask));
    this.recordCandles(c);
    return true;
  }

  /**
   * A live exchange's own mark and index (perp ticks) replace the computed ones, and its
   * funding rate replaces the premium average (liquidations and funding follow the exchange).
   */
  setExchange(c: AnyPerpContract, markTicks: number, indexTicks: number, rate: bigint | undefined): void {
    const m = this.of(c);
    m.mark = markTicks;
    m.index = indexTicks;
    if (rate !== undefined) m.exchangeRate = rate;
    this.recordCandles(c);
  }

  pin(c: AnyPerpContract, ticks: number | null): void {
    this.of(c).pinned = ticks;
    this.recordCandles(c);
  }

  /** Folds the mark (pinned or computed) and the index, as they are now, into their candles. */
  private recordCandles(c: AnyPerpContract): void {
    const time = this.now();
    const mark = this.markOf(c);
    if (mark !== undefined) this.fold(`mark:${c.symbol}`, mark, time);
    const index = this.indexOf(c);
    if (index > 0) this.fold(`index:${c.symbol}`, index, time);
  }

  private fold(key: string, ticks: number, time: number): void {
    let series = this.candles.get(key);
    if (series === undefined) {
      series = new Map(INTERVAL_LIST.map((i) => [i, new CandleSeries(KLINE_INTERVALS[i], CANDLES_KEPT)]));
      this.candles.set(key, series);
    }
    for (const s of series.values()) {
      // A clock that steps back must not reopen a closed candle: the price joins the open one.
      const at = Math.max(time, s.last()?.openTime ?? 0);
      s.apply(tradeBar(at, ticks, 0, 0n));
    }
  }

  /** Up to `limit` mark or index candles (prices in ticks), oldest first, opening at or before `endTime`. */
  candlesOf(
    kind: MarkPriceKind,
    c: AnyPerpContract,
    interval: KlineInterval,
    limit: number,
    endTime?: number,
  ): Candle[] {
    return this.candles.get(`${kind}:${c.symbol}`)?.get(interval)?.list(limit, endTime) ?? [];
  }

  markOf(c: AnyPerpContract): number | undefined {
    const m = this.by.get(c.symbol);
    if (m === undefined) return undefined;
    const t = m.pinned ?? m.mark;
    return t > 0 ? t : undefined;
  }

  indexOf(c: AnyPerpContract): number {
    return this.by.get(c.symbol)?.index ?? 0;
  }

  /** Every known mark by symbol. */
  marks(): Map<string, number> {
    const out = new Map<string, number>();
    for (const c of ALL_PERP_CONTRACTS) {
      const t = this.markOf(c);
      if (t !== undefined) out.set(c.symbol, t);
    }
    return out;
  }

  /** The running interval's estimated rate (1e-8 units). */
  rateOf(c: AnyPerpContract, intervalMs: number): bigint {
    const m = this.by.get(c.symbol);
    if (m?.exchangeRate != null) return m.exchangeRate;
    const s = m?.samples ?? NO_SAMPLES;
    return fundingRateE8(averagePremiumE8(s), interestForInterval(c, intervalMs), c.fundingCapE8);
  }

  /** The rate to settle now; starts a new interval. */
  takeRate(c: AnyPerpContract, intervalMs: number): bigint {
    const rate = this.rateOf(c, intervalMs);
    const m = this.by.get(c.symbol);
    if (m !== undefined) {
      m.samples = NO_SAMPLES;
      // The exchange's rate was for this interval; the next one comes with its next quote.
      m.exchangeRate = null;
    }
    return rate;
  }
}
