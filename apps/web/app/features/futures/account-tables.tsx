import type { MarketSymbolInfo, PositionSideValue } from "@meridian/contracts";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "../../api/futures.ts";
import { errorCode } from "../../api/paper.ts";
import { firstError, useApiData } from "../../lib/use-api-data.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { LoadError } from "../shell/load-error.tsx";
import { contractFormat } from "../trading-screen/contract-format.ts";
import { TabStrip, type TradeAccess } from "../trading-screen/panel-parts.tsx";
import { toast } from "../trading-screen/toast.ts";
import type { MarginFamily } from "./families.ts";
import { PositionsTable } from "./positions-table.tsx";
import type { FuturesState } from "./use-futures.ts";

type Tab = "positions" | "open" | "history" | "trades" | "funding";
const TABS: Tab[] = ["positions", "open", "history", "trades", "funding"];

const num = (v: string) => <bdi dir="ltr">{v}</bdi>;
const time = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

function useHistory(tab: Tab, version: number, enabled: boolean, family: MarginFamily) {
  const loadOrders = useCallback(() => futuresApi.orderHistory(family), [family]);
  const loadTrades = useCallback(() => futuresApi.trades(family), [family]);
  const loadFunding = useCallback(() => futuresApi.funding(family), [family]);
  const orders = useApiData(loadOrders, enabled && tab === "history", version);
  const trades = useApiData(loadTrades, enabled && tab === "trades", version);
  const funding = useApiData(loadFunding, enabled && tab === "funding", version);
  return {
    orders: orders.data ?? [],
    trades: trades.data ?? [],
    funding: funding.data ?? [],
    loading: { history: !orders.settled, trades: !trades.settled, funding: !funding.settled },
    error: firstError(orders, trades, funding),
    reload: () => {
      void orders.reload();
      void trades.reload();
      void funding.reload();
    },
  };
}

