import type { MarketSymbolInfo, OrderSideValue, PlaceOrderBody } from "@meridian/contracts";
import { TIME_IN_FORCE } from "@meridian/contracts";
import { decimalsOf, divDown, formatDecimal } from "@meridian/domain";
import { type FormEvent, Fragment, type ReactNode, useEffect, useId, useReducer } from "react";
import { useTranslation } from "react-i18next";
import { newClientId } from "../../lib/client-id.ts";
import { Field, LimitOptions, PercentSlider } from "./form-fields.tsx";
import {
  estimatedFee,
  type FeeRates,
  type FormProblem,
  type FormType,
  initialOrderForm,
  type OrderFormMarket,
  orderBody,
  orderFormErrors,
  orderFormReducer,
  type ProblemField,
  problemField,
} from "./order-form-state.ts";
import { type MarketStore, useLastPrice } from "./use-market.ts";

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
  /** The server's refusal of this form's last order, when it is about one control. */
  refused?: { problem: FormProblem; seq: number } | null;
}

/** One side's order form: price, amount, total, a percent slider of the available balance, fee preview. */
export function OrderForm(props: OrderFormProps) {
  const { info, side, type, available, fee, picked, market, busy, gate, onSubmit } = props;
  const tpslHelpId = useId();
  const { t } = useTranslation("trade");
  const buy = side === "BUY";
  // What the store holds now: the server's snapshot while hydrating, the live price after.
  const [state, dispatch] = useReducer(orderFormReducer, undefined, () =>
    initialOrderForm(market.getState().tickers[info.symbol]?.lastPrice ?? ""),
  );
  const { price, stopPrice, amount, total, percent, postOnly, tif, tpslOn, problem } = state;
  // The live price re-renders the form only while the form uses it (a market order, an
  // empty price field): on every tick, both sides' forms were a long frame on a slow phone.
  const lastPrice = useLastPrice(market, info.symbol, type === "MARKET" || price === "");
  const ctx: OrderFormMarket = {
    info,
    side,
    type,
    available,
    takerPpm: fee.takerPpm,
    lastPrice,
    tpsl: props.tpsl === true,
  };
  const qtyDecimals = decimalsOf(info.lotSize);
  const marketBuy = type === "MARKET" && buy;
  const showPrice = type === "LIMIT" || type === "STOP_LIMIT";
  const showStop = type === "STOP_LIMIT" || type === "STOP_MARKET";
  const tpslShown = props.tpsl === true && (type === "LIMIT" || type === "MARKET");
  const suffix = side.toLowerCase();

  useEffect(() => {
    if (picked) dispatch({ kind: "bookPricePicked", price: picked.price });
  }, [picked]);
  // The first live price fills an empty price field once.
  useEffect(() => {
    if (lastPrice && price === "") dispatch({ kind: "lastPriceSeen", price: lastPrice });
  }, [lastPrice, price]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new symbol or type starts a fresh form.
  useEffect(() => {
    dispatch({ kind: "symbolOrTypeChanged" });
  }, [info.symbol, type]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new symbol starts from its own price.
  useEffect(() => {
    dispatch({ kind: "symbolChanged", price: market.getState().tickers[info.symbol]?.lastPrice ?? "" });
  }, [info.symbol]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each refusal (its seq) is shown once.
  useEffect(() => {
    if (props.refused) dispatch({ kind: "submitted", problem: props.refused.problem });
  }, [props.refused?.seq]);

  const shownAt = problemField(problem, ctx);
  const problemId = `${tpslHelpId}-problem`;
  const problemAt = (field: ProblemField) =>
    problem !== null && shownAt === field ? (
      <p className="trade-form-problem" role="alert" id={problemId} data-field={field}>
        {t(problem.key, problem.params)}
      </p>
    ) : null;
  const invalid = (field: ProblemField) => (shownAt === field ? problemId : undefined);

  const setStopPrice = (value: string) => dispatch({ kind: "entryChanged", entry: "stopPrice", value });
  const changePrice = (value: string) => dispatch({ kind: "priceChanged", value });
  const changeAmount = (value: string) => dispatch({ kind: "amountChanged", value, market: ctx });
  const changeTotal = (value: string) => dispatch({ kind: "totalChanged", value, market: ctx });
  const changePercent = (p: number) => dispatch({ kind: "percentChosen", percent: p, market: ctx });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = orderFormErrors(state, ctx)[0] ?? null;
    dispatch({ kind: "submitted", problem: found });
    if (!found) onSubmit(orderBody(state, ctx, newClientId()));
  };

  const estFee = estimatedFee(state, ctx);
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
          onPostOnly={(value) => dispatch({ kind: "postOnlyChanged", value })}
          tif={tif}
          onTif={(value) => dispatch({ kind: "tifChanged", value })}
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
              onChange={(e) => dispatch({ kind: "tpslToggled", value: e.target.checked })}
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
                  ["tp", "takeProfit", "tpLimit"],
                  ["sl", "stopLoss", "slLimit"],
                ] as const
              ).map(([leg, trigger, limit]) => (
                <Fragment key={leg}>
                  <Field
                    label={t(`form.${leg}Trigger`)}
                    suffix={info.quote}
                    value={state[trigger]}
                    onChange={(value) => dispatch({ kind: "entryChanged", entry: trigger, value })}
                    decimals={info.priceDecimals}
                    testId={`${leg}-trigger-${suffix}`}
                  />
                  <Field
                    label={t(`form.${leg}Limit`)}
                    suffix={info.quote}
                    value={state[limit]}
                    onChange={(value) => dispatch({ kind: "entryChanged", entry: limit, value })}
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
