/**
 * The spot and margin order form as data: its entries, a pure reducer over what the person
 * does, and the problems that keep it from being placed (dYdX v4-web's trade-form errors are
 * the model: errors are data with a field, translated only where they are shown).
 */
import { ApiError } from "@meridian/client/api-error";
import type { MarketSymbolInfo, OrderSideValue, PlaceOrderBody, TimeInForceValue } from "@meridian/contracts";
import {
  add,
  compare,
  decimalsOf,
  divDown,
  floorToStep,
  isPositive,
  legTriggerValidDecimal,
  mul,
  mulDown,
  normalizeDecimal,
  percentOf,
} from "@meridian/domain";

/** The form's tabs; LIMIT with post-only goes out as LIMIT_MAKER. */
export type FormType = "LIMIT" | "MARKET" | "STOP_LIMIT" | "STOP_MARKET";
export const FORM_TYPES: readonly FormType[] = ["LIMIT", "MARKET", "STOP_LIMIT", "STOP_MARKET"];

/** Refusals the engine explains by reason (13003 data.reason) that deserve their own words. */
const REASON_KEYS: Record<string, string> = {
  POST_ONLY_WOULD_TAKE: "form.errors.postOnlyCross",
  STOP_WOULD_TRIGGER: "form.errors.stopWouldTrigger",
  TPSL_INVALID: "form.errors.tpslInvalid",
};

/** The control each refusal reason is about, where it is one control. */
const REASON_FIELDS: Record<string, ProblemField> = {
  POST_ONLY_WOULD_TAKE: "price",
  STOP_WOULD_TRIGGER: "stopPrice",
  TPSL_INVALID: "tpsl",
};

/**
 * A placement the server refused for a reason that is about one control, as a problem of
 * that control (shown under it like the form's own checks); undefined otherwise.
 */
export function refusalProblem(error: unknown): FormProblem | undefined {
  if (!(error instanceof ApiError) || typeof error.data !== "object" || error.data === null) return undefined;
  const reason = (error.data as { reason?: unknown }).reason;
  if (typeof reason !== "string") return undefined;
  const key = REASON_KEYS[reason];
  const field = REASON_FIELDS[reason];
  return key === undefined || field === undefined ? undefined : { key, field };
}

/** The translation key of a placement refusal by its reason, when the form has one for it. */
export function refusalKey(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || typeof error.data !== "object" || error.data === null) return undefined;
  const reason = (error.data as { reason?: unknown }).reason;
  return typeof reason === "string" ? REASON_KEYS[reason] : undefined;
}

export interface FeeRates {
  level: number;
  makerPpm: number;
  takerPpm: number;
}

/** A rate in parts per million as a decimal fraction ("1000" -> "0.001"). */
export const ppmRate = (ppm: number): string => divDown(String(ppm), "1000000", 8);

/** The form control a problem belongs to: its message is shown under that control. */
export type ProblemField = "stopPrice" | "price" | "amount" | "total" | "tpsl";

export interface FormProblem {
  key: string;
  params?: Record<string, string>;
  field: ProblemField;
}

