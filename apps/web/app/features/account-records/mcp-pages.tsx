import type {
  ClosedPositionRecord,
  FundingRecord,
  FuturesOrder,
  FuturesOrderDetail,
  FuturesTrade,
  PositionSideValue,
} from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import dayjs from "dayjs";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PAGE_SIZE, usePaged } from "../../lib/use-paged.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { SelectFilter } from "../../ui/record-filters.tsx";
import { HistoryFrame } from "../margin/history-pages.tsx";
import { TabStrip, useTradeAccess } from "../trading-screen/panel-parts.tsx";
import { useMounted } from "../trading-screen/use-mounted.ts";
import { recordsApi } from "./api.ts";

interface McpProps {
  locale: string;
  loggedIn: boolean;
  /** The perpetual contracts (symbol filter). */
  contracts: readonly string[];
}

const num = (v: string) => <bdi dir="ltr">{v}</bdi>;

function useTime() {
  const mounted = useMounted();
  return (ms: number) => (mounted ? dayjs(ms).format("YYYY-MM-DD HH:mm:ss") : "--");
}

function SideText({ side, positionSide }: { side: "BUY" | "SELL"; positionSide: PositionSideValue }) {
  const { t } = useTranslation("futures");
  return (
    <span className={side === "BUY" ? "up" : "down"}>
      {t(`sides.${side}`)}
      {positionSide === "BOTH" ? "" : ` · ${t(`positionSides.${positionSide}`)}`}
    </span>
  );
}

function ContractFilter({
  symbol,
  onSymbol,
  contracts,
}: {
  symbol: string;
  onSymbol: (s: string) => void;
  contracts: readonly string[];
}) {
  const { t } = useTranslation("pages");
  return (
    <SelectFilter
      label={t("mcp.contract")}
      allLabel={t("transac.all")}
      value={symbol}
      choices={contracts}
      onChange={onSymbol}
      testId="mcp-symbol"
    />
  );
}

function OrdersList({
  orders,
  locale,
  selected,
}: {
  orders: readonly FuturesOrder[];
  locale: string;
  selected?: number | undefined;
}) {
  const { t } = useTranslation("futures");
  const { t: tp } = useTranslation("pages");
  const time = useTime();
  return (
    <DataTable
      rows={orders}
      rowKey={(o) => String(o.id)}
      empty={t("empty")}
      testId="mcp-orders"
      rowAttrs={(o) => ({ "data-order-id": String(o.id), "data-selected": o.id === selected ? "1" : "0" })}
      columns={[
        { key: "time", title: t("time"), render: (o) => time(o.time) },
        { key: "symbol", title: t("symbol"), render: (o) => o.symbol },
        { key: "type", title: t("type"), render: (o) => t(`types.${o.type}`) },
        {
          key: "side",
          title: t("side"),
          render: (o) => <SideText side={o.side} positionSide={o.positionSide} />,
        },
        { key: "price", title: t("price"), render: (o) => num(o.price ?? o.stopPrice ?? "--") },
        { key: "avg", title: t("avgPrice"), render: (o) => num(o.avgPrice) },
        { key: "exec", title: t("executed"), render: (o) => num(`${o.executedQty} / ${o.quantity}`) },
        { key: "status", title: t("status"), render: (o) => t(`statuses.${o.status}`) },
        {
          key: "detail",
          title: "",
          render: (o) => (
            <a
              className="trade-link-button"
              href={`${localizePath(locale, "/order/mcp")}?orderId=${o.id}`}
              data-testid="mcp-order-detail-link"
            >
              {tp("mcp.details")}
            </a>
          ),
        },
      ]}
    />
  );
}

function FillsTable({ fills, testId }: { fills: readonly FuturesTrade[]; testId: string }) {
  const { t } = useTranslation("futures");
  const time = useTime();
  return (
    <DataTable
      rows={fills}
      rowKey={(x) => String(x.id)}
      empty={t("empty")}
      testId={testId}
      rowAttrs={(x) => ({ "data-liquidation": x.liquidation ? "1" : "0" })}
      columns={[
        { key: "time", title: t("time"), render: (x) => time(x.time) },
        { key: "symbol", title: t("symbol"), render: (x) => x.symbol },
        {
          key: "side",
          title: t("side"),
          render: (x) => <SideText side={x.side} positionSide={x.positionSide} />,
        },
        { key: "price", title: t("price"), render: (x) => num(x.price) },
        { key: "qty", title: t("quantity"), render: (x) => num(x.quantity) },
        { key: "pnl", title: t("realisedPnl"), render: (x) => num(x.realisedPnl) },
        { key: "fee", title: t("fee"), render: (x) => num(x.fee) },
        { key: "liq", title: t("liquidation"), render: (x) => (x.liquidation ? t("yes") : "") },
      ]}
    />
  );
}

