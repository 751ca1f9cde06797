import type { AnalyticsAudience, AnalyticsContent, AnalyticsCount } from "@meridian/contracts";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatCount, formatPercent } from "./format.ts";
import { languageName } from "./range.ts";

function Empty() {
  const { t } = useTranslation("analytics");
  return <p className="an-empty">{t("tables.empty")}</p>;
}

/** A card with a table of `rows` (one `<tr>` each from `cells`), or the empty note; `pathFirst`: the first column holds paths (long, breakable). */
function TableCard<Row>({
  title,
  columns,
  rows,
  rowKey,
  cells,
  wide = false,
  pathFirst = false,
}: {
  title: string;
  columns: string[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  cells: (row: Row) => ReactNode[];
  wide?: boolean;
  pathFirst?: boolean;
}) {
  return (
    <section className={wide ? "an-card an-wide" : "an-card"}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <table className="an-table">
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column}>{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {cells(row).map((cell, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed columns
                  <td key={index}>
                    {pathFirst && index === 0 ? <span className="an-path">{cell}</span> : cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Top pages, tracked page ids, and the expose -> click rate of each tracked element. */
export function ContentTables({ content, locale }: { content: AnalyticsContent; locale: string }) {
  const { t } = useTranslation("analytics");
  const n = (v: number) => formatCount(locale, v);
  return (
    <div className="an-grid an-grid-2">
      <TableCard
        title={t("tables.pages")}
        columns={[t("tables.path"), t("tables.views"), t("tables.visitors")]}
        rows={content.pages}
        rowKey={(p) => p.path}
        pathFirst
        cells={(p) => [p.path, n(p.views), n(p.visitors)]}
      />
      <TableCard
        title={t("tables.trackingIds")}
        columns={[t("tables.id"), t("tables.views"), t("tables.visitors")]}
        rows={content.trackingIds}
        rowKey={(p) => p.id}
        cells={(p) => [
          <>
            <code>{p.id}</code> {t(`tables.names.${p.id}`, { defaultValue: "" })}
          </>,
          n(p.views),
          n(p.visitors),
        ]}
      />
      <TableCard
        wide
        title={t("tables.elements")}
        columns={[t("tables.id"), t("tables.exposes"), t("tables.clicks"), t("tables.rate")]}
        rows={content.elements}
        rowKey={(e) => e.id}
        cells={(e) => [
          <code key="id">{e.id}</code>,
          n(e.exposes),
          n(e.clicks),
          e.rate === null ? t("tables.noRate") : formatPercent(locale, e.rate),
        ]}
      />
    </div>
  );
}

function Bars({
  title,
  rows,
  label,
  locale,
}: {
  title: string;
  rows: AnalyticsCount[];
  label: (key: string) => string;
  locale: string;
}) {
  const top = Math.max(1, ...rows.map((r) => r.count));
  return (
    <section className="an-card">
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <ul className="an-bars">
          {rows.map((r) => (
            <li key={r.key}>
              <span className="an-bar" style={{ width: `${(r.count / top) * 100}%` }} />
              <span className="an-bar-label">{label(r.key)}</span>
              <span className="an-bar-count">{formatCount(locale, r.count)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Visitors by referrer host, language, device, browser and screen size. */
export function AudienceLists({ audience, locale }: { audience: AnalyticsAudience; locale: string }) {
  const { t } = useTranslation("analytics");
  const same = (key: string) => key;
  return (
    <div className="an-grid an-grid-3">
      <Bars
        title={t("audience.referrers")}
        rows={audience.referrers}
        label={(k) => k || t("audience.direct")}
        locale={locale}
      />
      <Bars title={t("audience.languages")} rows={audience.languages} label={languageName} locale={locale} />
      <Bars
        title={t("audience.devices")}
        rows={audience.devices}
        label={(k) => t(`audience.sys.${k}`, { defaultValue: k })}
        locale={locale}
      />
      <Bars title={t("audience.browsers")} rows={audience.browsers} label={same} locale={locale} />
      <Bars title={t("audience.screens")} rows={audience.screens} label={same} locale={locale} />
    </div>
  );
}