/** Client-side checks before a placement; the server checks again (validation as data). */
export function validateOrder(
  body: PlaceOrderBody,
  info: MarketSymbolInfo,
  available: string,
  takerPpm: number,
): FormProblem | null {
  const priced = body.type !== "MARKET" && body.type !== "STOP_MARKET";
  const stopped = body.type === "STOP_LIMIT" || body.type === "STOP_MARKET";
  if (stopped && !isPositive(body.stopPrice ?? "0"))
    return { key: "form.errors.stopPrice", field: "stopPrice" };
  // A stop-market order is valued at its trigger price (the server holds a little more for buys).
  const ref = priced ? (body.price ?? "0") : body.type === "STOP_MARKET" ? (body.stopPrice ?? "0") : null;
  if (priced && !isPositive(body.price ?? "0")) return { key: "form.errors.price", field: "price" };
  if (body.quoteQty !== undefined) {
    if (!isPositive(body.quoteQty)) return { key: "form.errors.total", field: "total" };
    if (compare(body.quoteQty, info.minNotional) < 0)
      return {
        key: "form.errors.minNotional",
        params: { min: info.minNotional, asset: info.quote },
        field: "total",
      };
    // The total includes the fee: the server spends at most the total.
    if (compare(body.quoteQty, available) > 0) return { key: "form.errors.balance", field: "total" };
    return null;
  }
  const qty = body.quantity ?? "0";
  if (!isPositive(qty)) return { key: "form.errors.amount", field: "amount" };
  if (compare(qty, info.minQty) < 0)
    return { key: "form.errors.minQty", params: { min: info.minQty, asset: info.base }, field: "amount" };
  if (compare(qty, info.maxQty) > 0)
    return { key: "form.errors.maxQty", params: { max: info.maxQty, asset: info.base }, field: "amount" };
  if (ref !== null && compare(mul(qty, ref), info.minNotional) < 0)
    return {
      key: "form.errors.minNotional",
      params: { min: info.minNotional, asset: info.quote },
      field: "amount",
    };
  if (body.side === "SELL" && compare(qty, available) > 0)
    return { key: "form.errors.balance", field: "amount" };
  if (body.side === "BUY" && ref !== null) {
    const cost = mul(mul(qty, ref), add("1", ppmRate(takerPpm)));
    if (compare(cost, available) > 0) return { key: "form.errors.balance", field: "amount" };
  }
  return null;
}

/**
 * The TP/SL of a buy or sell at `ref` (the limit price, or the last price for a market
 * order): at least one trigger; a buy's take-profit above and stop-loss below, a sell's
 * the reverse (the server checks the same and answers TPSL_INVALID).
 */
export function validateTpSl(
  side: OrderSideValue,
  ref: string | undefined,
  takeProfit: string,
  stopLoss: string,
): FormProblem | null {
  const tp = takeProfit.trim();
  const sl = stopLoss.trim();
  if ((tp === "" || !isPositive(tp)) && (sl === "" || !isPositive(sl)))
    return { key: "form.errors.tpslEmpty", field: "tpsl" };
  if (ref === undefined || !isPositive(ref)) return null;
  const price = normalizeDecimal(ref);
  const buy = side === "BUY";
  if (tp !== "") {
    if (!isPositive(tp)) return { key: "form.errors.tpslEmpty", field: "tpsl" };
    if (!legTriggerValidDecimal(buy, true, tp, ref))
      return { key: buy ? "form.errors.tpAbove" : "form.errors.tpBelow", params: { price }, field: "tpsl" };
  }
  if (sl !== "") {
    if (!isPositive(sl)) return { key: "form.errors.tpslEmpty", field: "tpsl" };
    if (!legTriggerValidDecimal(buy, false, sl, ref))
      return { key: buy ? "form.errors.slBelow" : "form.errors.slAbove", params: { price }, field: "tpsl" };
  }
  return null;
}

/** What the person has entered; every figure is a decimal string as typed ("" when empty). */
export interface OrderFormState {
  price: string;
  stopPrice: string;
  amount: string;
  total: string;
  /** The slider's position, 0-100: a position, not an amount. */
  percent: number;
  postOnly: boolean;
  tif: TimeInForceValue;
  tpslOn: boolean;
  takeProfit: string;
  stopLoss: string;
  tpLimit: string;
  slLimit: string;
  /** The problem found by the last attempt to place, shown until the form changes market. */
  problem: FormProblem | null;
}

/** What the form is for: the instrument, its side and tab, the balance, the fee, the live price. */
export interface OrderFormMarket {
  info: MarketSymbolInfo;
  side: OrderSideValue;
  type: FormType;
  /** Available balance: quote for buys, base for sells. */
  available: string;
  takerPpm: number;
  /** The last traded price, when known: it prices a market order. */
  lastPrice: string | undefined;
  /** The TP/SL checkbox is offered (spot, limit and market tabs). */
  tpsl: boolean;
}

type TextEntry = "stopPrice" | "takeProfit" | "stopLoss" | "tpLimit" | "slLimit";

