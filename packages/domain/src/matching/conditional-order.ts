import { compare } from "../decimal.ts";

/**
 * The one rule for conditional orders (stops, triggers, take-profit and stop-loss legs,
 * either leg of an OCO pair), shared by the spot and futures engines, the domain order
 * book and the web app's order form and tables.
 *
 * A stop (or a stop-loss) fires against its side: a buy stop on a rise, a sell stop on a
 * fall. A take-profit fires the other way: a buy take-profit on a fall, a sell
 * take-profit on a rise.
 */
export function firesOnRise(buy: boolean, takeProfit: boolean): boolean {
  return buy !== takeProfit;
}

/**
 * Whether a price has reached a trigger that fires in that direction, given only how the
 * two compare (`sign` of price minus trigger: -1, 0 or 1), so that ticks and decimal
 * strings share the rule. The trigger itself counts as reached.
 */
export function reachedBySign(onRise: boolean, sign: number): boolean {
  return onRise ? sign >= 0 : sign <= 0;
}

/** Whether the reference price (last or mark) has reached a trigger that fires in that direction. */
export function triggerReached(onRise: boolean, trigger: number, price: number): boolean {
  return reachedBySign(onRise, Math.sign(price - trigger));
}

/**
 * Whether a conditional order would fire at once against the reference price `ref`
 * (a stop placed there is refused STOP_WOULD_TRIGGER; a TP/SL leg there is TPSL_INVALID).
 * No reference yet (0) fires nothing.
 */
export function firesAt(onRise: boolean, trigger: number, ref: number): boolean {
  return ref > 0 && triggerReached(onRise, trigger, ref);
}

/**
 * Which way a TP/SL leg fires. The leg closes what it protects, so it trades the other
 * side: a long's (a buy's) take-profit sells on a rise and its stop-loss sells on a fall;
 * a short's (a sell's) the reverse.
 */
export function legFiresOnRise(protectsBuy: boolean, takeProfit: boolean): boolean {
  return firesOnRise(!protectsBuy, takeProfit);
}

/**
 * Whether a TP/SL leg's trigger stands on its own side of `ref` (the parent's limit
 * price, else the last price): a buy's take-profit above it and stop-loss below, a
 * sell's the reverse. Also orders an OCO pair: a take-profit is valid against its
 * stop-loss's trigger exactly when the two are on opposite sides.
 */
export function legTriggerValid(
  protectsBuy: boolean,
  takeProfit: boolean,
  trigger: number,
  ref: number,
): boolean {
  return !firesAt(legFiresOnRise(protectsBuy, takeProfit), trigger, ref);
}

/** `legTriggerValid` on decimal strings (the web form's prices); a reference that is not positive passes. */
export function legTriggerValidDecimal(
  protectsBuy: boolean,
  takeProfit: boolean,
  trigger: string,
  ref: string,
): boolean {
  if (compare(ref, "0") <= 0) return true;
  return !reachedBySign(legFiresOnRise(protectsBuy, takeProfit), compare(ref, trigger));
}

/** A fired stop-market buy runs as an IOC limit this far beyond its trigger (market protection). */
export const STOP_MARKET_CAP_PCT = 5n;

/**
 * What a fired stop-market buy runs as: an IOC limit STOP_MARKET_CAP_PCT beyond its
 * trigger (rounded up, at most the instrument's highest price). A stop-market sell runs
 * as a market order, a stop-limit (or a leg with a price) as a limit at its price.
 */
export function stopMarketCapTicks(stopTicks: number, maxPriceTicks: number): number {
  const cap = Number((BigInt(stopTicks) * (100n + STOP_MARKET_CAP_PCT) + 99n) / 100n);
  return Math.min(cap, maxPriceTicks);
}
