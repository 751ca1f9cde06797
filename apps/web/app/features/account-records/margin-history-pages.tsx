import {
  MARGIN_RECORD_TYPES,
  type MarginAccountModeValue,
  type MarginOrder,
  type MarginRecord,
  type MarginRecordType,
  type MarginTrade,
  type MarketSymbolInfo,
} from "@meridian/contracts";
import dayjs from "dayjs";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { marginApi, marginPairs, trimDecimal } from "../../api/margin.ts";
import { PAGE_SIZE, usePaged } from "../../lib/use-paged.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { SelectFilter } from "../../ui/record-filters.tsx";
import { OrdersTable, type SymbolIndex, TradesTable } from "../trading-screen/order-tables.tsx";
import { TabStrip, useTradeAccess } from "../trading-screen/panel-parts.tsx";
import { RecordsFrame } from "../trading-screen/records-page.tsx";
import { useMounted } from "../trading-screen/use-mounted.ts";

type ModeFilter = "" | MarginAccountModeValue;

interface HistoryPageProps {
  locale: string;
  loggedIn: boolean;
  symbols: readonly MarketSymbolInfo[];
}

/** The margin pairs for the pair filter (every market symbol until they load). */
function usePairSymbols(symbols: readonly MarketSymbolInfo[]): string[] {
  const [pairs, setPairs] = useState<string[] | null>(null);
  useEffect(() => {
    void marginPairs().then(
      (p) => setPairs(p.pairs.map((x) => x.symbol)),
      () => {},
    );
  }, []);
  return pairs ?? symbols.map((s) => s.symbol);
}

/** The account (all, cross, isolated) and pair filters both margin pages read by. */
function useMarginScope(symbols: readonly MarketSymbolInfo[]) {
  const pairs = usePairSymbols(symbols);
  const [mode, setMode] = useState<ModeFilter>("");
  const [symbol, setSymbol] = useState("");
  return {
    pairs,
    mode,
    setMode,
    symbol,
    setSymbol,
    /** Names the filters (a change reads from the newest page again). */
    key: `${mode}|${symbol}`,
    query: { mode: mode || undefined, symbol: symbol || undefined },
  };
}

/** The account (all, cross, isolated) and pair filters. */
function ScopeFilters({ scope }: { scope: ReturnType<typeof useMarginScope> }) {
  const { t } = useTranslation("margin");
  return (
    <>
      <SelectFilter
        label={t("filters.account")}
        allLabel={t("filters.all")}
        value={scope.mode}
        choices={[
          { value: "cross", label: t("cross") },
          { value: "isolated", label: t("isolated") },
        ]}
        onChange={(v) => scope.setMode(v as ModeFilter)}
        testId="filter-mode"
      />
      <SelectFilter
        label={t("filters.pair")}
        allLabel={t("filters.all")}
        value={scope.symbol}
        choices={scope.pairs}
        onChange={scope.setSymbol}
        testId="filter-symbol"
      />
    </>
  );
}

const ORDER_TABS = ["open", "history", "trades"] as const;
type OrderTab = (typeof ORDER_TABS)[number];
type OrderRow = MarginOrder | MarginTrade;

/** /order/marginOrderInfo: margin open orders, order history and trade history, by account and pair. */
export function MarginOrdersPage({ locale, loggedIn, symbols }: HistoryPageProps) {
  const { t } = useTranslation("margin");
  const { t: tt } = useTranslation("trade");
  const access = useTradeAccess(loggedIn);
  const scope = useMarginScope(symbols);
  const [tab, setTab] = useState<OrderTab>("open");
  const index: SymbolIndex = useMemo(() => Object.fromEntries(symbols.map((s) => [s.symbol, s])), [symbols]);
  const paged = usePaged<OrderRow>(
    access === "ready",
    `${tab}|${scope.key}`,
    (before) => {
      const q = { ...scope.query, limit: PAGE_SIZE, before };
      if (tab === "trades") return marginApi.trades(q);
      return tab === "open" ? marginApi.openOrders(q) : marginApi.orderHistory(q);
    },
    (row) => ("tradeId" in row ? row.tradeId : row.orderId),
  );
  return (
    <RecordsFrame
      title={t("orders.title")}
      testId="margin-orders-page"
      locale={locale}
      read={{ access, ...paged }}
      loading={paged.loading}
      filters={
        <>
          <TabStrip
            tabs={ORDER_TABS.map((k) => [k, tt(`records.tabs.${k}`)] as const)}
            active={tab}
            onChange={setTab}
            testIdPrefix="records-tab"
          />
          <ScopeFilters scope={scope} />
        </>
      }
    >
      {tab === "trades" ? (
        <TradesTable trades={paged.rows as MarginTrade[]} symbols={index} testId="margin-records-trades" />
      ) : (
        <OrdersTable orders={paged.rows as MarginOrder[]} symbols={index} testId="margin-records-orders" />
      )}
    </RecordsFrame>
  );
}

const TYPE_FILTERS: ReadonlyArray<"" | MarginRecordType> = ["", ...MARGIN_RECORD_TYPES];

/** /record/margin: borrow, repay, interest, liquidation and transfer records, by type, account and pair. */
export function MarginRecordsPage({ locale, loggedIn, symbols }: HistoryPageProps) {
  const { t } = useTranslation("margin");
  const access = useTradeAccess(loggedIn);
  const scope = useMarginScope(symbols);
  const mounted = useMounted();
  const [type, setType] = useState<"" | MarginRecordType>("");
  const paged = usePaged<MarginRecord>(
    access === "ready",
    `${type}|${scope.key}`,
    (before) => marginApi.records({ type: type || undefined, ...scope.query, limit: PAGE_SIZE, before }),
    (r) => r.id,
  );
  const part = (v: string | null) => (v === null ? "--" : <bdi dir="ltr">{trimDecimal(v)}</bdi>);
  return (
    <RecordsFrame
      title={t("records.title")}
      testId="margin-records-page"
      locale={locale}
      read={{ access, ...paged }}
      loading={paged.loading}
      filters={
        <>
          <TabStrip
            tabs={TYPE_FILTERS.map((k) => [k || "ALL", t(`records.types.${k || "ALL"}`)] as const)}
            active={type || "ALL"}
            onChange={(k) => setType(k === "ALL" ? "" : (k as MarginRecordType))}
            testIdPrefix="record-type"
          />
          <ScopeFilters scope={scope} />
        </>
      }
    >
      <DataTable
        rows={paged.rows}
        rowKey={(r) => String(r.id)}
        rowAttrs={(r) => ({ "data-type": r.type })}
        empty={t("records.empty")}
        testId="margin-records"
        columns={[
          {
            key: "time",
            title: t("records.time"),
            render: (r) => (mounted ? dayjs(r.time).format("YYYY-MM-DD HH:mm:ss") : "--"),
          },
          { key: "type", title: t("records.type"), render: (r) => t(`records.types.${r.type}`) },
          {
            key: "account",
            title: t("filters.account"),
            render: (r) => (r.mode === "cross" ? t("cross") : `${t("isolated")} ${r.symbol ?? ""}`),
          },
          { key: "asset", title: t("assets.asset"), render: (r) => r.asset },
          { key: "amount", title: t("records.amount"), render: (r) => part(r.amount) },
          { key: "principal", title: t("records.principal"), render: (r) => part(r.principal) },
          { key: "interest", title: t("assets.interest"), render: (r) => part(r.interest) },
        ]}
      />
    </RecordsFrame>
  );
}