export type OrderFormAction =
  | { kind: "priceChanged"; value: string }
  | { kind: "amountChanged"; value: string; market: OrderFormMarket }
  | { kind: "totalChanged"; value: string; market: OrderFormMarket }
  | { kind: "percentChosen"; percent: number; market: OrderFormMarket }
  /** A price copied from the book. */
  | { kind: "bookPricePicked"; price: string }
  /** The first live price fills an empty price field. */
  | { kind: "lastPriceSeen"; price: string }
  /** A new symbol or tab clears what was entered for the old one. */
  | { kind: "symbolOrTypeChanged" }
  /** A new symbol starts from its own price. */
  | { kind: "symbolChanged"; price: string }
  | { kind: "entryChanged"; entry: TextEntry; value: string }
  | { kind: "postOnlyChanged"; value: boolean }
  | { kind: "tifChanged"; value: TimeInForceValue }
  | { kind: "tpslToggled"; value: boolean }
  | { kind: "submitted"; problem: FormProblem | null };

/** A fresh form at `price` (the last price known when it opens, or ""). */
export const initialOrderForm = (price: string): OrderFormState => ({
  price,
  stopPrice: "",
  amount: "",
  total: "",
  percent: 0,
  postOnly: false,
  tif: "GTC",
  tpslOn: false,
  takeProfit: "",
  stopLoss: "",
  tpLimit: "",
  slLimit: "",
  problem: null,
});

const isMarketBuy = (m: OrderFormMarket): boolean => m.type === "MARKET" && m.side === "BUY";
const showsPrice = (type: FormType): boolean => type === "LIMIT" || type === "STOP_LIMIT";

/** The price amounts and totals convert at: the limit, a stop-market's trigger, or the last price. */
export function effectivePrice(state: OrderFormState, m: OrderFormMarket): string {
  if (showsPrice(m.type)) return state.price;
  return m.type === "STOP_MARKET" ? state.stopPrice : (m.lastPrice ?? "");
}

function percentChosen(state: OrderFormState, p: number, m: OrderFormMarket): OrderFormState {
  const price = effectivePrice(state, m);
  const lot = m.info.lotSize;
  if (m.side === "SELL") {
    const amount = percentOf(m.available, p, lot);
    return { ...state, percent: p, amount, total: isPositive(price) ? mulDown(amount, price, 2) : "" };
  }
  // A market buy's total includes its fee; a limit buy's fee is charged on top.
  if (isMarketBuy(m))
    return {
      ...state,
      percent: p,
      total: floorToStep(percentOf(m.available, p, "0.00000001"), "0.01"),
      amount: "",
    };
  if (!isPositive(price)) return { ...state, percent: p };
  const feeRate = ppmRate(m.takerPpm);
  const spend = floorToStep(divDown(percentOf(m.available, p, "0.00000001"), add("1", feeRate), 8), "0.01");
  const amount = floorToStep(divDown(spend, price, decimalsOf(lot) + 2), lot);
  return { ...state, percent: p, amount, total: mulDown(amount, price, 2) };
}

/** The form's next state; amount, total and percent follow each other at the effective price. */
export function orderFormReducer(state: OrderFormState, action: OrderFormAction): OrderFormState {
  switch (action.kind) {
    case "priceChanged":
      return {
        ...state,
        price: action.value,
        total:
          state.amount !== "" && isPositive(action.value)
            ? mulDown(state.amount, action.value, 2)
            : state.total,
      };
    case "amountChanged": {
      const price = effectivePrice(state, action.market);
      const v = action.value;
      return {
        ...state,
        amount: v,
        percent: 0,
        total: isPositive(price) && v !== "" ? mulDown(v, price, 2) : "",
      };
    }
    case "totalChanged": {
      const { market: m, value: v } = action;
      if (isMarketBuy(m)) return { ...state, total: v, percent: 0 };
      const price = effectivePrice(state, m);
      const lot = m.info.lotSize;
      const amount =
        isPositive(price) && v !== "" ? floorToStep(divDown(v, price, decimalsOf(lot) + 2), lot) : "";
      return { ...state, total: v, percent: 0, amount };
    }
    case "percentChosen":
      return percentChosen(state, action.percent, action.market);
    case "bookPricePicked":
      return { ...state, price: action.price };
    case "lastPriceSeen":
      return state.price === "" ? { ...state, price: action.price } : state;
    case "symbolOrTypeChanged":
      return { ...state, amount: "", total: "", percent: 0, problem: null, takeProfit: "", stopLoss: "" };
    case "symbolChanged":
      return { ...state, price: action.price };
    case "entryChanged":
      return { ...state, [action.entry]: action.value };
    case "postOnlyChanged":
      return { ...state, postOnly: action.value };
    case "tifChanged":
      return { ...state, tif: action.value };
    case "tpslToggled":
      return { ...state, tpslOn: action.value };
    case "submitted":
      return { ...state, problem: action.problem };
  }
}

