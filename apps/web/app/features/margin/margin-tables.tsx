import type { MarginAssetView, MarginOrder } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { marginApi, marginErrorText, trimDecimal } from "../../api/margin.ts";
import { assetAmount } from "../../ui/amounts.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { OrdersTable, type SymbolIndex, TradesTable } from "../trading-screen/order-tables.tsx";
import { AccountTablesBody, TabStrip, type TradeAccess } from "../trading-screen/panel-parts.tsx";
import { toast } from "../trading-screen/toast.ts";
import type { MarginState } from "./use-margin.ts";

/** An asset amount down to what it holds, at most 8 decimals ("-1.238", not "-1.23800000"). */
const amount = (v: string) => trimDecimal(v);

/** Every asset of a margin account: free, locked, borrowed, interest and net. */
export function MarginAssetsTable({
  assets,
  testId,
}: {
  assets: readonly MarginAssetView[];
  testId: string;
}) {
  const { t } = useTranslation("margin");
  const cols = (["free", "locked", "borrowed", "interest", "netAsset"] as const).map((k) => ({
    key: k,
    title: t(`assets.${k}`),
    render: (a: MarginAssetView) => (
      <bdi dir="ltr" data-testid={`${k}-${a.asset}`}>
        {/* Holdings in the asset's display precision (USDT in cents); debts to the unit, as charged. */}
        {k === "borrowed" || k === "interest" ? amount(a[k]) : assetAmount(a.asset, a[k])}
      </bdi>
    ),
  }));
  return (
    <DataTable
      rows={assets}
      rowKey={(a) => a.asset}
      rowAttrs={(a) => ({ "data-asset": a.asset })}
      columns={[
        { key: "asset", title: t("assets.asset"), render: (a) => <strong>{a.asset}</strong> },
        ...cols,
      ]}
      empty={t("assets.empty")}
      testId={testId}
    />
  );
}

type Tab = "open" | "history" | "trades" | "assets";

/** Under the margin screen: open margin orders (cancel), order and trade history, and the account's assets. */
export function MarginOrdersPanel({
  symbols,
  locale,
  access,
  margin,
}: {
  symbols: SymbolIndex;
  locale: string;
  access: TradeAccess;
  margin: MarginState;
}) {
  const { t } = useTranslation("margin");
  const { t: tt } = useTranslation("trade");
  const [tab, setTab] = useState<Tab>("open");
  const [error, setError] = useState("");
  const [cancelling, setCancelling] = useState<ReadonlySet<number>>(new Set());

  const cancel = async (o: MarginOrder) => {
    setError("");
    setCancelling((prev) => new Set(prev).add(o.orderId));
    try {
      margin.applyOrder(await marginApi.cancel(o.orderId));
      toast("success", tt("orders.cancelled"));
    } catch (e) {
      const text = marginErrorText(t, e);
      setError(text);
      toast("error", text);
      margin.refresh();
    } finally {
      setCancelling((prev) => new Set([...prev].filter((id) => id !== o.orderId)));
    }
  };

  return (
    <section
      className="trade-panel trade-orders"
      aria-label={tt("orders.title")}
      data-testid="margin-orders-panel"
    >
      <header className="trade-panel-head">
        <TabStrip
          tabs={[
            [
              "open",
              tt("orders.openTab", {
                n: margin.loading && margin.openOrders.length === 0 ? "…" : margin.openOrders.length,
              }),
            ],
            ["history", tt("orders.historyTab")],
            ["trades", tt("orders.tradesTab")],
            ["assets", tt("orders.assetsTab")],
          ]}
          active={tab}
          onChange={setTab}
          testIdPrefix="margin-tab"
        />
        {access === "ready" ? (
          <div className="trade-orders-tools">
            <a href={localizePath(locale, "/order/marginOrderInfo")}>{t("links.orders")}</a>
            <a href={localizePath(locale, "/record/margin")}>{t("links.records")}</a>
          </div>
        ) : null}
      </header>
      <AccountTablesBody access={access} error={error} loading={margin.loading}>
        {tab === "open" ? (
          <OrdersTable
            orders={margin.openOrders}
            symbols={symbols}
            onCancel={(o) => void cancel(o as MarginOrder)}
            cancelling={cancelling}
            testId="margin-open-orders"
          />
        ) : null}
        {tab === "history" ? (
          <OrdersTable orders={margin.history} symbols={symbols} testId="margin-order-history" />
        ) : null}
        {tab === "trades" ? (
          <TradesTable trades={margin.trades} symbols={symbols} testId="margin-trade-history" />
        ) : null}
        {tab === "assets" ? (
          <MarginAssetsTable assets={margin.account?.assets ?? []} testId="margin-assets" />
        ) : null}
      </AccountTablesBody>
    </section>
  );
}
