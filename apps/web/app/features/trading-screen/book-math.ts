import type { DepthLevel } from "@meridian/contracts";
import {
  add,
  ceilToStep,
  compare,
  decimalsOf,
  divDown,
  floorToStep,
  isPositive,
  mul,
  sub,
} from "@meridian/domain";

/** Price grouping choices for a book: the tick and its 10x, 100x and 1000x multiples. */
export function groupingSteps(tickSize: string): string[] {
  const out = [tickSize];
  for (let i = 0; i < 3; i++) out.push(mul(out[out.length - 1] ?? tickSize, "10"));
  return out;
}

/**
 * Levels merged onto multiples of `step`: bids round down, asks up (a grouped level
 * never shows a better price than its orders), quantities summed, best first.
 */
export function groupLevels(levels: readonly DepthLevel[], step: string, side: "bid" | "ask"): DepthLevel[] {
  const merged = new Map<string, string>();
  for (const [price, qty] of levels) {
    const key = side === "bid" ? floorToStep(price, step) : ceilToStep(price, step);
    merged.set(key, add(merged.get(key) ?? "0", qty));
  }
  const out: DepthLevel[] = [...merged.entries()];
  out.sort((a, b) => (side === "bid" ? compare(b[0], a[0]) : compare(a[0], b[0])));
  return out;
}

export interface BookRow {
  price: string;
  qty: string;
  total: string;
  /** Running quantity from the best level, for the depth bar. */
  cumulative: string;
  /** 0-1 share of the side's deepest cumulative quantity (display only). */
  depth: number;
}

/** Rows for one side with running totals; `depth` is a display ratio, so a float is fine. */
export function bookRows(levels: readonly DepthLevel[], rows: number): BookRow[] {
  const out: BookRow[] = [];
  let cumulative = "0";
  for (const [price, qty] of levels.slice(0, rows)) {
    cumulative = add(cumulative, qty);
    out.push({ price, qty, total: mul(price, qty), cumulative, depth: 0 });
  }
  const max = Number(cumulative) || 1;
  for (const row of out) row.depth = Math.min(1, Number(row.cumulative) / max);
  return out;
}

export interface MarketFillEstimate {
  /** Base quantity the book can fill. */
  filled: string;
  /** Quote spent (buy) or received (sell), before fees. */
  quote: string;
  /** Volume-weighted average price ("0" when nothing fills). */
  average: string;
  /** Slippage of the average from the best price, in percent (two decimals). */
  slippagePercent: string;
  /** True when the book ran out before the order was filled. */
  exhausted: boolean;
}

/**
 * Walks the opposite side of the book for a market order: by base quantity, or (market
 * buys) by a quote budget. The estimate the slippage warning compares against 1 %.
 */
export function estimateMarketFill(
  levels: readonly DepthLevel[],
  amount: { quantity: string } | { quote: string },
  priceDecimals: number,
): MarketFillEstimate {
  let filled = "0";
  let quote = "0";
  let left = "quantity" in amount ? amount.quantity : amount.quote;
  for (const [price, qty] of levels) {
    if (!isPositive(left)) break;
    if ("quantity" in amount) {
      const take = compare(qty, left) <= 0 ? qty : left;
      filled = add(filled, take);
      quote = add(quote, mul(take, price));
      left = sub(left, take);
    } else {
      const levelQuote = mul(qty, price);
      if (compare(levelQuote, left) <= 0) {
        filled = add(filled, qty);
        quote = add(quote, levelQuote);
        left = sub(left, levelQuote);
      } else {
        const take = divDown(left, price, Math.max(decimalsOf(qty), 8));
        filled = add(filled, take);
        quote = add(quote, mul(take, price));
        left = "0";
      }
    }
  }
  const best = levels[0]?.[0];
  const average = isPositive(filled) ? divDown(quote, filled, priceDecimals + 2) : "0";
  let slippagePercent = "0";
  if (best !== undefined && isPositive(filled)) {
    const diff = compare(average, best) >= 0 ? sub(average, best) : sub(best, average);
    slippagePercent = divDown(mul(diff, "100"), best, 2);
  }
  return { filled, quote, average, slippagePercent, exhausted: isPositive(left) };
}