/** One order with its fills (`?orderId=`). */
function OrderDetail({ id, locale }: { id: number; locale: string }) {
  const { t } = useTranslation("pages");
  const { t: tf } = useTranslation("futures");
  const [detail, setDetail] = useState<FuturesOrderDetail | null | "missing">(null);
  useEffect(() => {
    let stale = false;
    recordsApi.futuresOrder(id).then(
      (d) => !stale && setDetail(d),
      () => !stale && setDetail("missing"),
    );
    return () => {
      stale = true;
    };
  }, [id]);
  if (detail === null) return <p className="trade-empty">{t("transac.loading")}</p>;
  if (detail === "missing")
    return (
      <p className="trade-notice is-error" role="alert" data-testid="mcp-order-missing">
        {t("mcp.notFound")}
      </p>
    );
  const o = detail.order;
  const facts: [string, React.ReactNode][] = [
    [tf("symbol"), o.symbol],
    [tf("type"), tf(`types.${o.type}`)],
    [tf("side"), <SideText key="s" side={o.side} positionSide={o.positionSide} />],
    [tf("price"), num(o.price ?? o.stopPrice ?? "--")],
    [tf("quantity"), num(o.quantity)],
    [tf("executed"), num(o.executedQty)],
    [tf("avgPrice"), num(o.avgPrice)],
    [tf("status"), o.reason ? `${tf(`statuses.${o.status}`)} (${o.reason})` : tf(`statuses.${o.status}`)],
    [tf("realisedPnl"), num(detail.realisedPnl)],
    [tf("fee"), num(detail.fee)],
  ];
  return (
    <section
      className="mcp-detail"
      data-testid="mcp-order-detail"
      aria-label={t("mcp.detailTitle", { id: o.id })}
    >
      <h2>
        {t("mcp.detailTitle", { id: o.id })}{" "}
        <a className="trade-link-button" href={localizePath(locale, "/order/mcp")}>
          {t("mcp.back")}
        </a>
      </h2>
      <dl className="mcp-facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <h3>{t("mcp.fills")}</h3>
      <FillsTable fills={detail.fills} testId="mcp-order-fills" />
    </section>
  );
}

const ORDER_TABS = ["open", "history"] as const;

/** /order/mcp: contract (USDT-M futures) orders, open and past, and one order's detail with its fills. */
export function ContractOrdersPage({ locale, loggedIn, contracts }: McpProps) {
  const { t } = useTranslation("pages");
  const access = useTradeAccess(loggedIn);
  const [params] = useSearchParams();
  const orderId = Number(params.get("orderId"));
  const [tab, setTab] = useState<(typeof ORDER_TABS)[number]>("history");
  const [symbol, setSymbol] = useState("");
  const paged = usePaged<FuturesOrder>(
    access === "ready",
    `${tab}|${symbol}`,
    (before) =>
      recordsApi.futuresOrders({ symbol: symbol || undefined, limit: PAGE_SIZE, before }, tab === "open"),
    (o) => o.id,
  );
  return (
    <HistoryFrame
      title={t("mcp.ordersTitle")}
      testId="mcp-orders-page"
      access={access}
      locale={locale}
      paged={paged}
      filters={
        <>
          <TabStrip
            tabs={ORDER_TABS.map((k) => [k, t(`mcp.tabs.${k}`)] as const)}
            active={tab}
            onChange={setTab}
            testIdPrefix="mcp-tab"
          />
          <ContractFilter symbol={symbol} onSymbol={setSymbol} contracts={contracts} />
        </>
      }
    >
      {Number.isInteger(orderId) && orderId > 0 ? <OrderDetail id={orderId} locale={locale} /> : null}
      <OrdersList orders={paged.rows} locale={locale} selected={orderId} />
    </HistoryFrame>
  );
}

const RECORD_TABS = ["orders", "trades", "funding", "positions"] as const;
type RecordTab = (typeof RECORD_TABS)[number];
type RecordRow = FuturesOrder | FuturesTrade | FundingRecord | ClosedPositionRecord;

