import type { InstrumentSpec } from "../instrument.ts";
import { hash32 } from "../prng.ts";
import { asLots, asTicks, type Lots, type Ticks } from "../units.ts";

/** One maker quote: a resting limit order the paper-trading market maker keeps on the book. */
export interface Quote {
  readonly side: 0 | 1;
  readonly price: Ticks;
  readonly qty: Lots;
}

export interface LadderParams {
  readonly spec: InstrumentSpec;
  /** Reference (mid) price in ticks, e.g. the external index price. */
  readonly refPrice: Ticks;
  readonly seed: number;
  /**
   * Relative volatility, e.g. 0.01 for 1 %: the ladder spans about this fraction of
   * the price on each side, so calmer markets get tighter books.
   */
  readonly volatility: number;
  /** Levels per side (default 20). */
  readonly levels?: number;
  /** Size at the touch in lots before randomisation (default: 20 x minimum quantity). */
  readonly touchQty?: Lots;
}

/**
 * Builds the quote ladder around a reference price: the touch a few ticks from the
 * reference, deeper levels on a fixed grid (so a small move of the reference keeps
 * most of them), sizes decaying away from the touch and randomised by a hash of
 * (seed, side, price) rather than by call order, so the same inputs always give the
 * same ladder. Every quote meets the spec's lot range and minimum notional.
 */
export function buildLadder(p: LadderParams): Quote[] {
  const { spec, refPrice, seed } = p;
  const levels = Math.max(1, Math.floor(p.levels ?? 20));
  const vol = Number.isFinite(p.volatility) && p.volatility > 0 ? p.volatility : 0.001;
  const step = Math.max(1, Math.round((refPrice * vol) / levels));
  const half = 1 + (hash32(seed, refPrice) % 3);
  const touch = Math.max(spec.minQtyLots, p.touchQty ?? spec.minQtyLots * 20);
  const out: Quote[] = [];
  for (const side of [0, 1] as const) {
    const dir = side === 0 ? -1 : 1;
    const first = refPrice + dir * half;
    // The grid level just beyond the touch, then outwards a step at a time.
    let grid = side === 0 ? Math.floor((first - 1) / step) * step : Math.ceil((first + 1) / step) * step;
    for (let i = 0; i < levels; i++) {
      const price = i === 0 ? first : grid;
      if (i > 0) grid += dir * step;
      if (price < spec.minPriceTicks || price > spec.maxPriceTicks) break;
      const jitter = 0.5 + (hash32(seed, side, price) % 1000) / 1000;
      const decay = Math.exp((-2.5 * i) / levels);
      let qty = Math.max(spec.minQtyLots, Math.round(touch * decay * jitter));
      if (price * qty < spec.minNotionalUnits) qty = Math.ceil(spec.minNotionalUnits / price);
      if (qty > spec.maxQtyLots) qty = spec.maxQtyLots;
      out.push({ side, price: asTicks(price), qty: asLots(qty) });
    }
  }
  return out;
}

export interface LadderDiff {
  /** Quotes of the old ladder to cancel. */
  readonly cancel: readonly Quote[];
  /** Quotes of the new ladder to place. */
  readonly place: readonly Quote[];
}

const key = (q: Quote): string => `${q.side}:${q.price}:${q.qty}`;

/** What to cancel and place to move from one ladder to the next; identical quotes stay (keeping queue priority). */
export function diffLadder(prev: readonly Quote[], next: readonly Quote[]): LadderDiff {
  const nextKeys = new Set(next.map(key));
  const prevKeys = new Set(prev.map(key));
  return {
    cancel: prev.filter((q) => !nextKeys.has(key(q))),
    place: next.filter((q) => !prevKeys.has(key(q))),
  };
}
