import type { FuturesPosition } from "@meridian/contracts";
import { sanitizeDecimalInput } from "@meridian/domain";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "../../api/futures.ts";
import { errorCode } from "../../api/paper.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { antdIsland } from "../trading-screen/antd-island.tsx";
import type { ContractFormat } from "../trading-screen/contract-format.ts";
import { toast } from "../trading-screen/toast.ts";

const AdjustMarginButton = antdIsland(() => import("./margin-modal.tsx").then((m) => m.AdjustMarginButton));

/** docs/product.md §3: "position margin filter (default all)". */
export const POSITION_FILTER_KEY = "positionMarginFilter";
type Filter = "all" | "cross" | "isolated";
const FILTERS: Filter[] = ["all", "cross", "isolated"];

function TpslCell({ p, onDone }: { p: FuturesPosition; onDone: () => void }) {
  const { t } = useTranslation("futures");
  const [tp, setTp] = useState(p.takeProfit ?? "");
  const [sl, setSl] = useState(p.stopLoss ?? "");
  const [problem, setProblem] = useState("");
  const set = () => {
    setProblem("");
    void futuresApi
      .tpsl({
        symbol: p.symbol,
        positionSide: p.positionSide,
        ...(tp ? { takeProfit: tp } : {}),
        ...(sl ? { stopLoss: sl } : {}),
      })
      .then(onDone, (e: unknown) =>
        setProblem(t(`errors.${errorCode(e)}`, { defaultValue: t("errors.generic") })),
      );
  };
  return (
    <span className="futures-tpsl">
      <input
        dir="ltr"
        inputMode="decimal"
        aria-label={t("takeProfit")}
        placeholder={t("takeProfit")}
        value={tp}
        onChange={(e) => setTp(sanitizeDecimalInput(e.target.value, 8))}
        data-testid="tpsl-tp"
      />
      <input
        dir="ltr"
        inputMode="decimal"
        aria-label={t("stopLoss")}
        placeholder={t("stopLoss")}
        value={sl}
        onChange={(e) => setSl(sanitizeDecimalInput(e.target.value, 8))}
        data-testid="tpsl-sl"
      />
      <button type="button" className="trade-link-button" onClick={set} data-testid="tpsl-set">
        {t("setTpsl")}
      </button>
      {problem ? (
        <span role="alert" className="down">
          {problem}
        </span>
      ) : null}
    </span>
  );
}

/**
 * A market close of this one position: in hedge mode the order names its side (a SELL on
 * LONG closes the long), so the other side of the symbol stays open.
 */
function closePosition(p: FuturesPosition) {
  const short = p.quantity.startsWith("-");
  return futuresApi.place({
    symbol: p.symbol,
    side: short ? "BUY" : "SELL",
    type: "MARKET",
    positionSide: p.positionSide,
    quantity: short ? p.quantity.slice(1) : p.quantity,
    reduceOnly: p.positionSide === "BOTH",
  });
}

/** Open positions with the margin filter (kept in local storage), TP/SL and a market close. */
export function PositionsTable({
  positions,
  onChange,
  format,
  loading = false,
}: {
  positions: FuturesPosition[];
  onChange: () => void;
  format: ContractFormat;
  /** Not read yet: a placeholder instead of "no positions". */
  loading?: boolean;
}) {
  const { t } = useTranslation("futures");
  const [filter, setFilter] = useState<Filter>("all");
  useEffect(() => {
    const v = localStorage.getItem(POSITION_FILTER_KEY);
    if (v === "cross" || v === "isolated") setFilter(v);
  }, []);
  const shown = positions.filter((p) => filter === "all" || p.marginMode === filter);
  const num = (v: string) => <bdi dir="ltr">{v}</bdi>;
  return (
    <div className="futures-positions">
      <div className="futures-filter" role="toolbar" aria-label={t("marginMode")}>
        {FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            aria-pressed={filter === f}
            className={filter === f ? "is-active" : undefined}
            onClick={() => {
              setFilter(f);
              localStorage.setItem(POSITION_FILTER_KEY, f);
            }}
          >
            {t(f)}
          </button>
        ))}
      </div>
      <DataTable
        rows={shown}
        rowKey={(p) => `${p.symbol}:${p.positionSide}`}
        empty={t("empty")}
        loading={loading}
        testId="positions-table"
        rowAttrs={(p) => ({ "data-symbol": p.symbol, "data-side": p.positionSide })}
        columns={[
          {
            key: "symbol",
            title: t("symbol"),
            render: (p) => (
              <span>
                <b>{p.symbol}</b> {p.leverage}x {t(p.marginMode)}
                {p.positionSide === "BOTH" ? null : (
                  <span
                    className={`futures-side-tag ${p.positionSide === "LONG" ? "up" : "down"}`}
                    data-testid="position-side"
                  >
                    {t(`positionSides.${p.positionSide}`)}
                  </span>
                )}
              </span>
            ),
          },
          {
            key: "size",
            title: t("size"),
            render: (p) => (
              <bdi
                dir="ltr"
                className={p.quantity.startsWith("-") ? "down" : "up"}
                data-testid="position-size"
              >
                {format.size(p.symbol, p.quantity, t("coin.contracts"))}
              </bdi>
            ),
          },
          { key: "entry", title: t("entryPrice"), render: (p) => num(format.price(p.symbol, p.entryPrice)) },
          { key: "mark", title: t("markPrice"), render: (p) => num(format.price(p.symbol, p.markPrice)) },
          {
            key: "liq",
            title: t("liqPrice"),
            render: (p) => (
              <bdi dir="ltr" data-testid="position-liq">
                {format.price(p.symbol, p.liquidationPrice)}
              </bdi>
            ),
          },
          {
            key: "margin",
            title: t("margin"),
            render: (p) => (
              <span className="futures-margin-cell">
                <bdi dir="ltr" data-testid="position-margin">
                  {format.money(p.symbol, p.margin)}
                </bdi>
                {p.marginMode === "isolated" ? <AdjustMarginButton position={p} onDone={onChange} /> : null}
              </span>
            ),
          },
          {
            key: "ratio",
            title: t("marginRatio"),
            render: (p) => num(p.marginRatio === null ? "--" : `${p.marginRatio}%`),
          },
          {
            key: "pnl",
            title: t("pnl"),
            render: (p) => (
              <bdi
                dir="ltr"
                data-testid="position-pnl"
                className={p.unrealisedPnl.startsWith("-") ? "down" : "up"}
              >
                {format.money(p.symbol, p.unrealisedPnl)} ({p.roe}%)
              </bdi>
            ),
          },
          { key: "tpsl", title: t("tpsl"), render: (p) => <TpslCell p={p} onDone={onChange} /> },
          {
            key: "close",
            title: t("close"),
            render: (p) => (
              <button
                type="button"
                className="trade-link-button"
                data-testid="position-close"
                onClick={() =>
                  void closePosition(p).then(
                    () => {
                      toast("success", t("notice.closed"));
                      onChange();
                    },
                    (e: unknown) => {
                      toast("error", t(`errors.${errorCode(e)}`, { defaultValue: t("errors.generic") }));
                      onChange();
                    },
                  )
                }
              >
                {t("marketClose")}
              </button>
            ),
          },
        ]}
      />
    </div>
  );
}
