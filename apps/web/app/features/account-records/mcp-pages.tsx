import type {
  ClosedPositionRecord,
  FundingRecord,
  FuturesMark,
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
import { futuresApi } from "../../api/futures.ts";
import { recordsApi } from "../../api/records.ts";
import { useApiData } from "../../lib/use-api-data.ts";
import { PAGE_SIZE, usePaged } from "../../lib/use-paged.ts";
import { type Column, DataTable } from "../../ui/data-table.tsx";
import { SelectFilter } from "../../ui/record-filters.tsx";
import { type ContractFormat, contractFormat } from "../trading-screen/contract-format.ts";
import { TabStrip, useTradeAccess } from "../trading-screen/panel-parts.tsx";
import { RecordsFrame } from "../trading-screen/records-page.tsx";
import { useMounted } from "../trading-screen/use-mounted.ts";

interface McpProps {
  locale: string;
  loggedIn: boolean;
  /** The perpetual contracts (symbol filter). */
  contracts: readonly string[];
}

const num = (v: string) => <bdi dir="ltr">{v}</bdi>;

let marksRead: Promise<Record<string, FuturesMark>> | undefined;
/** The contracts' tick and step sizes, read once for every table of the page (again after a failure). */
const loadMarks = () =>
  (marksRead ??= futuresApi.marks().then(
    (list) => Object.fromEntries(list.map((m) => [m.symbol, m])),
    (error: unknown) => {
      marksRead = undefined;
      throw error;
    },
  ));

/** Contract figures as the futures screen shows them: tick, step, USDT in cents (grouped as sent until the marks answer). */
function useFormat(): ContractFormat {
  return contractFormat(useApiData(loadMarks).data ?? {});
}

function useTime() {
  const mounted = useMounted();
  return (ms: number) => (mounted ? dayjs(ms).format("YYYY-MM-DD HH:mm:ss") : "--");
}

/**
 * The texts and figures of the contract tables, and the columns most of them open with:
 * time, contract, and the margin coin `coin` reads off a row.
 */
function useContractTable() {
  const { t } = useTranslation("futures");
  const { t: tp } = useTranslation("pages");
  const time = useTime();
  const f = useFormat();
  const lead = <R extends { time: number; symbol: string }>(coin: (row: R) => string): Column<R>[] => [
    { key: "time", title: t("time"), render: (r) => time(r.time) },
    { key: "symbol", title: t("symbol"), render: (r) => r.symbol },
    { key: "coin", title: tp("mcp.marginCoin"), render: coin },
  ];
  return { t, tp, time, f, lead };
}

/** A fee down to what it holds, named with its coin on a coin-M contract ("0.0000004 BTC"). */
function feeText(f: ContractFormat, symbol: string, v: string): string {
  const coin = f.marginCoin(symbol);
  return coin === "USDT" ? f.fee(v) : `${f.fee(v)} ${coin}`;
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

type Family = "" | "usdt" | "coin";
const FAMILIES = ["usdt", "coin"] as const;
/** A contract's margin family by its symbol: coin-M symbols end in USD, USDT-M ones in USDT. */
const familyOfSymbol = (s: string): Family => (s.endsWith("USDT") ? "usdt" : "coin");

/** The contract filter's state: a margin family and a contract of it ("" for all). */
function useContractScope() {
  const [symbol, setSymbol] = useState("");
  const [family, setFamily] = useState<Family>("");
  return {
    symbol,
    setSymbol,
    family,
    setFamily,
    /** Names the filters (a change reads from the newest page again). */
    key: `${symbol}|${family}`,
    query: { symbol: symbol || undefined, family: family || undefined },
  };
}

/**
 * The filters of both contract pages: the tabs, the margin family (USDT-M / COIN-M, all
 * by default) and the contract among that family's; picking a family clears a contract
 * of the other.
 */
function ContractFilters<K extends string>({
  tabs,
  tab,
  onTab,
  scope,
  contracts,
}: {
  tabs: readonly K[];
  tab: K;
  onTab: (tab: K) => void;
  scope: ReturnType<typeof useContractScope>;
  contracts: readonly string[];
}) {
  const { t } = useTranslation("pages");
  const { symbol, family } = scope;
  return (
    <>
      <TabStrip
        tabs={tabs.map((k) => [k, t(`mcp.tabs.${k}`)] as const)}
        active={tab}
        onChange={onTab}
        testIdPrefix="mcp-tab"
      />
      <SelectFilter
        label={t("mcp.family")}
        allLabel={t("transac.all")}
        value={family}
        choices={FAMILIES.map((f) => ({
          value: f,
          label: t(`mcp.families.${f === "usdt" ? "USDT" : "COIN"}`),
        }))}
        onChange={(v) => {
          const f = v === "usdt" || v === "coin" ? v : "";
          scope.setFamily(f);
          if (f !== "" && symbol !== "" && familyOfSymbol(symbol) !== f) scope.setSymbol("");
        }}
        testId="mcp-family"
      />
      <SelectFilter
        label={t("mcp.contract")}
        allLabel={t("transac.all")}
        value={symbol}
        choices={family === "" ? contracts : contracts.filter((c) => familyOfSymbol(c) === family)}
        onChange={scope.setSymbol}
        testId="mcp-symbol"
      />
    </>
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
  const { t, tp, f, lead } = useContractTable();
  return (
    <DataTable
      rows={orders}
      rowKey={(o) => String(o.id)}
      empty={t("empty")}
      testId="mcp-orders"
      rowAttrs={(o) => ({ "data-order-id": String(o.id), "data-selected": o.id === selected ? "1" : "0" })}
      columns={[
        ...lead<FuturesOrder>((o) => f.marginCoin(o.symbol)),
        { key: "type", title: t("type"), render: (o) => t(`types.${o.type}`) },
        {
          key: "side",
          title: t("side"),
          render: (o) => <SideText side={o.side} positionSide={o.positionSide} />,
        },
        { key: "price", title: t("price"), render: (o) => num(f.price(o.symbol, o.price ?? o.stopPrice)) },
        { key: "avg", title: t("avgPrice"), render: (o) => num(f.price(o.symbol, o.avgPrice)) },
        {
          key: "exec",
          title: t("executed"),
          render: (o) => num(`${f.qty(o.symbol, o.executedQty)} / ${f.qty(o.symbol, o.quantity)}`),
        },
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
  const { t, f, lead } = useContractTable();
  return (
    <DataTable
      rows={fills}
      rowKey={(x) => String(x.id)}
      empty={t("empty")}
      testId={testId}
      rowAttrs={(x) => ({ "data-liquidation": x.liquidation ? "1" : "0" })}
      columns={[
        ...lead<FuturesTrade>((x) => x.marginCoin),
        {
          key: "side",
          title: t("side"),
          render: (x) => <SideText side={x.side} positionSide={x.positionSide} />,
        },
        { key: "price", title: t("price"), render: (x) => num(f.price(x.symbol, x.price)) },
        { key: "qty", title: t("quantity"), render: (x) => num(f.qty(x.symbol, x.quantity)) },
        { key: "pnl", title: t("realisedPnl"), render: (x) => num(f.money(x.symbol, x.realisedPnl)) },
        { key: "fee", title: t("fee"), render: (x) => num(feeText(f, x.symbol, x.fee)) },
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
  const f = useFormat();
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
    [t("mcp.marginCoin"), f.marginCoin(o.symbol)],
    [tf("type"), tf(`types.${o.type}`)],
    [tf("side"), <SideText key="s" side={o.side} positionSide={o.positionSide} />],
    [tf("price"), num(f.price(o.symbol, o.price ?? o.stopPrice))],
    [tf("quantity"), num(f.qty(o.symbol, o.quantity))],
    [tf("executed"), num(f.qty(o.symbol, o.executedQty))],
    [tf("avgPrice"), num(f.price(o.symbol, o.avgPrice))],
    [tf("status"), o.reason ? `${tf(`statuses.${o.status}`)} (${o.reason})` : tf(`statuses.${o.status}`)],
    [tf("realisedPnl"), num(f.money(o.symbol, detail.realisedPnl))],
    [tf("fee"), num(feeText(f, o.symbol, detail.fee))],
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

/** /order/mcp: contract orders of both margin families, open and past, and one order's detail with its fills. */
export function ContractOrdersPage({ locale, loggedIn, contracts }: McpProps) {
  const { t } = useTranslation("pages");
  const access = useTradeAccess(loggedIn);
  const [params] = useSearchParams();
  const orderId = Number(params.get("orderId"));
  const [tab, setTab] = useState<(typeof ORDER_TABS)[number]>("history");
  const scope = useContractScope();
  const paged = usePaged<FuturesOrder>(
    access === "ready",
    `${tab}|${scope.key}`,
    (before) => recordsApi.futuresOrders({ ...scope.query, limit: PAGE_SIZE, before }, tab === "open"),
    (o) => o.id,
  );
  return (
    <RecordsFrame
      title={t("mcp.ordersTitle")}
      testId="mcp-orders-page"
      locale={locale}
      read={{ access, ...paged }}
      loading={paged.loading}
      filters={
        <ContractFilters tabs={ORDER_TABS} tab={tab} onTab={setTab} scope={scope} contracts={contracts} />
      }
    >
      {Number.isInteger(orderId) && orderId > 0 ? <OrderDetail id={orderId} locale={locale} /> : null}
      <OrdersList orders={paged.rows} locale={locale} selected={orderId} />
    </RecordsFrame>
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
  const { time, f, lead } = useContractTable();
  const [params, setParams] = useSearchParams();
  const tab: RecordTab = (RECORD_TABS as readonly string[]).includes(params.get("tab") ?? "")
    ? (params.get("tab") as RecordTab)
    : "orders";
  const scope = useContractScope();
  const paged = usePaged<RecordRow>(
    access === "ready",
    `${tab}|${scope.key}`,
    (before) => {
      const q = { ...scope.query, limit: PAGE_SIZE, before };
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
    <RecordsFrame
      title={t("mcp.recordsTitle")}
      testId="mcp-records-page"
      locale={locale}
      read={{ access, ...paged }}
      loading={paged.loading}
      filters={
        <ContractFilters tabs={RECORD_TABS} tab={tab} onTab={handleTab} scope={scope} contracts={contracts} />
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
            ...lead<FundingRecord>((x) => x.marginCoin),
            { key: "rate", title: tf("fundingRate"), render: (x) => num(x.rate) },
            { key: "mark", title: t("mcp.markPrice"), render: (x) => num(f.price(x.symbol, x.markPrice)) },
            { key: "amount", title: tf("amount"), render: (x) => num(f.money(x.symbol, x.amount)) },
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
            { key: "coin", title: t("mcp.marginCoin"), render: (x) => x.marginCoin },
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
            { key: "entry", title: t("mcp.entryPrice"), render: (x) => num(f.price(x.symbol, x.entryPrice)) },
            { key: "exit", title: t("mcp.closePrice"), render: (x) => num(f.price(x.symbol, x.closePrice)) },
            { key: "max", title: t("mcp.maxQty"), render: (x) => num(f.qty(x.symbol, x.maxQty)) },
            { key: "pnl", title: tf("realisedPnl"), render: (x) => num(f.money(x.symbol, x.realisedPnl)) },
            { key: "net", title: t("mcp.netPnl"), render: (x) => num(f.money(x.symbol, x.netPnl)) },
            { key: "liq", title: tf("liquidation"), render: (x) => (x.liquidated ? tf("yes") : "") },
          ]}
        />
      )}
    </RecordsFrame>
  );
}
