import {
  MarketCode,
  type MarketSymbolInfo,
  type OrderSideValue,
  PaperCode,
  type PlaceOrderBody,
} from "@meridian/contracts";
import { compare, divDown, mul } from "@meridian/domain";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorCode, paperApi } from "../../api/paper.ts";
import { estimateMarketFill } from "../trading-screen/book-math.ts";
import { OrderForm } from "../trading-screen/order-form.tsx";
import { type FeeRates, FORM_TYPES, type FormType, refusalKey } from "../trading-screen/order-form-state.ts";
import { SideSwitch, type TradeAccess, TradeGate } from "../trading-screen/panel-parts.tsx";
import { StorageKey } from "../trading-screen/storage.ts";
import { toast } from "../trading-screen/toast.ts";
import { depthOf, type MarketStore } from "../trading-screen/use-market.ts";
import { useRefusal } from "../trading-screen/use-refusal.ts";
import { useTips } from "./tip-dialog.tsx";
import type { PaperState } from "./use-paper.ts";

const TYPES: readonly FormType[] = FORM_TYPES;
const SLIPPAGE_WARN_PERCENT = "1";
/** A limit price beyond these shares of the last price (in %) asks first: it would take at once. */
const LIMIT_BUY_CEILING = "110";
const LIMIT_SELL_FLOOR = "90";

const ERROR_KEYS: Record<string, string> = {
  [PaperCode.INSUFFICIENT_BALANCE]: "form.errors.balance",
  [PaperCode.ORDER_REJECTED]: "form.errors.rejected",
  [PaperCode.NO_LIQUIDITY]: "form.errors.noLiquidity",
  [PaperCode.TOO_MANY_OPEN_ORDERS]: "form.errors.tooMany",
  [PaperCode.PAPER_ONLY]: "form.errors.paperOnly",
  [MarketCode.DATA_UNAVAILABLE]: "form.errors.marketData",
};

interface OrderPanelProps {
  info: MarketSymbolInfo;
  locale: string;
  access: TradeAccess;
  paper: PaperState;
  fee: FeeRates;
  /** The live market: the forms follow the last price; a placement checks the book. */
  market: MarketStore;
  picked: { price: string; seq: number } | null;
  /** Phone layouts show one side at a time. */
  compact: boolean;
  side: OrderSideValue;
  onSideChange: (side: OrderSideValue) => void;
}

/** Order types, the buy and sell forms, the gate for visitors, tips and placement. */
export function OrderPanel(props: OrderPanelProps) {
  const { info, locale, access, paper, fee, market, picked, compact, side, onSideChange } = props;
  const { t } = useTranslation("trade");
  const [type, setType] = useState<FormType>("LIMIT");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const refusal = useRefusal();
  const tips = useTips();

  const availableOf = (asset: string) => paper.balances.find((b) => b.asset === asset)?.available ?? "0";

  const guard = async (body: PlaceOrderBody): Promise<boolean> => {
    const state = market.getState();
    const depth = depthOf(state, info.symbol);
    const lastPrice = state.tickers[info.symbol]?.lastPrice;
    if (body.type === "MARKET" && depth) {
      const levels = body.side === "BUY" ? depth.asks : depth.bids;
      const amount =
        body.quoteQty !== undefined ? { quote: body.quoteQty } : { quantity: body.quantity ?? "0" };
      const est = estimateMarketFill(levels, amount, info.priceDecimals);
      if (est.exhausted || compare(est.slippagePercent, SLIPPAGE_WARN_PERCENT) > 0) {
        return tips.confirm(
          StorageKey.TIP_MARKET_SLIPPAGE,
          t("tips.slippageTitle"),
          t("tips.slippageBody", {
            percent: est.exhausted ? `>${est.slippagePercent}` : est.slippagePercent,
          }),
        );
      }
    }
    if (body.type === "LIMIT" && lastPrice && body.price) {
      const gap = divDown(mul(body.price, "100"), lastPrice, 2);
      const far =
        body.side === "BUY" ? compare(gap, LIMIT_BUY_CEILING) > 0 : compare(gap, LIMIT_SELL_FLOOR) < 0;
      if (far)
        return tips.confirm(
          StorageKey.TIP_LIMIT_DEVIATION,
          t("tips.deviationTitle"),
          t("tips.deviationBody"),
        );
    }
    return true;
  };

  const place = async (body: PlaceOrderBody) => {
    setNotice(null);
    refusal.clear();
    if (!(await guard(body))) return;
    setBusy(true);
    try {
      const result = await paperApi.place(body);
      paper.applyOrder(result.order, result.fills);
      const filled = result.order.status === "FILLED";
      const text = t(filled ? "form.filled" : "form.placed");
      setNotice({ ok: true, text });
      toast("success", text);
    } catch (error) {
      const key = refusalKey(error) ?? ERROR_KEYS[errorCode(error)];
      const text = key ? t(key, { symbol: info.symbol }) : t("form.errors.generic");
      // A refusal about one control is said under it; any other under the buttons.
      if (!refusal.shown(body.side, error)) setNotice({ ok: false, text });
      toast("error", text);
    } finally {
      setBusy(false);
    }
  };

  const gate = access === "ready" ? undefined : <TradeGate access={access} locale={locale} />;

  const sides: OrderSideValue[] = compact ? [side] : ["BUY", "SELL"];
  return (
    <section className="trade-panel trade-order" aria-label={t("form.title")} data-testid="order-panel">
      <header className="trade-panel-head trade-order-head">
        <div className="trade-tabs" role="tablist" aria-label={t("form.type")}>
          {TYPES.map((ty) => (
            <button
              key={ty}
              type="button"
              role="tab"
              aria-selected={ty === type}
              className={ty === type ? "is-active" : undefined}
              onClick={() => setType(ty)}
              data-testid={`order-type-${ty.toLowerCase()}`}
            >
              {t(`form.types.${ty}`)}
            </button>
          ))}
        </div>
        <span className="trade-fee-badge">{t("form.vip", { level: fee.level })}</span>
      </header>
      {compact ? <SideSwitch side={side} onChange={onSideChange} /> : null}
      <div className="trade-forms">
        {sides.map((s) => (
          <OrderForm
            key={s}
            info={info}
            side={s}
            type={type}
            available={availableOf(s === "BUY" ? info.quote : info.base)}
            fee={fee}
            tpsl
            picked={picked}
            market={market}
            busy={busy}
            gate={gate}
            onSubmit={(body) => void place(body)}
            refused={refusal.forSide(s)}
          />
        ))}
      </div>
      {notice ? (
        <p
          className={`trade-notice ${notice.ok ? "is-ok" : "is-error"}`}
          role="status"
          data-testid="order-notice"
        >
          {notice.text}
        </p>
      ) : null}
      {tips.dialog}
    </section>
  );
}
