import { ApiError } from "@meridian/client/api-error";
import {
  type MarketSymbolInfo,
  type OrderSideValue,
  type PlaceOrderBody,
  TIME_IN_FORCE,
  type TimeInForceValue,
} from "@meridian/contracts";
import {
  add,
  compare,
  decimalsOf,
  divDown,
  floorToStep,
  formatDecimal,
  isPositive,
  legTriggerValidDecimal,
  mul,
  mulDown,
  normalizeDecimal,
  percentOf,
} from "@meridian/domain";
import { type FormEvent, Fragment, type ReactNode, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { newClientId } from "../../lib/client-id.ts";
import { Field, LimitOptions, PercentSlider } from "./form-fields.tsx";
import { type MarketStore, useLastPrice } from "./use-market.ts";

/** The form's tabs; LIMIT with post-only goes out as LIMIT_MAKER. */
export type FormType = "LIMIT" | "MARKET" | "STOP_LIMIT" | "STOP_MARKET";
export const FORM_TYPES: readonly FormType[] = ["LIMIT", "MARKET", "STOP_LIMIT", "STOP_MARKET"];

/** Refusals the engine explains by reason (13003 data.reason) that deserve their own words. */
const REASON_KEYS: Record<string, string> = {
  POST_ONLY_WOULD_TAKE: "form.errors.postOnlyCross",
  STOP_WOULD_TRIGGER: "form.errors.stopWouldTrigger",
  TPSL_INVALID: "form.errors.tpslInvalid",
};

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

interface OrderFormProps {
  info: MarketSymbolInfo;
  side: OrderSideValue;
  type: FormType;
  /** Available balance: quote for buys, base for sells. */
  available: string;
  fee: FeeRates;
  /** Price copied from the book (with a counter so the same price can be picked twice). */
  picked: { price: string; seq: number } | null;
  /** The live market: the last price fills the price field and prices a market order. */
  market: MarketStore;
  busy: boolean;
  /** Shown instead of the submit button (login prompt, simulation call to action). */
  gate?: ReactNode;
  /** Offer the TP/SL checkbox on the limit and market tabs (spot). */
  tpsl?: boolean;
  onSubmit: (body: PlaceOrderBody) => void;
}

/** One side's order form: price, amount, total, a percent slider of the available balance, fee preview. */
export function OrderForm(props: OrderFormProps) {
  const { info, side, type, available, fee, picked, market, busy, gate, onSubmit } = props;
  const tpslHelpId = useId();
  const { t } = useTranslation("trade");
  const buy = side === "BUY";
  // What the store holds now: the server's snapshot while hydrating, the live price after.
  const [price, setPrice] = useState(() => market.getState().tickers[info.symbol]?.lastPrice ?? "");
  // The live price re-renders the form only while the form uses it (a market order, an
  // empty price field): on every tick, both sides' forms were a long frame on a slow phone.
  const lastPrice = useLastPrice(market, info.symbol, type === "MARKET" || price === "");
  const [stopPrice, setStopPrice] = useState("");
  const [amount, setAmount] = useState("");
  const [total, setTotal] = useState("");
  const [percent, setPercent] = useState(0);
  const [postOnly, setPostOnly] = useState(false);
  const [tif, setTif] = useState<TimeInForceValue>("GTC");
  const [tpslOn, setTpslOn] = useState(false);
  const [takeProfit, setTakeProfit] = useState("");
  const [stopLoss, setStopLoss] = useState("");
  const [tpLimit, setTpLimit] = useState("");
  const [slLimit, setSlLimit] = useState("");
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const lot = info.lotSize;
  const qtyDecimals = decimalsOf(lot);
  const feeRate = ppmRate(fee.takerPpm);
  const marketBuy = type === "MARKET" && buy;
  const showPrice = type === "LIMIT" || type === "STOP_LIMIT";
  const showStop = type === "STOP_LIMIT" || type === "STOP_MARKET";
  const tpslShown = props.tpsl === true && (type === "LIMIT" || type === "MARKET");
  const withTpSl = tpslShown && tpslOn;
  const suffix = side.toLowerCase();

  useEffect(() => {
    if (picked) setPrice(picked.price);
  }, [picked]);
  // The first live price fills an empty price field once.
  useEffect(() => {
    if (lastPrice && price === "") setPrice(lastPrice);
  }, [lastPrice, price]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new symbol or type starts a fresh form.
  useEffect(() => {
    setAmount("");
    setTotal("");
    setPercent(0);
    setProblem(null);
    setTakeProfit("");
    setStopLoss("");
  }, [info.symbol, type]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new symbol starts from its own price.
  useEffect(() => {
    setPrice(market.getState().tickers[info.symbol]?.lastPrice ?? "");
  }, [info.symbol]);

  const effectivePrice = showPrice ? price : type === "STOP_MARKET" ? stopPrice : (lastPrice ?? "");
  // A problem shows under the control it is about; amount and total stand for each other
  // when only one of them is on the form (a market buy has no amount, a market sell no total).
  const problemField =
    problem === null
      ? null
      : problem.field === "amount" && marketBuy
        ? "total"
        : problem.field === "total" && type === "MARKET" && !buy
          ? "amount"
          : problem.field;
  const problemId = `${tpslHelpId}-problem`;
  const problemAt = (field: ProblemField) =>
    problem !== null && problemField === field ? (
      <p className="trade-form-problem" role="alert" id={problemId} data-field={field}>
        {t(problem.key, problem.params)}
      </p>
    ) : null;
  const invalid = (field: ProblemField) => (problemField === field ? problemId : undefined);

  const changeAmount = (v: string) => {
    setAmount(v);
    setPercent(0);
    setTotal(isPositive(effectivePrice) && v !== "" ? mulDown(v, effectivePrice, 2) : "");
  };
  const changeTotal = (v: string) => {
    setTotal(v);
    setPercent(0);
    if (!marketBuy)
      setAmount(
        isPositive(effectivePrice) && v !== ""
          ? floorToStep(divDown(v, effectivePrice, qtyDecimals + 2), lot)
          : "",
      );
  };
  const changePrice = (v: string) => {
    setPrice(v);
    if (amount !== "" && isPositive(v)) setTotal(mulDown(amount, v, 2));
  };
  const changePercent = (p: number) => {
    setPercent(p);
    if (buy) {
      // A market buy's total includes its fee; a limit buy's fee is charged on top.
      if (marketBuy) {
        setTotal(floorToStep(percentOf(available, p, "0.00000001"), "0.01"));
        setAmount("");
        return;
      }
      const spend = floorToStep(divDown(percentOf(available, p, "0.00000001"), add("1", feeRate), 8), "0.01");
      if (isPositive(effectivePrice)) {
        const qty = floorToStep(divDown(spend, effectivePrice, qtyDecimals + 2), lot);
        setAmount(qty);
        setTotal(mulDown(qty, effectivePrice, 2));
      }
    } else {
      const qty = percentOf(available, p, lot);
      setAmount(qty);
      setTotal(isPositive(effectivePrice) ? mulDown(qty, effectivePrice, 2) : "");
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: PlaceOrderBody = {
      symbol: info.symbol,
      side,
      type,
      clientOrderId: newClientId(),
    };
    if (showPrice) body.price = normalizeDecimal(price);
    if (type === "LIMIT" && postOnly) body.type = "LIMIT_MAKER";
    else if (type === "LIMIT") body.timeInForce = tif;
    else if (type === "STOP_LIMIT") body.timeInForce = "GTC";
    if (showStop) body.stopPrice = normalizeDecimal(stopPrice);
    if (marketBuy) body.quoteQty = normalizeDecimal(total);
    else body.quantity = normalizeDecimal(amount);
    if (withTpSl) {
      // A leg's limit price is optional: empty, the leg sells (or buys) at market when it fires.
      const leg = (trigger: string, limit: string) => ({
        triggerPrice: normalizeDecimal(trigger),
        ...(isPositive(limit) ? { price: normalizeDecimal(limit) } : {}),
      });
      if (isPositive(takeProfit)) body.takeProfit = leg(takeProfit, tpLimit);
      if (isPositive(stopLoss)) body.stopLoss = leg(stopLoss, slLimit);
    }
    const found =
      validateOrder(body, info, available, fee.takerPpm) ??
      (withTpSl ? validateTpSl(side, type === "LIMIT" ? price : lastPrice, takeProfit, stopLoss) : null);
    setProblem(found);
    if (!found) onSubmit(body);
  };

  const notional = marketBuy
    ? total
    : isPositive(effectivePrice) && amount !== ""
      ? mul(amount, effectivePrice)
      : "0";
  // A market buy's total is notional + fee, so its fee is total x rate / (1 + rate).
  const estFee = !isPositive(notional || "0")
    ? "0"
    : marketBuy
      ? divDown(mul(notional, feeRate), add("1", feeRate), 8)
      : mulDown(notional, feeRate, 8);
  const availableAsset = buy ? info.quote : info.base;

  return (
    <form
      className={`trade-form is-${buy ? "buy" : "sell"}`}
      onSubmit={submit}
      noValidate
      data-testid={`order-form-${side.toLowerCase()}`}
    >
      <div className="trade-form-available">
        <span>{t("form.available")}</span>
        <strong data-testid={`available-${side.toLowerCase()}`}>
          <bdi dir="ltr">
            {formatDecimal(available, buy ? 2 : info.qtyDecimals)} {availableAsset}
          </bdi>
        </strong>
      </div>
      {showStop ? (
        <Field
          label={t("form.stopPrice")}
          suffix={info.quote}
          value={stopPrice}
          onChange={setStopPrice}
          decimals={info.priceDecimals}
          testId={`stop-price-${side.toLowerCase()}`}
          describedBy={invalid("stopPrice")}
        />
      ) : null}
      {problemAt("stopPrice")}
      {showPrice ? (
        <Field
          label={t("form.price")}
          suffix={info.quote}
          value={price}
          onChange={changePrice}
          decimals={info.priceDecimals}
          testId={`price-${side.toLowerCase()}`}
          describedBy={invalid("price")}
        />
      ) : (
        <div className="trade-field is-static">
          <span>{t("form.price")}</span>
          <span className="trade-field-static">{t("form.marketPrice")}</span>
        </div>
      )}
      {problemAt("price")}
      {type === "LIMIT" ? (
        <LimitOptions
          postOnly={postOnly}
          onPostOnly={setPostOnly}
          tif={tif}
          onTif={setTif}
          choices={TIME_IN_FORCE}
          testSuffix={side.toLowerCase()}
        />
      ) : null}
      {marketBuy ? null : (
        <Field
          label={t("form.amount")}
          suffix={info.base}
          value={amount}
          onChange={changeAmount}
          decimals={qtyDecimals}
          testId={`amount-${side.toLowerCase()}`}
          describedBy={invalid("amount")}
        />
      )}
      {problemAt("amount")}
      <PercentSlider
        value={percent}
        label={t("form.percent")}
        onChange={changePercent}
        testId={`percent-${side.toLowerCase()}`}
      />
      {type === "MARKET" && !buy ? null : (
        <Field
          label={t("form.total")}
          suffix={info.quote}
          value={total}
          onChange={changeTotal}
          decimals={2}
          testId={`total-${side.toLowerCase()}`}
          describedBy={invalid("total")}
        />
      )}
      {problemAt("total")}
      {tpslShown ? (
        <div className="trade-tpsl" data-testid={`tpsl-box-${suffix}`}>
          <label className="trade-check" title={t("form.tpslHelp")}>
            <input
              type="checkbox"
              checked={tpslOn}
              onChange={(e) => setTpslOn(e.target.checked)}
              aria-describedby={tpslHelpId}
              data-testid={`tpsl-${suffix}`}
            />
            {t("form.tpsl")}
          </label>
          <span id={tpslHelpId} className="trade-visually-hidden">
            {t("form.tpslHelp")}
          </span>
          {tpslOn
            ? (
                [
                  ["tp", takeProfit, setTakeProfit, tpLimit, setTpLimit],
                  ["sl", stopLoss, setStopLoss, slLimit, setSlLimit],
                ] as const
              ).map(([leg, trigger, setTrigger, limit, setLimit]) => (
                <Fragment key={leg}>
                  <Field
                    label={t(`form.${leg}Trigger`)}
                    suffix={info.quote}
                    value={trigger}
                    onChange={setTrigger}
                    decimals={info.priceDecimals}
                    testId={`${leg}-trigger-${suffix}`}
                  />
                  <Field
                    label={t(`form.${leg}Limit`)}
                    suffix={info.quote}
                    value={limit}
                    onChange={setLimit}
                    decimals={info.priceDecimals}
                    placeholder={t("form.legMarket")}
                    testId={`${leg}-limit-${suffix}`}
                  />
                </Fragment>
              ))
            : null}
          {problemAt("tpsl")}
        </div>
      ) : null}
      <dl className="trade-form-fee">
        <div>
          <dt>{t("form.feeRate", { level: fee.level })}</dt>
          <dd>
            {t("form.makerTaker", {
              maker: divDown(String(fee.makerPpm), "10000", 4),
              taker: divDown(String(fee.takerPpm), "10000", 4),
            })}
          </dd>
        </div>
        <div>
          <dt>{t("form.estFee")}</dt>
          <dd data-testid={`fee-${side.toLowerCase()}`}>
            <bdi dir="ltr">
              ≈ {formatDecimal(estFee, 4)} {info.quote}
            </bdi>
          </dd>
        </div>
      </dl>
      {gate ?? (
        <button
          type="submit"
          className={`trade-submit is-${buy ? "buy" : "sell"}`}
          disabled={busy}
          data-testid={`submit-${side.toLowerCase()}`}
        >
          {t(buy ? "form.buy" : "form.sell", { asset: info.base })}
        </button>
      )}
    </form>
  );
}
