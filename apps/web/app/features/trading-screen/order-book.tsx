import type { MarketSymbolInfo, Ticker } from "@meridian/contracts";
import { compare, decimalsOf, formatDecimal, sub } from "@meridian/domain";
import { type CSSProperties, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { type BookRow, bookRows, groupingSteps, groupLevels } from "./book-math.ts";
import { type MarketStore, useDepth, useTicker } from "./use-market.ts";

type View = "both" | "bids" | "asks";

interface OrderBookProps {
  info: MarketSymbolInfo;
  market: MarketStore;
  /** Rows per side in the "both" view. */
  rows?: number;
  onPickPrice: (price: string) => void;
  /** Behind another phone tab: the book stops following the stream until shown. */
  hidden?: boolean;
}

/**
 * The book: asks above (best at the bottom), last price in the middle, bids below;
 * depth bars from running totals, prices grouped onto tick multiples. Clicking a row
 * copies its price into the order form.
 */
export function OrderBook({ info, market, rows = 14, onPickPrice, hidden = false }: OrderBookProps) {
  const { t } = useTranslation("trade");
  const depth = useDepth(market, info.symbol, hidden);
  const ticker = useTicker(market, info.symbol, hidden);
  const steps = useMemo(() => groupingSteps(info.tickSize), [info.tickSize]);
  const [step, setStep] = useState(info.tickSize);
  const [view, setView] = useState<View>("both");
  const activeStep = steps.includes(step) ? step : info.tickSize;
  const priceDecimals = Math.min(info.priceDecimals, decimalsOf(activeStep));
  const perSide = view === "both" ? rows : rows * 2;

  const asks = useMemo(
    () => bookRows(groupLevels(depth?.asks ?? [], activeStep, "ask"), perSide),
    [depth, activeStep, perSide],
  );
  const bids = useMemo(
    () => bookRows(groupLevels(depth?.bids ?? [], activeStep, "bid"), perSide),
    [depth, activeStep, perSide],
  );

  const last = ticker?.lastPrice;
  const up = ticker ? compare(ticker.priceChange, "0") >= 0 : true;

  const row = (r: BookRow, side: "ask" | "bid") => (
    <button
      key={r.price}
      type="button"
      className={`trade-book-row is-${side}`}
      style={{ "--depth": `${Math.round(r.depth * 100)}%` } as CSSProperties}
      onClick={() => onPickPrice(r.price)}
      data-testid={`book-${side}`}
    >
      <span className="trade-book-price">{formatDecimal(r.price, priceDecimals)}</span>
      <span>{formatDecimal(r.qty, info.qtyDecimals)}</span>
      <span>{formatDecimal(r.total, 2)}</span>
    </button>
  );

  return (
    <section className="trade-panel trade-book" aria-label={t("book.title")} data-testid="order-book">
      <header className="trade-panel-head">
        <h2>{t("book.title")}</h2>
        <div className="trade-book-tools">
          <div className="trade-book-views">
            {(["both", "bids", "asks"] as const).map((v) => (
              <button
                key={v}
                type="button"
                className={`trade-book-view is-${v}${v === view ? " is-active" : ""}`}
                aria-pressed={v === view}
                title={t(`book.views.${v}`)}
                aria-label={t(`book.views.${v}`)}
                onClick={() => setView(v)}
              >
                <i />
                <i />
              </button>
            ))}
          </div>
          <select
            className="trade-select"
            aria-label={t("book.grouping")}
            value={activeStep}
            onChange={(e) => setStep(e.target.value)}
            data-testid="book-grouping"
          >
            {steps.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </header>
      <div className="trade-book-cols" aria-hidden="true">
        <span>{t("book.price", { asset: info.quote })}</span>
        <span>{t("book.amount", { asset: info.base })}</span>
        <span>{t("book.total")}</span>
      </div>
      {view !== "bids" ? (
        <div className="trade-book-side is-asks">{[...asks].reverse().map((r) => row(r, "ask"))}</div>
      ) : null}
      <div className={`trade-book-mid ${up ? "is-up" : "is-down"}`} data-testid="book-last">
        <strong>{last ? formatDecimal(last, info.priceDecimals) : "--"}</strong>
        <span aria-hidden="true">{up ? "↑" : "↓"}</span>
        {ticker ? (
          <small>
            {t("book.spread")} <bdi dir="ltr">{formatSpread(ticker, info.priceDecimals)}</bdi>
          </small>
        ) : null}
      </div>
      {view !== "asks" ? (
        <div className="trade-book-side is-bids">{bids.map((r) => row(r, "bid"))}</div>
      ) : null}
    </section>
  );
}

function formatSpread(ticker: Ticker, decimals: number): string {
  if (compare(ticker.askPrice, "0") <= 0 || compare(ticker.bidPrice, "0") <= 0) return "--";
  return formatDecimal(sub(ticker.askPrice, ticker.bidPrice), decimals);
}