/** /record/mcp: contract order, trade, funding and position-history records. */
export function ContractRecordsPage({ locale, loggedIn, contracts }: McpProps) {
  const { t } = useTranslation("pages");
  const { t: tf } = useTranslation("futures");
  const access = useTradeAccess(loggedIn);
  const time = useTime();
  const [params, setParams] = useSearchParams();
  const tab: RecordTab = (RECORD_TABS as readonly string[]).includes(params.get("tab") ?? "")
    ? (params.get("tab") as RecordTab)
    : "orders";
  const [symbol, setSymbol] = useState("");
  const paged = usePaged<RecordRow>(
    access === "ready",
    `${tab}|${symbol}`,
    (before) => {
      const q = { symbol: symbol || undefined, limit: PAGE_SIZE, before };
      if (tab === "trades") return recordsApi.futuresTrades(q);
      if (tab === "funding") return recordsApi.funding(q);
      if (tab === "positions") return recordsApi.positionHistory(q);
      return recordsApi.futuresOrders(q, false);
    },
    // Position history pages by close time; the others by id.
    (row) => ("closeTime" in row ? row.closeTime : row.id),
  );
  const handleTab = (k: RecordTab) =>
    setParams(
      (p) => {
        p.set("tab", k);
        return p;
      },
      { replace: true },
    );
  return (
    <HistoryFrame
      title={t("mcp.recordsTitle")}
      testId="mcp-records-page"
      access={access}
      locale={locale}
      paged={paged}
      filters={
        <>
          <TabStrip
            tabs={RECORD_TABS.map((k) => [k, t(`mcp.tabs.${k}`)] as const)}
            active={tab}
            onChange={handleTab}
            testIdPrefix="mcp-tab"
          />
          <ContractFilter symbol={symbol} onSymbol={setSymbol} contracts={contracts} />
        </>
      }
    >
      {tab === "orders" ? (
        <OrdersList orders={paged.rows as FuturesOrder[]} locale={locale} />
      ) : tab === "trades" ? (
        <FillsTable fills={paged.rows as FuturesTrade[]} testId="mcp-trades" />
      ) : tab === "funding" ? (
        <DataTable
          rows={paged.rows as FundingRecord[]}
          rowKey={(x) => String(x.id)}
          empty={tf("empty")}
          testId="mcp-funding"
          columns={[
            { key: "time", title: tf("time"), render: (x) => time(x.time) },
            { key: "symbol", title: tf("symbol"), render: (x) => x.symbol },
            { key: "rate", title: tf("fundingRate"), render: (x) => num(x.rate) },
            { key: "mark", title: t("mcp.markPrice"), render: (x) => num(x.markPrice) },
            { key: "amount", title: tf("amount"), render: (x) => num(x.amount) },
          ]}
        />
      ) : (
        <DataTable
          rows={paged.rows as ClosedPositionRecord[]}
          rowKey={(x) => `${x.symbol}-${x.positionSide}-${x.closeTime}`}
          empty={tf("empty")}
          testId="mcp-positions"
          rowAttrs={(x) => ({ "data-direction": x.direction })}
          columns={[
            { key: "symbol", title: tf("symbol"), render: (x) => x.symbol },
            {
              key: "direction",
              title: t("mcp.direction"),
              render: (x) => (
                <span className={x.direction === "LONG" ? "up" : "down"}>
                  {t(`mcp.directions.${x.direction}`)}
                </span>
              ),
            },
            { key: "open", title: t("mcp.opened"), render: (x) => time(x.openTime) },
            { key: "close", title: t("mcp.closed"), render: (x) => time(x.closeTime) },
            { key: "entry", title: t("mcp.entryPrice"), render: (x) => num(x.entryPrice) },
            { key: "exit", title: t("mcp.closePrice"), render: (x) => num(x.closePrice) },
            { key: "max", title: t("mcp.maxQty"), render: (x) => num(x.maxQty) },
            { key: "pnl", title: tf("realisedPnl"), render: (x) => num(x.realisedPnl) },
            { key: "net", title: t("mcp.netPnl"), render: (x) => num(x.netPnl) },
            { key: "liq", title: tf("liquidation"), render: (x) => (x.liquidated ? tf("yes") : "") },
          ]}
        />
      )}
    </HistoryFrame>
  );
}
