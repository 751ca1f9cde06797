import type { MarketSymbolInfo, OrderSideValue, PaperOrder, PaperTrade } from "@meridian/contracts";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { paperApi } from "../../api/paper.ts";
import { Loading } from "../../ui/loading.tsx";
import { SelectFilter } from "../../ui/record-filters.tsx";
import { LoadError } from "../shell/load-error.tsx";
import { AccountGate } from "./account-gate.tsx";
import { OrdersTable, type SymbolIndex, TradesTable } from "./order-tables.tsx";
import { TabStrip, type TradeAccess, useTradeAccess } from "./panel-parts.tsx";

const PAGE_SIZE = 20;
const TABS = ["open", "history", "trades"] as const;
type Tab = (typeof TABS)[number];

interface RecordsPageProps {
  locale: string;
  loggedIn: boolean;
  symbols: readonly MarketSymbolInfo[];
}

type Rows = { kind: "orders"; list: PaperOrder[] } | { kind: "trades"; list: PaperTrade[] };

/**
 * /record/exchange: the paper account's spot orders and trades with filters (tab, pair,
 * side; kept in the URL) and pages read backwards by id (`before` cursors).
 */
export function RecordsPage({ locale, loggedIn, symbols }: RecordsPageProps) {
  const { t } = useTranslation("trade");
  const access = useTradeAccess(loggedIn);
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get("tab") ?? "")
    ? (params.get("tab") as Tab)
    : "history";
  const symbol = symbols.some((s) => s.symbol === params.get("symbol")) ? (params.get("symbol") ?? "") : "";
  const sideParam = params.get("side");
  const side: OrderSideValue | "" = sideParam === "BUY" || sideParam === "SELL" ? sideParam : "";
  const [cursors, setCursors] = useState<number[]>([]);
  const [rows, setRows] = useState<Rows | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const index: SymbolIndex = useMemo(() => Object.fromEntries(symbols.map((s) => [s.symbol, s])), [symbols]);
  const before = cursors[cursors.length - 1];

  // biome-ignore lint/correctness/useExhaustiveDependencies: a filter change starts again from the newest page.
  useEffect(() => setCursors([]), [tab, symbol, side]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry: it reads again.
  useEffect(() => {
    if (access !== "ready") return undefined;
    let stale = false;
    setFailed(null);
    // The side is filtered by the server, before the page limit, so every page is full.
    const q = { symbol: symbol || undefined, side: side || undefined, limit: PAGE_SIZE, before };
    const load =
      tab === "trades"
        ? paperApi.trades(q).then((list): Rows => ({ kind: "trades", list }))
        : (tab === "open" ? paperApi.openOrders(q) : paperApi.orderHistory(q)).then(
            (list): Rows => ({ kind: "orders", list }),
          );
    load
      .then((r) => {
        if (!stale) setRows(r);
      })
      .catch((error: unknown) => {
        if (!stale) setFailed(error);
      });
    return () => {
      stale = true;
    };
  }, [access, tab, symbol, side, before, attempt]);

  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true, preventScrollReset: true });
  };

  const lastId = rows
    ? rows.kind === "trades"
      ? rows.list.at(-1)?.tradeId
      : rows.list.at(-1)?.orderId
    : undefined;
  const full = (rows?.list.length ?? 0) === PAGE_SIZE;

  return (
    <RecordsFrame
      title={t("records.title")}
      testId="records-page"
      locale={locale}
      read={{
        access,
        error: failed,
        retry: () => setAttempt((n) => n + 1),
        page: cursors.length + 1,
        newer: cursors.length > 0 ? () => setCursors((c) => c.slice(0, -1)) : undefined,
        older: full && lastId !== undefined ? () => setCursors((c) => [...c, lastId]) : undefined,
      }}
      loading={rows === null && failed === null}
      filters={
        <>
          <TabStrip
            tabs={TABS.map((key) => [key, t(`records.tabs.${key}`)] as const)}
            active={tab}
            onChange={(key) => setFilter("tab", key)}
            testIdPrefix="records-tab"
          />
          <SelectFilter
            label={t("records.pair")}
            allLabel={t("records.all")}
            value={symbol}
            choices={symbols.map((s) => ({ value: s.symbol, label: `${s.base}/${s.quote}` }))}
            onChange={(v) => setFilter("symbol", v)}
            testId="records-symbol"
          />
          <SelectFilter
            label={t("records.side")}
            allLabel={t("records.all")}
            value={side}
            choices={[
              { value: "BUY", label: t("form.buyShort") },
              { value: "SELL", label: t("form.sellShort") },
            ]}
            onChange={(v) => setFilter("side", v)}
            testId="records-side"
          />
        </>
      }
    >
      {rows?.kind === "trades" ? (
        <TradesTable trades={rows.list} symbols={index} testId="records-trades" />
      ) : (
        <OrdersTable orders={rows?.list ?? []} symbols={index} testId="records-orders" />
      )}
    </RecordsFrame>
  );
}

/** What a records page has read: who is looking, the last failure with its retry, and the pages. */
export interface RecordsRead {
  access: TradeAccess;
  /** The failed read's error (for `LoadError`), null when none. */
  error: unknown;
  retry: () => void;
  page: number;
  newer?: (() => void) | undefined;
  older?: (() => void) | undefined;
}

/**
 * The frame of a records page (/record/exchange, the margin, contract and statement
 * records): the title, then the login or simulation prompt, or the filters, the failed
 * read with its retry, the list (a placeholder instead while `loading`) and the pager.
 */
export function RecordsFrame({
  title,
  testId,
  locale,
  read,
  loading = false,
  filters,
  className = "records",
  filtersClassName = "records-filters",
  children,
}: {
  title: string;
  testId: string;
  locale: string;
  read: RecordsRead;
  /** The list's first read is under way (a list showing its own placeholder leaves it false). */
  loading?: boolean;
  filters: ReactNode;
  className?: string;
  filtersClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className={className} data-testid={testId}>
      <div className="records-inner">
        <h1>{title}</h1>
        {read.access !== "ready" ? (
          <AccountGate access={read.access} locale={locale} />
        ) : (
          <>
            <div className={filtersClassName}>{filters}</div>
            <LoadError error={read.error} onRetry={read.retry} />
            {loading ? <Loading /> : children}
            <RecordsPager page={read.page} newer={read.newer} older={read.older} />
          </>
        )}
      </div>
    </div>
  );
}

/** Newer / page n / older under a records list; a missing handler disables its button. */
export function RecordsPager({
  page,
  newer,
  older,
}: {
  page: number;
  newer?: (() => void) | undefined;
  older?: (() => void) | undefined;
}) {
  const { t } = useTranslation("trade");
  return (
    <nav className="records-pages" aria-label={t("records.pages")}>
      <button type="button" className="records-page" disabled={!newer} onClick={newer}>
        {t("records.newer")}
      </button>
      <span>{t("records.page", { page })}</span>
      <button
        type="button"
        className="records-page"
        disabled={!older}
        onClick={older}
        data-testid="records-older"
      >
        {t("records.older")}
      </button>
    </nav>
  );
}
