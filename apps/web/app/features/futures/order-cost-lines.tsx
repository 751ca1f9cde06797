import type { FuturesMark } from "@meridian/contracts";
import { type CoinPerpContract, decimalsOf, formatDecimal, isPositive } from "@meridian/domain";
import { useTranslation } from "react-i18next";
import { marginAmount } from "../trading-screen/contract-format.ts";
import { type FrameStore, useFrameValue } from "../trading-screen/frame-store.ts";
import { coinMaxContracts, coinOrderCost, exceedsAvailable, notionalCap, orderCost } from "./order-cost.ts";

interface Props {
  symbol: string;
  base: string;
  qtyDecimals: number;
  /** The limit price typed; "" prices a market or stop order at the mark. */
  limitPrice: string;
  quantity: string;
  leverage: number;
  takerPpm: number;
  available: string;
  marks: FrameStore<Readonly<Record<string, FuturesMark>>>;
  /** Fills the quantity field with the maximum. */
  onMax: (qty: string) => void;
  /** A coin-margined contract: amounts in its coin, the quantity in whole contracts. */
  coin?: CoinPerpContract | undefined;
}

/**
 * Cost (initial margin plus the taker fee), the margin required and the most the
 * available margin buys at this leverage, under the quantity. Only this part follows
 * the mark: the form around it does not re-render with each push.
 */
export function OrderCostLines(props: Props) {
  const { t } = useTranslation("futures");
  const mark = useFrameValue(props.marks, (m) => m[props.symbol]);
  const price =
    props.limitPrice !== "" && isPositive(props.limitPrice) ? props.limitPrice : (mark?.markPrice ?? "");
  const { coin } = props;
  const common = {
    price,
    quantity: props.quantity,
    leverage: props.leverage,
    takerPpm: props.takerPpm,
    available: props.available,
  };
  const cost = coin
    ? coinOrderCost({
        ...common,
        contractValue: coin.contractValue,
        marginDecimals: coin.marginDecimals,
        maxContracts: coinMaxContracts(coin.symbol, props.leverage, price),
      })
    : orderCost({
        ...common,
        stepSize: mark?.stepSize ?? "0.001",
        notionalCap: notionalCap(props.symbol, props.leverage),
      });
  const qtyDecimals = coin ? 0 : mark ? decimalsOf(mark.stepSize) : props.qtyDecimals;
  const asset = coin?.marginAsset ?? "USDT";
  const usdt = (v: string | null) => (v === null ? "--" : `${marginAmount(asset, v)} ${asset}`);
  const short = exceedsAvailable(cost, props.available);
  return (
    <dl className="futures-cost" data-testid="futures-cost">
      <dt>{t("cost")}</dt>
      <dd className={short ? "is-short" : undefined} data-testid="futures-cost-value">
        <bdi dir="ltr">{usdt(cost.cost)}</bdi>
      </dd>
      <dt>{t("marginRequired")}</dt>
      <dd data-testid="futures-margin-required">
        <bdi dir="ltr">{usdt(cost.margin)}</bdi>
      </dd>
      <dt>{t("maxSize", { leverage: props.leverage })}</dt>
      <dd>
        {cost.maxQty === null ? (
          "--"
        ) : (
          <button
            type="button"
            className="futures-max"
            onClick={() => cost.maxQty !== null && props.onMax(cost.maxQty)}
            title={t("useMax")}
            data-testid="futures-max-size"
          >
            <bdi dir="ltr">
              {formatDecimal(cost.maxQty, qtyDecimals)} {coin ? t("coin.contracts") : props.base}
            </bdi>
          </button>
        )}
      </dd>
    </dl>
  );
}
