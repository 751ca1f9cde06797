import type { InstrumentSpec } from "../instrument.ts";
import { logToTicks } from "./history.ts";
import type { PriceModel } from "./price-model.ts";

/** A simulated public trade in engine units. */
export interface SimTrade {
  /** Price in ticks. */
  readonly price: number;
  /** Quantity in lots (>= 1). */
  readonly qty: number;
  /** True when the taker sold (the buyer was the resting maker), as exchanges report it. */
  readonly buyerMaker: boolean;
}

/**
 * Steps the model by `dtMinutes` and prints one trade at the new price, on tick. Size
 * is log-normal around `meanLots`, larger when the market moves; the taker side
 * follows the move (an up-tick is a buyer lifting the offer), a coin flip when flat.
 */
export function nextTrade(
  model: PriceModel,
  spec: InstrumentSpec,
  dtMinutes: number,
  meanLots: number,
): SimTrade {
  const s = model.step(dtMinutes);
  const price = logToTicks(spec, s.logClose);
  const size = meanLots * Math.min(s.activity, 6) * Math.exp(0.8 * model.normal() - 0.32);
  const qty = Math.max(spec.minQtyLots, Math.min(spec.maxQtyLots, Math.round(size)));
  const buyerMaker = s.logReturn < 0 || (s.logReturn === 0 && model.uniform() < 0.5);
  return { price, qty, buyerMaker };
}
