import type { SecurityReportItem, SecurityReportPage } from "@meridian/contracts";
import { Table, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { Form, useNavigate } from "react-router";
import { AdminNav, formatUtc } from "./admin-nav.tsx";

export interface ReportFilters {
  event: string;
  from: string;
  to: string;
}

/** The query string for these filters and a page (empty values left out). */
export function reportSearch(f: ReportFilters, page = 1): string {
  const q = new URLSearchParams();
  if (f.event) q.set("event", f.event);
  if (f.from) q.set("from", f.from);
  if (f.to) q.set("to", f.to);
  if (page > 1) q.set("page", String(page));
  const text = q.toString();
  return text === "" ? "" : `?${text}`;
}

/** `/admin/security-reports`: filters (GET form, works before hydration), counts per type, the paged table. */
export function SecurityReportsPage({
  locale,
  filters,
  data,
  error,
}: {
  locale: string;
  filters: ReportFilters;
  data: SecurityReportPage;
  error: string | null;
}) {
  const { t } = useTranslation("adminTools");
  const navigate = useNavigate();
  const types = [...new Set([...data.counts.map((c) => c.event), ...(filters.event ? [filters.event] : [])])];
  return (
    <div className="at-page">
      <AdminNav locale={locale} current="securityReports" />
      <h1>{t("reports.title")}</h1>
      <p className="at-muted">{t("reports.intro")}</p>
      {error ? (
        <p role="alert" className="at-error">
          {t("reports.badFilter", { msg: error })}
        </p>
      ) : null}
      <Form method="get" className="at-filters" aria-label={t("reports.title")}>
        <label>
          <span>{t("reports.type")}</span>
          <select name="event" defaultValue={filters.event}>
            <option value="">{t("reports.allTypes")}</option>
            {types.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{t("reports.from")}</span>
          <input type="date" name="from" defaultValue={filters.from} />
        </label>
        <label>
          <span>{t("reports.to")}</span>
          <input type="date" name="to" defaultValue={filters.to} />
        </label>
        <button type="submit" className="shell-button shell-button-primary">
          {t("reports.apply")}
        </button>
        <a className="at-clear" href="?">
          {t("reports.clear")}
        </a>
      </Form>
      <section aria-labelledby="at-by-type" className="at-counts">
        <h2 id="at-by-type">{t("reports.byType")}</h2>
        {data.counts.length === 0 ? (
          <p className="at-muted">{t("reports.none")}</p>
        ) : (
          <ul>
            {data.counts.map((c) => (
              <li key={c.event}>
                <a
                  href={reportSearch({ ...filters, event: c.event }) || "?"}
                  aria-current={c.event === filters.event ? "true" : undefined}
                >
                  <span className="at-count-event">{c.event}</span>
                  <span className="at-count-n">{c.count.toLocaleString(locale)}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      <p className="at-total" aria-live="polite">
        {t("reports.total", { n: data.total.toLocaleString(locale) })}
      </p>
      <Table<SecurityReportItem>
        rowKey="id"
        size="small"
        dataSource={data.items}
        scroll={{ x: 900 }}
        locale={{ emptyText: t("reports.none") }}
        pagination={{
          current: data.page,
          pageSize: data.pageSize,
          total: data.total,
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: (page) => void navigate(reportSearch(filters, page) || "?"),
        }}
        columns={[
          {
            title: t("reports.time"),
            dataIndex: "createdAt",
            width: 190,
            render: (v: number) => <time dateTime={new Date(v).toISOString()}>{formatUtc(v, locale)}</time>,
          },
          { title: t("reports.type"), dataIndex: "event", render: (v: string) => <Tag>{v}</Tag> },
          {
            title: t("reports.page"),
            dataIndex: "page",
            render: (v: string) => <code className="at-clip">{v}</code>,
          },
          {
            title: t("reports.userAgent"),
            dataIndex: "userAgentSummary",
            render: (v: string, row) =>
              v === "" ? (
                <span className="at-muted">{t("reports.unknownAgent")}</span>
              ) : (
                <span className="at-ltr" title={row.userAgent}>
                  {v}
                </span>
              ),
          },
          {
            title: t("reports.reason"),
            dataIndex: "reason",
            render: (v: string) => <span className="at-clip">{v}</span>,
          },
          {
            title: t("reports.user"),
            dataIndex: "userId",
            render: (v: string | null) => v ?? <span className="at-muted">{t("reports.anonymous")}</span>,
          },
        ]}
      />
    </div>
  );
}
