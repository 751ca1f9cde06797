import { ApiError } from "@meridian/client/api-error";
import {
  type FuturesAccount,
  FuturesCode,
  type FuturesMark,
  type FuturesOrderBody,
  type FuturesSettings,
  type MarketSymbolInfo,
} from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import {
  type CoinPerpContract,
  ceilToStep,
  fromMinor,
  isPositive,
  isZero,
  normalizeDecimal,
} from "@meridian/domain";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "../../api/futures.ts";
import { errorCode } from "../../api/paper.ts";
import { newClientId } from "../../lib/client-id.ts";
import { Field } from "../trading-screen/form-fields.tsx";
import type { FrameStore } from "../trading-screen/frame-store.ts";
import { EnterSimulationButton, TabStrip, type TradeAccess } from "../trading-screen/panel-parts.tsx";
import { toast } from "../trading-screen/toast.ts";
import { AccountSummary } from "./account-summary.tsx";
import { OrderCostLines } from "./order-cost-lines.tsx";
import { SettingsControls } from "./settings-controls.tsx";
import { type Shortfall, ShortfallPrompt, StarterTransfer } from "./shortfall-prompt.tsx";

type OrderType = "LIMIT" | "MARKET" | "STOP_MARKET";
/** Hedge mode: the four actions as side + position side (Binance's Open / Close tabs). */
type HedgeTab = "open" | "close";
const ACTIONS: Record<
  HedgeTab,
  Array<{ side: "BUY" | "SELL"; positionSide: "LONG" | "SHORT"; key: string; testId: string }>
> = {
  open: [
    { side: "BUY", positionSide: "LONG", key: "openLong", testId: "open-long" },
    { side: "SELL", positionSide: "SHORT", key: "openShort", testId: "open-short" },
  ],
  close: [
    { side: "SELL", positionSide: "LONG", key: "closeLong", testId: "close-long" },
    { side: "BUY", positionSide: "SHORT", key: "closeShort", testId: "close-short" },
  ],
};
const TYPES: OrderType[] = ["LIMIT", "MARKET", "STOP_MARKET"];

interface PanelProps {
  locale: string;
  info: MarketSymbolInfo;
  access: TradeAccess;
  account: FuturesAccount | null;
  /** The live marks: the limit price starts at this contract's first one. */
  marks: FrameStore<Readonly<Record<string, FuturesMark>>>;
  picked: { price: string; seq: number } | null;
  onChanged: () => void;
  /** A coin-margined contract: sizes in whole contracts, money in its coin. */
  coin?: CoinPerpContract | undefined;
}

/** The order panel: margin mode, leverage, limit/market/stop form, and the futures wallet with its transfer. */
export function FuturesOrderPanel(props: PanelProps) {
  const { t } = useTranslation("futures");
  const { access, locale } = props;
  return (
    <section className="trade-panel trade-order futures-order" aria-label={t("orderPanel")}>
      {access === "ready" ? (
        <OrderForm {...props} />
      ) : (
        <div
          className="futures-gate"
          data-testid={access === "guest" ? "futures-login-prompt" : "futures-sim-prompt"}
        >
          <p>{t(access === "guest" ? "gate.login" : "gate.simulation")}</p>
          {access === "guest" ? (
            <a className="trade-submit is-buy" href={localizePath(locale, "/login")}>
              {t("login")}
            </a>
          ) : (
            <EnterSimulationButton type="primary" data-testid="enter-simulation" />
          )}
        </div>
      )}
      {access === "ready" && props.account ? (
        <AccountSummary account={props.account} onChanged={props.onChanged} />
      ) : null}
    </section>
  );
}

