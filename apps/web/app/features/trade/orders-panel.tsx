import type { PaperOrder } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { paperApi } from "../../api/paper.ts";
import {
  BalancesTable,
  OrdersTable,
  type SymbolIndex,
  TradesTable,
} from "../trading-screen/order-tables.tsx";
import { AccountTablesBody, TabStrip, type TradeAccess } from "../trading-screen/panel-parts.tsx";
import { toast } from "../trading-screen/toast.ts";
import type { PaperState } from "./use-paper.ts";

type Tab = "open" | "history" | "trades" | "assets";

interface OrdersPanelProps {
  symbol: string;
  symbols: SymbolIndex;
  locale: string;
  access: TradeAccess;
  paper: PaperState;
}

/** Open orders (with cancel), order history, trade history and assets under the trade screen. */
export function OrdersPanel({ symbol, symbols, locale, access, paper }: OrdersPanelProps) {
  const { t } = useTranslation("trade");
  const [tab, setTab] = useState<Tab>("open");
  const [onlyThis, setOnlyThis] = useState(false);
  const [cancelling, setCancelling] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState("");

  const mine = <T extends { symbol: string }>(list: readonly T[]) =>
    onlyThis ? list.filter((x) => x.symbol === symbol) : list;

  const cancel = async (order: PaperOrder) => {
    setError("");
    setCancelling((prev) => new Set(prev).add(order.orderId));
    try {
      paper.applyOrder(await paperApi.cancel(order.orderId));
      toast("success", t("orders.cancelled"));
    } catch {
      setError(t("orders.cancelFailed"));
      toast("error", t("orders.cancelFailed"));
      void paper.refresh().catch(() => undefined);
    } finally {
      setCancelling((prev) => {
        const next = new Set(prev);
        next.delete(order.orderId);
        return next;
      });
    }
  };

  const tabs: Array<[Tab, string]> = [
    // No count before the lists are read: "(0)" would say there are none.
    [
      "open",
      t("orders.openTab", {
        n: paper.loading && paper.openOrders.length === 0 ? "…" : paper.openOrders.length,
      }),
    ],
    ["history", t("orders.historyTab")],
    ["trades", t("orders.tradesTab")],
    ["assets", t("orders.assetsTab")],
  ];

  return (
    <section className="trade-panel trade-orders" aria-label={t("orders.title")} data-testid="orders-panel">
      <header className="trade-panel-head">
        <TabStrip tabs={tabs} active={tab} onChange={setTab} testIdPrefix="orders-tab" />
        <div className="trade-orders-tools">
          <label className="trade-check">
            <input type="checkbox" checked={onlyThis} onChange={(e) => setOnlyThis(e.target.checked)} />
            {t("orders.onlyThis")}
          </label>
          {access === "ready" ? (
            <a href={localizePath(locale, "/record/exchange")}>{t("orders.allRecords")}</a>
          ) : null}
        </div>
      </header>
      <AccountTablesBody
        access={access}
        error={error}
        loading={paper.loading}
        loadError={paper.error}
        onRetry={() => void paper.refresh().catch(() => undefined)}
      >
        {tab === "open" ? (
          <OrdersTable
            orders={mine(paper.openOrders)}
            symbols={symbols}
            onCancel={(o) => void cancel(o)}
            cancelling={cancelling}
            testId="open-orders"
          />
        ) : null}
        {tab === "history" ? (
          <OrdersTable orders={mine(paper.history)} symbols={symbols} testId="order-history" />
        ) : null}
        {tab === "trades" ? (
          <TradesTable trades={mine(paper.trades)} symbols={symbols} testId="trade-history" />
        ) : null}
        {tab === "assets" ? <BalancesTable balances={paper.balances} testId="trade-assets" /> : null}
      </AccountTablesBody>
    </section>
  );
}
