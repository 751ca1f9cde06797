import {
  add,
  ceilToStep,
  coinPerpContract,
  compare,
  divDown,
  floorToStep,
  formatScaled,
  fromMinor,
  isPositive,
  mul,
  mulDown,
  perpContract,
} from "@meridian/domain";

/** USDT's ledger precision: the server's margins and fees are whole minor units of it. */
const USDT_STEP = "0.00000001";
const WORK_SCALE = 16;

export interface CostInput {
  /** The limit price, or the mark for a market or stop order ("" when none yet). */
  price: string;
  /** The quantity typed ("" when none). */
  quantity: string;
  leverage: number;
  /** The account's taker rate in parts per million (the server charges it on the hold). */
  takerPpm: number;
  /** The futures wallet's available margin (USDT). */
  available: string;
  /** The contract's quantity step. */
  stepSize: string;
  /** The largest notional an order may have at this leverage (`notionalCap`); null for none. */
  notionalCap: string | null;
}

export interface OrderCost {
  /** Initial margin: notional / leverage, rounded up as the server rounds it. */
  margin: string | null;
  /** Initial margin plus the taker fee: what the order takes from the available margin. */
  cost: string | null;
  /** The largest quantity whose cost the available margin covers, at this leverage and price. */
  maxQty: string | null;
}

/**
 * What an order to open or add to a position will take, as the server checks it before
 * placing (`initialMargin(notional, leverage)` plus the taker fee on the notional), and
 * the most the available margin allows. Null where an input is missing.
 */
export function orderCost(input: CostInput): OrderCost {
  const { price, quantity, leverage } = input;
  if (price === "" || !isPositive(price) || leverage < 1) return { margin: null, cost: null, maxQty: null };
  const rate = formatScaled(BigInt(input.takerPpm), 6);
  const lev = String(leverage);
  // What one unit of quantity takes: price / leverage + price x rate.
  const perUnit = add(divDown(price, lev, WORK_SCALE), mul(price, rate));
  const spare = isPositive(input.available) ? input.available : "0";
  const byMargin = divDown(spare, perUnit, WORK_SCALE);
  const byBracket = input.notionalCap === null ? null : divDown(input.notionalCap, price, WORK_SCALE);
  const most = byBracket !== null && compare(byBracket, byMargin) < 0 ? byBracket : byMargin;
  const maxQty = floorToStep(most, input.stepSize);
  if (quantity === "" || !isPositive(quantity)) return { margin: null, cost: null, maxQty };
  const notional = mul(price, quantity);
  const margin = ceilToStep(divDown(notional, lev, WORK_SCALE), USDT_STEP);
  const fee = mulDown(notional, rate, 8);
  return { margin, cost: add(margin, fee), maxQty };
}

/** Whether the cost is more than the available margin (the order would be refused with 14002). */
export function exceedsAvailable(cost: OrderCost, available: string): boolean {
  return cost.cost !== null && compare(cost.cost, available) > 0;
}

/**
 * The largest notional (USDT) an order may have at `leverage`: the server refuses one whose
 * risk bracket allows less leverage (14004), so the cap is the last bracket that still
 * allows it. Null for a symbol that is no perpetual.
 */
export function notionalCap(symbol: string, leverage: number): string | null {
  const c = perpContract(symbol);
  if (c === undefined) return null;
  let cap: bigint | null = null;
  for (const b of c.brackets) if (b.maxLeverage >= leverage) cap = b.cap - 1n;
  return cap === null ? "0" : fromMinor("USDT", cap);
}

export interface CoinCostInput extends Omit<CostInput, "stepSize" | "notionalCap"> {
  /** US dollars per contract ("100" for BTCUSD). */
  contractValue: string;
  /** Fraction digits of the margin coin's minor unit (BTC 8). */
  marginDecimals: number;
  /** The most contracts the risk bracket allows at this leverage and price; null for none. */
  maxContracts: string | null;
}

/**
 * `orderCost` for a coin-margined contract, in its coin: n contracts at P are worth
 * n x contractValue / P coins; initial margin is that over the leverage (rounded up to
 * the coin's minor unit, as the server rounds it), plus the taker fee on the value. The
 * maximum is in whole contracts.
 */
export function coinOrderCost(input: CoinCostInput): OrderCost {
  const { price, quantity, leverage } = input;
  if (price === "" || !isPositive(price) || leverage < 1) return { margin: null, cost: null, maxQty: null };
  const rate = formatScaled(BigInt(input.takerPpm), 6);
  const lev = String(leverage);
  const step = formatScaled(1n, input.marginDecimals);
  const perContract = divDown(input.contractValue, price, WORK_SCALE);
  const perUnit = add(divDown(perContract, lev, WORK_SCALE), mul(perContract, rate));
  const spare = isPositive(input.available) ? input.available : "0";
  const byMargin = divDown(spare, perUnit, WORK_SCALE);
  const cap = input.maxContracts;
  const most = cap !== null && compare(cap, byMargin) < 0 ? cap : byMargin;
  const maxQty = floorToStep(most, "1");
  if (quantity === "" || !isPositive(quantity)) return { margin: null, cost: null, maxQty };
  const value = divDown(mul(input.contractValue, quantity), price, WORK_SCALE);
  const margin = ceilToStep(divDown(value, lev, WORK_SCALE), step);
  const fee = ceilToStep(mul(value, rate), step);
  return { margin, cost: add(margin, fee), maxQty };
}

/**
 * The most contracts of a coin-margined `symbol` an order may hold at `leverage` and
 * `price`: the brackets cap the position's value in coins (`cap` minor units), so the
 * contracts are cap x price / contractValue. Null for a symbol that is no coin-M perpetual.
 */
export function coinMaxContracts(symbol: string, leverage: number, price: string): string | null {
  const c = coinPerpContract(symbol);
  if (c === undefined || price === "" || !isPositive(price)) return null;
  let cap: bigint | null = null;
  for (const b of c.brackets) if (b.maxLeverage >= leverage) cap = b.cap - 1n;
  if (cap === null) return "0";
  const coins = formatScaled(cap, c.marginDecimals);
  return floorToStep(divDown(mul(coins, price), c.contractValue, WORK_SCALE), "1");
}
