import { useTranslation } from "react-i18next";
import type { DashboardData } from "./api.server.ts";
import { Filters } from "./filters.tsx";
import { KpiCards } from "./kpi-cards.tsx";
import type { DashboardFilters } from "./range.ts";
import { RealtimePanel } from "./realtime-panel.tsx";
import { SeriesChart } from "./series-chart.tsx";
import { AudienceLists, ContentTables } from "./tables.tsx";

export interface DashboardPageProps {
  data: DashboardData;
  filters: DashboardFilters;
  locale: string;
  now: number;
  dark: boolean;
}

/** `/analytics`: aggregates computed by the server for the chosen days and language. */
export function DashboardPage({ data, filters, locale, now, dark }: DashboardPageProps) {
  const { t } = useTranslation("analytics");
  return (
    <div className="an-page">
      <header className="an-head">
        <div>
          <h1>{t("title")}</h1>
          <p>{t("subtitle")}</p>
        </div>
        <Filters filters={filters} now={now} />
      </header>
      <KpiCards current={data.overview.current} previous={data.overview.previous} locale={locale} />
      <div className="an-grid an-grid-main">
        <SeriesChart series={data.overview.series} dark={dark} />
        <RealtimePanel realtime={data.realtime} locale={locale} />
      </div>
      <ContentTables content={data.content} locale={locale} />
      <AudienceLists audience={data.audience} locale={locale} />
    </div>
  );
}

/** What a visitor who is not an administrator sees. */
export function DashboardDenied({ status }: { status: number }) {
  const { t } = useTranslation("analytics");
  return (
    <div className="an-page an-denied">
      <h1>{t("denied.title")}</h1>
      <p role="alert">{status === 403 ? t("denied.forbidden") : t("denied.login")}</p>
    </div>
  );
}
