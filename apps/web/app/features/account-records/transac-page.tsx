import {
  type MarketSymbolInfo,
  STATEMENT_FILTER_TYPES,
  type StatementFilterType,
  type StatementLineView,
} from "@meridian/contracts";
import dayjs from "dayjs";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { trimDecimal } from "../../api/margin.ts";
import { downloadStatementCsv, recordsApi, type StatementFilters } from "../../api/records.ts";
import { type CursorPage, PAGE_SIZE, useCursorPages } from "../../lib/use-paged.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { Loading } from "../../ui/loading.tsx";
import { DateFilter, SelectFilter } from "../../ui/record-filters.tsx";
import { useTradeAccess } from "../trading-screen/panel-parts.tsx";
import { RecordsFrame } from "../trading-screen/records-page.tsx";
import { useMounted } from "../trading-screen/use-mounted.ts";

interface TransacProps {
  locale: string;
  loggedIn: boolean;
  symbols: readonly MarketSymbolInfo[];
  /** Phone layout (/trade-asset-order): cards instead of a table. */
  phone?: boolean;
}

/** Start of a `YYYY-MM-DD` day in the browser's zone, as epoch ms; undefined when empty. */
const dayStart = (v: string, plusDays = 0) =>
  v === "" ? undefined : dayjs(v).add(plusDays, "day").valueOf();

/**
 * /transac: every asset movement of the paper account (the journal read generically:
 * top-ups, resets, transfers, trades and their fees, funding, interest, liquidations,
 * realised PnL, and any kind added later), filtered by type, asset and dates, paged,
 * exported as CSV with the same filters.
 */
export function TransacPage({ locale, loggedIn, symbols, phone = false }: TransacProps) {
  const { t } = useTranslation("pages");
  const access = useTradeAccess(loggedIn);
  const mounted = useMounted();
  const [type, setType] = useState<"" | StatementFilterType>("");
  const [asset, setAsset] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [exporting, setExporting] = useState<"idle" | "busy" | "failed">("idle");
  const assets = useMemo(() => ["USDT", ...new Set(symbols.map((s) => s.base))], [symbols]);
  const filters: StatementFilters = {
    type: type || undefined,
    asset: asset || undefined,
    from: dayStart(from),
    to: dayStart(to, 1),
  };
  const paged = useCursorPages(access === "ready", JSON.stringify(filters), (before) =>
    recordsApi
      .statement({ ...filters, limit: PAGE_SIZE, before })
      .then((p): CursorPage<StatementLineView> => ({ rows: p.lines, next: p.next })),
  );
  const typeText = (v: string) => t(`transac.types.${v}`, { defaultValue: v });
  const walletText = (l: StatementLineView) =>
    `${t(`transac.wallets.${l.wallet}`, { defaultValue: l.wallet })}${l.symbol ? ` ${l.symbol}` : ""}`;
  const lineKey = (l: StatementLineView) => `${l.id}-${l.type}-${l.wallet}-${l.symbol ?? ""}-${l.asset}`;
  const when = (ms: number) => (mounted ? dayjs(ms).format("YYYY-MM-DD HH:mm:ss") : "--");
  const amount = (l: StatementLineView) => (
    <bdi dir="ltr" className={l.amount.startsWith("-") ? "is-down" : "is-up"}>
      {l.amount.startsWith("-") ? "" : "+"}
      {trimDecimal(l.amount)}
    </bdi>
  );

  const handleExport = () => {
    setExporting("busy");
    downloadStatementCsv(filters).then(
      () => setExporting("idle"),
      () => setExporting("failed"),
    );
  };

  return (
    <RecordsFrame
      title={t("transac.title")}
      testId="transac-page"
      className={phone ? "records transac is-phone" : "records transac"}
      locale={locale}
      read={{ access, ...paged }}
      filtersClassName="records-filters transac-filters"
      filters={
        <>
          <SelectFilter
            label={t("transac.type")}
            allLabel={t("transac.all")}
            value={type}
            choices={STATEMENT_FILTER_TYPES.map((v) => ({ value: v, label: typeText(v) }))}
            onChange={(v) => setType(v as "" | StatementFilterType)}
            testId="transac-type"
          />
          <SelectFilter
            label={t("transac.asset")}
            allLabel={t("transac.all")}
            value={asset}
            choices={assets}
            onChange={setAsset}
            testId="transac-asset"
          />
          <DateFilter label={t("transac.from")} value={from} onChange={setFrom} testId="transac-from" />
          <DateFilter label={t("transac.to")} value={to} onChange={setTo} testId="transac-to" />
          <button
            type="button"
            className="records-page transac-export"
            onClick={handleExport}
            disabled={exporting === "busy"}
            data-testid="transac-export"
          >
            {t("transac.export")}
          </button>
        </>
      }
    >
      {exporting === "failed" ? (
        <p className="trade-notice is-error" role="alert">
          {t("transac.failed")}
        </p>
      ) : null}
      {phone ? (
        <ul className="transac-cards" data-testid="transac-lines">
          {paged.rows.length === 0 ? (
            <li className="trade-empty">{paged.loading ? <Loading /> : t("transac.empty")}</li>
          ) : null}
          {paged.rows.map((l) => (
            <li key={lineKey(l)} data-type={l.type}>
              <div>
                <strong>{typeText(l.type)}</strong>
                <span>
                  {amount(l)} {l.asset}
                </span>
              </div>
              <div className="transac-card-meta">
                <span>{walletText(l)}</span>
                <span>{when(l.time)}</span>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <DataTable
          rows={paged.rows}
          rowKey={lineKey}
          rowAttrs={(l) => ({ "data-type": l.type })}
          empty={t("transac.empty")}
          loading={paged.loading}
          testId="transac-lines"
          columns={[
            { key: "time", title: t("transac.time"), render: (l) => when(l.time) },
            { key: "type", title: t("transac.type"), render: (l) => typeText(l.type) },
            { key: "wallet", title: t("transac.wallet"), render: walletText },
            { key: "asset", title: t("transac.asset"), render: (l) => l.asset },
            { key: "amount", title: t("transac.amount"), render: amount },
          ]}
        />
      )}
    </RecordsFrame>
  );
}