/** The TP/SL legs go out with the order: the checkbox is offered and ticked. */
const withTpSl = (state: OrderFormState, m: OrderFormMarket): boolean =>
  m.tpsl && (m.type === "LIMIT" || m.type === "MARKET") && state.tpslOn;

/** The placement the form describes (not yet checked: see {@link orderFormErrors}). */
export function orderBody(state: OrderFormState, m: OrderFormMarket, clientOrderId?: string): PlaceOrderBody {
  const { type } = m;
  const body: PlaceOrderBody = {
    symbol: m.info.symbol,
    side: m.side,
    type,
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
  };
  if (showsPrice(type)) body.price = normalizeDecimal(state.price);
  if (type === "LIMIT" && state.postOnly) body.type = "LIMIT_MAKER";
  else if (type === "LIMIT") body.timeInForce = state.tif;
  else if (type === "STOP_LIMIT") body.timeInForce = "GTC";
  if (type === "STOP_LIMIT" || type === "STOP_MARKET") body.stopPrice = normalizeDecimal(state.stopPrice);
  if (isMarketBuy(m)) body.quoteQty = normalizeDecimal(state.total);
  else body.quantity = normalizeDecimal(state.amount);
  if (withTpSl(state, m)) {
    // A leg's limit price is optional: empty, the leg sells (or buys) at market when it fires.
    const leg = (trigger: string, limit: string) => ({
      triggerPrice: normalizeDecimal(trigger),
      ...(isPositive(limit) ? { price: normalizeDecimal(limit) } : {}),
    });
    if (isPositive(state.takeProfit)) body.takeProfit = leg(state.takeProfit, state.tpLimit);
    if (isPositive(state.stopLoss)) body.stopLoss = leg(state.stopLoss, state.slLimit);
  }
  return body;
}

/**
 * What keeps the form from being placed, first problem first (the form shows the first):
 * the order's own, then its TP/SL legs', checked against the limit price or the last price.
 */
export function orderFormErrors(state: OrderFormState, m: OrderFormMarket): FormProblem[] {
  const problems: FormProblem[] = [];
  const order = validateOrder(orderBody(state, m), m.info, m.available, m.takerPpm);
  if (order !== null) problems.push(order);
  if (withTpSl(state, m)) {
    const legs = validateTpSl(
      m.side,
      m.type === "LIMIT" ? state.price : m.lastPrice,
      state.takeProfit,
      state.stopLoss,
    );
    if (legs !== null) problems.push(legs);
  }
  return problems;
}

/**
 * The control a problem is shown under: amount and total stand for each other when only one
 * of them is on the form (a market buy has no amount, a market sell no total).
 */
export function problemField(problem: FormProblem | null, m: OrderFormMarket): ProblemField | null {
  if (problem === null) return null;
  if (problem.field === "amount" && isMarketBuy(m)) return "total";
  if (problem.field === "total" && m.type === "MARKET" && m.side === "SELL") return "amount";
  return problem.field;
}

/** The fee the order would pay as a taker; a market buy's total is notional + fee. */
export function estimatedFee(state: OrderFormState, m: OrderFormMarket): string {
  const price = effectivePrice(state, m);
  const feeRate = ppmRate(m.takerPpm);
  const marketBuy = isMarketBuy(m);
  const notional = marketBuy
    ? state.total
    : isPositive(price) && state.amount !== ""
      ? mul(state.amount, price)
      : "0";
  if (!isPositive(notional || "0")) return "0";
  // total x rate / (1 + rate) for a market buy.
  return marketBuy ? divDown(mul(notional, feeRate), add("1", feeRate), 8) : mulDown(notional, feeRate, 8);
}