/** Positions, open orders and the order, trade and funding histories under the screen. */
export function AccountTables({
  access,
  fut,
}: {
  symbol: string;
  info: MarketSymbolInfo;
  access: TradeAccess;
  fut: FuturesState;
}) {
  const { t } = useTranslation("futures");
  const [tab, setTab] = useState<Tab>("positions");
  const enabled = access === "ready";
  const history = useHistory(tab, fut.version, enabled, fut.family);
  const format = contractFormat(fut.marks);
  const count = (x: Tab) => {
    if (x !== "positions" && x !== "open") return "";
    const n = x === "positions" ? fut.positions.length : fut.openOrders.length;
    // No "(0)" before the lists are read: it would say there are none.
    return fut.listsLoading && n === 0 ? " (…)" : ` (${n})`;
  };
  const side = (s: "BUY" | "SELL", positionSide: PositionSideValue = "BOTH") => (
    <span className={s === "BUY" ? "up" : "down"}>
      {t(`sides.${s}`)}
      {positionSide === "BOTH" ? "" : ` · ${t(`positionSides.${positionSide}`)}`}
    </span>
  );
  return (
    <section className="trade-panel trade-orders futures-tables" aria-label={t("positions")}>
      <TabStrip
        tabs={TABS.map((x) => [x, `${t(`tabs.${x}`)}${enabled ? count(x) : ""}`] as const)}
        active={tab}
        onChange={setTab}
        testIdPrefix="futures-tab"
      />
      {enabled ? <LoadError error={history.error} onRetry={history.reload} /> : null}
      {!enabled ? (
        <p className="futures-empty">{t(access === "guest" ? "gate.login" : "gate.simulation")}</p>
      ) : tab === "positions" ? (
        <PositionsTable
          positions={fut.positions}
          onChange={fut.refresh}
          format={format}
          loading={fut.listsLoading}
        />
      ) : tab === "open" ? (
        <DataTable
          rows={fut.openOrders}
          rowKey={(o) => String(o.id)}
          empty={t("empty")}
          loading={fut.listsLoading}
          testId="futures-open-orders"
          rowAttrs={(o) => ({ "data-order-id": String(o.id) })}
          columns={[
            { key: "time", title: t("time"), render: (o) => time(o.time) },
            { key: "symbol", title: t("symbol"), render: (o) => o.symbol },
            { key: "type", title: t("type"), render: (o) => t(`types.${o.type}`) },
            { key: "side", title: t("side"), render: (o) => side(o.side, o.positionSide) },
            {
              key: "price",
              title: t("price"),
              render: (o) => num(format.price(o.symbol, o.price ?? o.stopPrice)),
            },
            {
              key: "qty",
              title: t("quantity"),
              render: (o) => (o.closePosition ? t("closePosition") : num(format.qty(o.symbol, o.quantity))),
            },
            {
              key: "cancel",
              title: "",
              render: (o) => (
                <button
                  type="button"
                  className="trade-link-button"
                  onClick={() =>
                    void futuresApi.cancel(o.id).then(
                      () => {
                        toast("success", t("notice.canceled"));
                        fut.refresh();
                      },
                      (e: unknown) => {
                        toast("error", t(`errors.${errorCode(e)}`, { defaultValue: t("errors.cancel") }));
                        fut.refresh();
                      },
                    )
                  }
                  data-testid="futures-cancel"
                >
                  {t("cancel")}
                </button>
              ),
            },
          ]}
        />
      ) : tab === "history" ? (
        <DataTable
          rows={history.orders}
          loading={history.loading.history}
          rowKey={(o) => String(o.id)}
          empty={t("empty")}
          testId="futures-order-history"
          rowAttrs={(o) => ({ "data-status": o.status })}
          columns={[
            { key: "time", title: t("time"), render: (o) => time(o.updateTime) },
            { key: "symbol", title: t("symbol"), render: (o) => o.symbol },
            { key: "type", title: t("type"), render: (o) => t(`types.${o.type}`) },
            { key: "side", title: t("side"), render: (o) => side(o.side, o.positionSide) },
            { key: "avg", title: t("avgPrice"), render: (o) => num(format.price(o.symbol, o.avgPrice)) },
            { key: "exec", title: t("executed"), render: (o) => num(format.qty(o.symbol, o.executedQty)) },
            {
              key: "status",
              title: t("status"),
              render: (o) =>
                o.reason ? `${t(`statuses.${o.status}`)} (${o.reason})` : t(`statuses.${o.status}`),
            },
          ]}
        />
      ) : tab === "trades" ? (
        <DataTable
          rows={history.trades}
          loading={history.loading.trades}
          rowKey={(x) => String(x.id)}
          empty={t("empty")}
          testId="futures-trades"
          rowAttrs={(x) => ({ "data-liquidation": x.liquidation ? "1" : "0" })}
          columns={[
            { key: "time", title: t("time"), render: (x) => time(x.time) },
            { key: "symbol", title: t("symbol"), render: (x) => x.symbol },
            { key: "side", title: t("side"), render: (x) => side(x.side, x.positionSide) },
            { key: "price", title: t("price"), render: (x) => num(format.price(x.symbol, x.price)) },
            { key: "qty", title: t("quantity"), render: (x) => num(format.qty(x.symbol, x.quantity)) },
            {
              key: "pnl",
              title: t("realisedPnl"),
              render: (x) => num(format.money(x.symbol, x.realisedPnl)),
            },
            {
              key: "fee",
              title: t("fee"),
              render: (x) => num(x.marginCoin === "USDT" ? format.fee(x.fee) : format.money(x.symbol, x.fee)),
            },
            { key: "liq", title: t("liquidation"), render: (x) => (x.liquidation ? t("yes") : "") },
          ]}
        />
      ) : (
        <DataTable
          rows={history.funding}
          loading={history.loading.funding}
          rowKey={(x) => String(x.id)}
          empty={t("empty")}
          columns={[
            { key: "time", title: t("time"), render: (x) => time(x.time) },
            { key: "symbol", title: t("symbol"), render: (x) => x.symbol },
            { key: "rate", title: t("fundingRate"), render: (x) => num(x.rate) },
            { key: "amount", title: t("amount"), render: (x) => num(format.money(x.symbol, x.amount)) },
          ]}
        />
      )}
    </section>
  );
}