function OrderForm(props: PanelProps) {
  const { info, marks, picked, onChanged, coin } = props;
  const { t } = useTranslation("futures");
  const [settings, setSettings] = useState<FuturesSettings | null>(null);
  const [type, setType] = useState<OrderType>("LIMIT");
  const [price, setPrice] = useState("");
  const [stopPrice, setStopPrice] = useState("");
  const [qty, setQty] = useState("");
  const [reduceOnly, setReduceOnly] = useState(false);
  const [hedgeTab, setHedgeTab] = useState<HedgeTab>("open");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  /** The USDT an order lacked (14002), offered as a prefilled spot -> futures transfer. */
  const [shortfall, setShortfall] = useState<Shortfall | null>(null);

  useEffect(() => {
    void futuresApi.settings(info.symbol).then(setSettings, () => {});
  }, [info.symbol]);
  useEffect(() => {
    if (picked) setPrice(picked.price);
  }, [picked]);
  // The limit price starts at the first mark seen; a field the user cleared stays clear.
  // Read from the store, not rendered from it: the form does not re-render with each mark.
  useEffect(() => {
    let prefilled = false;
    const prefill = () => {
      const mark = marks.getState()[info.symbol];
      if (prefilled || !mark) return;
      prefilled = true;
      setPrice(normalizeDecimal(mark.markPrice));
    };
    prefill();
    return marks.subscribe(prefill);
  }, [marks, info.symbol]);

  const failed = (e: unknown) => {
    const code = errorCode(e);
    const text = t(`errors.${code}`, { defaultValue: t("errors.generic"), symbol: info.symbol });
    setNotice({ ok: false, text });
    toast("error", text);
    const missing = missingMargin(e, coin?.marginAsset ?? "USDT");
    if (missing !== undefined) setShortfall({ amount: missing, open: true });
  };

  const dual = settings?.dualSidePosition ?? props.account?.dualSidePosition ?? false;
  const place = async (side: "BUY" | "SELL", positionSide: "BOTH" | "LONG" | "SHORT" = "BOTH") => {
    // Hedge mode: the position side says open or close; reduce-only is one-way's tool.
    const body: FuturesOrderBody = {
      symbol: info.symbol,
      side,
      type,
      positionSide,
      quantity: normalizeDecimal(qty),
      reduceOnly: positionSide === "BOTH" && reduceOnly,
      clientOrderId: newClientId(),
    };
    if (type === "LIMIT") body.price = normalizeDecimal(price);
    if (type === "STOP_MARKET") body.stopPrice = normalizeDecimal(stopPrice);
    const needed = [
      body.quantity ?? "",
      type === "LIMIT" ? (body.price ?? "") : "1",
      type === "STOP_MARKET" ? (body.stopPrice ?? "") : "1",
    ];
    if (!needed.every((v) => v !== "" && isPositive(v))) {
      setNotice({ ok: false, text: t("errors.14005") });
      return;
    }
    setBusy(true);
    setNotice(null);
    setShortfall(null);
    try {
      const order = await futuresApi.place(body);
      const text = t(order.status === "FILLED" ? "notice.filled" : "notice.placed");
      setNotice({ ok: true, text });
      toast("success", text);
      onChanged();
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
    }
  };

  const submit = (e: FormEvent) => e.preventDefault();
  return (
    <form className="futures-form" onSubmit={submit} noValidate data-testid="futures-form">
      <SettingsControls
        symbol={info.symbol}
        settings={settings}
        dual={dual}
        onSettings={setSettings}
        onLeverageDraft={(v) => setSettings((st) => (st === null ? st : { ...st, leverage: v }))}
        onPositionMode={(d) => {
          setSettings((st) => (st === null ? st : { ...st, dualSidePosition: d }));
          setNotice({ ok: true, text: t(d ? "positionMode.nowHedge" : "positionMode.nowOneWay") });
          onChanged();
        }}
        onChanged={onChanged}
      />
      <TabStrip
        tabs={TYPES.map((ty) => [ty, t(`types.${ty}`)] as const)}
        active={type}
        onChange={setType}
        label={t("type")}
        testIdPrefix="futures-type"
      />
      {type === "STOP_MARKET" ? (
        <Field
          label={t("triggerPrice")}
          suffix={info.quote}
          value={stopPrice}
          onChange={setStopPrice}
          decimals={info.priceDecimals}
          testId="futures-stop-price"
        />
      ) : null}
      {type === "LIMIT" ? (
        <Field
          label={t("price")}
          suffix={info.quote}
          value={price}
          onChange={setPrice}
          decimals={info.priceDecimals}
          testId="futures-price"
        />
      ) : (
        <div className="trade-field is-static">
          <span>{t("price")}</span>
          <span className="trade-field-static">{t("marketPrice")}</span>
        </div>
      )}
      <Field
        label={coin ? t("coin.quantity") : t("quantity")}
        suffix={coin ? t("coin.contracts") : info.base}
        value={qty}
        onChange={setQty}
        decimals={info.qtyDecimals}
        testId="futures-qty"
      />
      {settings && props.account && !(dual ? hedgeTab === "close" : reduceOnly) ? (
        <OrderCostLines
          symbol={info.symbol}
          base={info.base}
          qtyDecimals={info.qtyDecimals}
          limitPrice={type === "LIMIT" ? price : type === "STOP_MARKET" ? stopPrice : ""}
          quantity={qty}
          leverage={settings.leverage}
          takerPpm={settings.takerPpm}
          available={props.account.available}
          marks={marks}
          onMax={setQty}
          coin={coin}
        />
      ) : null}
      {dual ? null : (
        <label className="trade-check">
          <input type="checkbox" checked={reduceOnly} onChange={(e) => setReduceOnly(e.target.checked)} />
          {t("reduceOnly")}
        </label>
      )}
      {dual ? (
        <>
          <TabStrip
            className="futures-hedge-tabs"
            tabs={(["open", "close"] as const).map((k) => [k, t(`hedge.${k}`)] as const)}
            active={hedgeTab}
            onChange={setHedgeTab}
            label={t("positionMode.hedge")}
            testIdPrefix="futures-hedge"
          />
          <div className="futures-submit">
            {ACTIONS[hedgeTab].map((a) => (
              <button
                key={a.key}
                type="button"
                className={`trade-submit ${a.side === "BUY" ? "is-buy" : "is-sell"}`}
                disabled={busy}
                onClick={() => void place(a.side, a.positionSide)}
                data-testid={`futures-hedge-${a.testId}`}
              >
                {t(`hedge.${a.key}`)}
              </button>
            ))}
          </div>
        </>
      ) : (
        <div className="futures-submit">
          <button
            type="button"
            className="trade-submit is-buy"
            disabled={busy}
            onClick={() => void place("BUY")}
            data-testid="futures-long"
          >
            {t("openLong")}
          </button>
          <button
            type="button"
            className="trade-submit is-sell"
            disabled={busy}
            onClick={() => void place("SELL")}
            data-testid="futures-short"
          >
            {t("openShort")}
          </button>
        </div>
      )}
      {notice ? (
        <p
          className={notice.ok ? "trade-message" : "trade-message is-error"}
          role={notice.ok ? "status" : "alert"}
          data-testid="futures-notice"
        >
          {notice.text}
        </p>
      ) : null}
      {shortfall === null && !coin && props.account && isZero(props.account.wallet) ? (
        <StarterTransfer onDone={onChanged} />
      ) : null}
      {shortfall ? (
        <ShortfallPrompt
          shortfall={shortfall}
          coin={coin?.marginAsset}
          account={props.account}
          onOpen={() => setShortfall({ ...shortfall, open: true })}
          onClose={() => setShortfall((s) => (s ? { ...s, open: false } : s))}
          onDone={() => {
            setShortfall(null);
            setNotice(null);
            onChanged();
          }}
        />
      ) : null}
    </form>
  );
}

/**
 * What a refused order lacked (14002 carries `required` and `available` in minor units of
 * the wallet's asset), USDT rounded up to the cent, a coin exact; undefined for any other
 * refusal.
 */
function missingMargin(e: unknown, asset: string): string | undefined {
  if (!(e instanceof ApiError) || e.code !== FuturesCode.MARGIN_INSUFFICIENT) return undefined;
  const data = e.data as { required?: unknown; available?: unknown } | null;
  if (typeof data?.required !== "string" || typeof data.available !== "string") return undefined;
  if (!/^-?\d+$/.test(data.required) || !/^-?\d+$/.test(data.available)) return undefined;
  const missing = BigInt(data.required) - BigInt(data.available);
  if (missing <= 0n) return undefined;
  if (asset !== "USDT") return normalizeDecimal(fromMinor(asset, missing));
  return normalizeDecimal(ceilToStep(fromMinor("USDT", missing), "0.01"));
}
