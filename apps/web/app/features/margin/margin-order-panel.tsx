import {
  MARGIN_SIDE_EFFECTS,
  type MarginAccountModeValue,
  type MarketSymbolInfo,
  type OrderSideValue,
  type PlaceOrderBody,
} from "@meridian/contracts";
import { add } from "@meridian/domain";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type MarginScope, marginApi, marginErrorText, trimDecimal } from "../../api/margin.ts";
import { antdIsland } from "../trading-screen/antd-island.tsx";
import { OrderForm } from "../trading-screen/order-form.tsx";
import { type FeeRates, FORM_TYPES, type FormType } from "../trading-screen/order-form-state.ts";
import { SideSwitch, TabStrip, type TradeAccess, TradeGate } from "../trading-screen/panel-parts.tsx";
import { toast } from "../trading-screen/toast.ts";
import type { MarketStore } from "../trading-screen/use-market.ts";
import { useRefusal } from "../trading-screen/use-refusal.ts";
import { MarginLevel, MarginTotals } from "./margin-level.tsx";
import type { MarginState } from "./use-margin.ts";

// antd dialogs, fetched when a paper trader's panel first shows them.
const BorrowRepayButton = antdIsland(() => import("./borrow-repay.tsx").then((m) => m.BorrowRepayButton));
const WalletTransferButton = antdIsland(() =>
  import("../trading-screen/wallet-transfer.tsx").then((m) => m.WalletTransferButton),
);

type SideEffect = (typeof MARGIN_SIDE_EFFECTS)[number];
const EFFECT_KEY: Record<SideEffect, string> = {
  NO_SIDE_EFFECT: "normal",
  MARGIN_BUY: "borrow",
  AUTO_REPAY: "repay",
};

interface MarginOrderPanelProps {
  info: MarketSymbolInfo;
  locale: string;
  access: TradeAccess;
  scope: MarginScope;
  leverage: number | undefined;
  onModeChange: (mode: MarginAccountModeValue) => void;
  margin: MarginState;
  fee: FeeRates;
  market: MarketStore;
  picked: { price: string; seq: number } | null;
  compact: boolean;
  side: OrderSideValue;
  onSideChange: (side: OrderSideValue) => void;
}

/**
 * The margin order panel: cross / isolated account, its level and totals, borrow, repay
 * and transfer, then the spot order forms with a side effect (normal, borrow to buy,
 * repay from proceeds). With "borrow" a form may spend its free balance plus what the
 * account can still borrow.
 */
