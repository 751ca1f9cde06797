/**
 * The one rule for conditional orders (stops, triggers, take-profit and stop-loss legs,
 * either leg of an OCO pair), shared by the spot and futures engines and the web app.
 *
 * A stop (or a stop-loss) fires against its side: a buy stop on a rise, a sell stop on a
 * fall. A take-profit fires the other way: a buy take-profit on a fall, a sell
 * take-profit on a rise.
 */
export function firesOnRise(buy: boolean, takeProfit: boolean): boolean {
  return buy !== takeProfit;
}

/** Whether the reference price (last or mark) has reached a trigger that fires in that direction. */
export function triggerReached(onRise: boolean, trigger: number, price: number): boolean {
  return onRise ? price >= trigger : price <= trigger;
}
