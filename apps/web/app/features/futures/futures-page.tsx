import type { FundingRecord, FuturesOrder, FuturesTrade } from "@meridian/contracts";
import { Button, Table, Tabs } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { EnterSimulationButton } from "../simulation/enter-simulation-button.tsx";
import { useSimulation } from "../simulation/simulation-provider.tsx";
import { KlineChart } from "../trade/kline-chart.tsx";
import { OrderBook } from "../trade/order-book.tsx";
import { RecentTrades } from "../trade/recent-trades.tsx";
import { FeedContext, type MarketSnapshot, useFeedLifecycle, useMarket } from "../trade/use-market.ts";
import { futuresApi } from "./api.ts";
import { FuturesOrderForm } from "./futures-form.tsx";
import { PositionsTable } from "./positions-table.tsx";
import { useFutures } from "./use-futures.ts";

export interface FuturesPageProps {
  symbol: string;
  snapshot: MarketSnapshot;
  dark: boolean;
  loggedIn: boolean;
  layout: "auto" | "phone";
}

/** USDT-M perpetual screen: mark bar, chart, book, trades, order form and the account tables. */
export function FuturesPage(props: FuturesPageProps) {
  const { feed, status } = useFeedLifecycle();
  return (
    <FeedContext.Provider value={feed}>
      <Screen {...props} status={status} />
    </FeedContext.Provider>
  );
}

function History({ version, enabled }: { version: number; enabled: boolean }) {
  const { t } = useTranslation("futures");
  const [orders, setOrders] = useState<FuturesOrder[]>([]);
  const [trades, setTrades] = useState<FuturesTrade[]>([]);
  const [funding, setFunding] = useState<FundingRecord[]>([]);
  useEffect(() => {
    if (!enabled || version < 0) return;
    void futuresApi.orderHistory().then(setOrders, () => {});
    void futuresApi.trades().then(setTrades, () => {});
    void futuresApi.funding().then(setFunding, () => {});
  }, [enabled, version]);
  return {
    orders: (
      <Table
        size="small"
        rowKey="id"
        dataSource={orders}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          { title: t("symbol"), dataIndex: "symbol" },
          { title: t("type"), dataIndex: "type" },
          { title: t("side"), dataIndex: "side" },
          { title: t("avgPrice"), dataIndex: "avgPrice" },
          { title: t("executed"), dataIndex: "executedQty" },
          { title: t("status"), render: (_, o) => (o.reason ? `${o.status} (${o.reason})` : o.status) },
        ]}
      />
    ),
    trades: (
      <Table
        size="small"
        rowKey="id"
        dataSource={trades}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          { title: t("symbol"), dataIndex: "symbol" },
          { title: t("side"), dataIndex: "side" },
          { title: t("price"), dataIndex: "price" },
          { title: t("quantity"), dataIndex: "quantity" },
          { title: t("realisedPnl"), dataIndex: "realisedPnl" },
          { title: t("fee"), dataIndex: "fee" },
          { title: t("liquidation"), render: (_, x) => (x.liquidation ? t("yes") : "") },
        ]}
      />
    ),
    funding: (
      <Table
        size="small"
        rowKey="id"
        dataSource={funding}
        pagination={false}
        columns={[
          { title: t("symbol"), dataIndex: "symbol" },
          { title: t("fundingRate"), dataIndex: "rate" },
          { title: t("amount"), dataIndex: "amount" },
        ]}
      />
    ),
  };
}

function Screen({
  symbol,
  snapshot,
  dark,
  loggedIn,
  status,
}: FuturesPageProps & { status: ReturnType<typeof useFeedLifecycle>["status"] }) {
  const { t } = useTranslation("futures");
  const sim = useSimulation();
  const enabled = loggedIn && sim.active;
  const fut = useFutures(enabled);
  const market = useMarket(symbol, snapshot, status);
  const info = snapshot.symbols.find((s) => s.symbol === symbol);
  const mark = fut.marks[symbol];
  const history = History({ version: fut.version, enabled });
  return (
    <div className="futures-page" data-testid="futures-page">
      <div className="futures-bar">
        <h1>{t("title", { symbol })}</h1>
        <span>
          {t("markPrice")}: <b data-testid="mark-price">{mark?.markPrice ?? "--"}</b>
        </span>
        <span>
          {t("indexPrice")}: {mark?.indexPrice ?? "--"}
        </span>
        <span>
          {t("fundingRate")}: {mark?.fundingRate ?? "--"}
        </span>
      </div>
      <div className="futures-grid">
        <div className="futures-chart">
          {info && <KlineChart symbol={symbol} priceDecimals={info.priceDecimals} dark={dark} fills={[]} />}
        </div>
        <div className="futures-book">
          {info && (
            <OrderBook
              info={info}
              depth={market.depth}
              ticker={market.tickers[symbol]}
              onPickPrice={() => {}}
            />
          )}
          {info && <RecentTrades info={info} trades={market.trades} />}
        </div>
        <div className="futures-side">
          {!enabled && (loggedIn ? <EnterSimulationButton /> : <a href="/login">{t("login")}</a>)}
          <FuturesOrderForm symbol={symbol} enabled={enabled} onPlaced={fut.refresh} />
          {fut.account && (
            <dl className="futures-account" data-testid="futures-account">
              <dt>{t("wallet")}</dt>
              <dd>{fut.account.wallet}</dd>
              <dt>{t("available")}</dt>
              <dd>{fut.account.available}</dd>
              <dt>{t("unrealisedPnl")}</dt>
              <dd>{fut.account.unrealisedPnl}</dd>
            </dl>
          )}
        </div>
      </div>
      <Tabs
        items={[
          {
            key: "positions",
            label: `${t("positions")} (${fut.positions.length})`,
            children: <PositionsTable positions={fut.positions} onChange={fut.refresh} />,
          },
          {
            key: "open",
            label: `${t("openOrders")} (${fut.openOrders.length})`,
            children: (
              <Table
                size="small"
                rowKey="id"
                dataSource={fut.openOrders}
                pagination={false}
                columns={[
                  { title: t("symbol"), dataIndex: "symbol" },
                  { title: t("type"), dataIndex: "type" },
                  { title: t("side"), dataIndex: "side" },
                  { title: t("price"), render: (_, o) => o.price ?? o.stopPrice },
                  {
                    title: t("quantity"),
                    render: (_, o) => (o.closePosition ? t("closePosition") : o.quantity),
                  },
                  {
                    title: "",
                    render: (_, o) => (
                      <Button size="small" onClick={() => void futuresApi.cancel(o.id).then(fut.refresh)}>
                        {t("cancel")}
                      </Button>
                    ),
                  },
                ]}
              />
            ),
          },
          { key: "history", label: t("orderHistory"), children: history.orders },
          { key: "trades", label: t("tradeHistory"), children: history.trades },
          { key: "funding", label: t("fundingHistory"), children: history.funding },
        ]}
      />
    </div>
  );
}