export function MarginOrderPanel(props: MarginOrderPanelProps) {
  const { info, access, scope, margin, compact, side } = props;
  const { t } = useTranslation("margin");
  const { t: tt } = useTranslation("trade");
  const [type, setType] = useState<FormType>("LIMIT");
  const [effect, setEffect] = useState<SideEffect>("NO_SIDE_EFFECT");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const refusal = useRefusal();
  const account = margin.account;
  const ready = access === "ready";

  const free = (asset: string) => account?.assets.find((a) => a.asset === asset)?.free ?? "0";
  const available = (asset: string) =>
    effect === "MARGIN_BUY" ? add(free(asset), margin.maxBorrow[asset] ?? "0") : free(asset);

  const place = async (body: PlaceOrderBody) => {
    setNotice(null);
    refusal.clear();
    setBusy(true);
    try {
      const result = await marginApi.place({ ...body, mode: scope.mode, sideEffectType: effect });
      margin.applyOrder(result.order, result.fills);
      const done = tt(result.order.status === "FILLED" ? "form.filled" : "form.placed");
      const borrowed = result.borrowed
        ? ` ${t("borrowedNote", { amount: trimDecimal(result.borrowed.amount), asset: result.borrowed.asset })}`
        : "";
      setNotice({ ok: true, text: `${done}${borrowed}` });
      toast("success", `${done}${borrowed}`);
      margin.refresh();
    } catch (e) {
      const text = marginErrorText(t, e);
      // A refusal about one control is said under it; any other under the buttons.
      if (!refusal.shown(body.side, e)) setNotice({ ok: false, text });
      toast("error", text);
    } finally {
      setBusy(false);
    }
  };

  const assets = [info.quote, info.base];
  const sides: OrderSideValue[] = compact ? [side] : ["BUY", "SELL"];
  return (
    <section
      className="trade-panel trade-order margin-order"
      aria-label={t("panel")}
      data-testid="margin-panel"
    >
      <header className="trade-panel-head trade-order-head">
        <TabStrip
          tabs={[
            ["cross", t("cross")],
            ["isolated", t("isolated")],
          ]}
          active={scope.mode}
          onChange={props.onModeChange}
          label={t("accountMode")}
          testIdPrefix="margin-mode"
        />
        <span className="trade-fee-badge" data-testid="margin-leverage">
          <bdi dir="ltr">{props.leverage ? `${props.leverage}x` : "--"}</bdi>
        </span>
      </header>
      {ready ? (
        <div className="margin-account" data-testid="margin-account">
          <MarginLevel account={account} />
          <MarginTotals account={account} />
          <div className="margin-actions">
            <BorrowRepayButton
              action="borrow"
              scope={scope}
              account={account}
              assets={assets}
              onDone={() => margin.refresh()}
            />
            <BorrowRepayButton
              action="repay"
              scope={scope}
              account={account}
              assets={assets}
              onDone={() => margin.refresh()}
            />
            <WalletTransferButton
              from="SPOT"
              to={scope.mode === "cross" ? "CROSS_MARGIN" : "ISOLATED_MARGIN"}
              symbol={info.symbol}
              asset={info.quote}
              onDone={margin.refresh}
              testId="margin-transfer-open"
            />
          </div>
        </div>
      ) : null}
      <div className="margin-form-head">
        <TabStrip
          tabs={FORM_TYPES.map((ty) => [ty, tt(`form.types.${ty}`)] as const)}
          active={type}
          onChange={setType}
          label={tt("form.type")}
          testIdPrefix="order-type"
        />
        <fieldset className="trade-side-switch margin-effects" aria-label={t("sideEffect")}>
          {MARGIN_SIDE_EFFECTS.map((e) => (
            <button
              key={e}
              type="button"
              aria-pressed={e === effect}
              className={e === effect ? "is-buy is-active" : "is-buy"}
              onClick={() => setEffect(e)}
              data-testid={`side-effect-${EFFECT_KEY[e]}`}
            >
              {t(`effects.${EFFECT_KEY[e]}`)}
            </button>
          ))}
        </fieldset>
      </div>
      {compact ? <SideSwitch side={side} onChange={props.onSideChange} /> : null}
      <dl className="margin-facts margin-limits">
        {assets.map((a) => (
          <div key={a}>
            <dt>{t("maxBorrowableOf", { asset: a })}</dt>
            <dd data-testid={`max-borrow-${a}`}>
              <bdi dir="ltr">{ready ? trimDecimal(margin.maxBorrow[a] ?? "0") : "--"}</bdi>
            </dd>
          </div>
        ))}
      </dl>
      <div className="trade-forms">
        {sides.map((s) => (
          <OrderForm
            key={s}
            info={info}
            side={s}
            type={type}
            available={available(s === "BUY" ? info.quote : info.base)}
            fee={props.fee}
            picked={props.picked}
            market={props.market}
            busy={busy}
            gate={ready ? undefined : <TradeGate access={access} locale={props.locale} />}
            onSubmit={(body) => void place(body)}
            refused={refusal.forSide(s)}
          />
        ))}
      </div>
      {notice ? (
        <p
          className={`trade-notice ${notice.ok ? "is-ok" : "is-error"}`}
          role={notice.ok ? "status" : "alert"}
          data-testid="margin-notice"
        >
          {notice.text}
        </p>
      ) : null}
    </section>
  );
}
